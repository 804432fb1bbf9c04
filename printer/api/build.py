"""``printer build`` and ``printer check-print``: what a build is asked for, and the build of every game it names."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Literal

from printer.api.common import load_cards, usage_error
from printer.api.pipeline import _build_game
from printer.api.results import (
    BuildResult,
    GameBuild,
    PrintCheck,
)
from printer.api.runtime import Runtime
from printer.problems import ERROR, Problem, RenderError
from printer.project import Game, Project
from printer.sheets.plan import BuildRequest

#: ``(label, total)`` when a game's sheets start, returning a function called with each number of sheets laid out
Progress = Callable[[str, int], Callable[[int], None]]


#: when a build lays out again together the faces edits laid out one by one (see :func:`build_game`)
Tidy = Literal["due", "later", "now"]


def build(
    project: Project,
    request: BuildRequest,
    progress: Progress | None = None,
    on_game: Callable[[GameBuild], None] | None = None,
    runtime: Runtime | None = None,
) -> BuildResult:
    """Print the card sheets (and the exports) of every game ``request`` names.

    ``progress`` is told when each game's sheets start and how many are
    laid out as they go; ``on_game`` gets each game's result as soon as it
    is done (so a caller can report while the next game builds); with
    ``request.lang`` ``"all"`` each game builds once per language it declares.
    ``runtime`` says how the builds run (:class:`~printer.api.runtime.Runtime`: the pool, the face cache, the
    memory policy; default: a new one for this call, its pool started by the first build).
    Raises :class:`UsageError` for unknown games, languages, options or profiles.
    """
    from printer.api.languages import build_languages

    chosen = [project.game(g) for g in request.games] if request.games else list(project.games.values())
    if not chosen:
        raise usage_error("the project has no games", "add a [games.<id>] table to printer.toml")
    langs = build_languages(project, chosen, request.lang)
    _check_request(project, chosen, request)
    runtime = runtime if runtime is not None else Runtime()
    result = BuildResult()
    with runtime.open(project, request):
        for game in chosen:
            for lang in langs[game.id]:
                each = request if lang == request.lang else replace(request, lang=lang)
                outcome = build_game(project, game, each, progress, runtime)
                result.games.append(outcome)
                if on_game:
                    on_game(outcome)
    return result


def _check_request(project: Project, chosen: list[Game], request: BuildRequest) -> None:
    """Raise :class:`UsageError` for what ``request`` asks of the ``chosen`` games that cannot be built.

    Checked before anything is built: options that need one game, ``--since`` with a decklist, the ICC profile,
    the image URL base, a preset's card sizes, ``--jobs`` and ``--players``.
    """
    if (request.cards_dir or request.deck_file or request.only) and len(chosen) != 1:
        raise usage_error("--cards, --deck and --only need exactly one game", "e.g. printer build GAME --deck FILE")
    if request.since and request.deck_file:
        raise usage_error("--since reprints a game's changed cards, not a decklist", "leave out --deck or --since")
    if request.icc:
        from printer.sheets.export.pdfx import check_profile

        check_profile(request.icc)
    if request.image_url_base is not None:
        from printer.sheets.export.tts_save import check_url_base

        check_url_base(request.image_url_base)
        if "tts-save" not in request.exports:
            raise usage_error(
                "--image-url-base is for the Tabletop Simulator save, which this build does not write",
                "add --export tts-save, or leave --image-url-base out",
                "--image-url-base",
            )
    if request.preset:
        from printer.sheets.export.presets import get_preset, plan
        from printer.sheets.layout import CARD_SIZES, parse_size

        preset = get_preset(request.preset)
        for game in chosen:  # a card size the vendor does not print is a usage error before anything is built
            plan(preset, parse_size(game.card_size, CARD_SIZES, "card size", project.limits.size_mm), game.id)
    if request.jobs is not None and request.jobs < 1:
        raise usage_error(f"--jobs {request.jobs}: at least 1 process is needed", "e.g. --jobs 2")
    if request.players is not None:
        from printer.sheets.players import check_players

        bad = check_players(request.players, "command line: --players")
        if bad is not None:
            raise usage_error(bad.message, bad.hint, bad.where)


def check_print(
    project: Project,
    games: Sequence[str] = (),
    dpi: float | None = None,
    tolerance: float | None = None,
    jobs: int | None = None,
    on_game: Callable[[PrintCheck], None] | None = None,
) -> list[PrintCheck]:
    """Check what a player sees: build each game's card sheets as ``build`` would (into a temporary folder; the
    project's ``build/`` is left as it is), then compare every face on the sheets with the same face laid out
    alone, at ``dpi`` (px per inch, default 100) and ``tolerance`` (percent, default 2): a face that prints
    blank, text that does not show, a face that differs from the face alone (:mod:`printer.sheets.verify`).
    Those are errors; the build's own problems keep their severity. Raises :class:`UsageError` for unknown games
    or a dpi out of 36-600."""
    import tempfile

    from printer.sheets.verify import DPI, TOLERANCE, Verify

    dpi = DPI if dpi is None else dpi
    tolerance = TOLERANCE if tolerance is None else tolerance
    if not 36 <= dpi <= 600:
        raise usage_error(f"--dpi {dpi:g}: between 36 and 600", "e.g. --dpi 100")
    if not 0 <= tolerance <= 100:
        raise usage_error(f"--tolerance {tolerance:g}: a percentage, 0 to 100", "e.g. --tolerance 2")
    chosen = list(games) or list(project.games)
    for game in chosen:
        project.game(game)  # an unknown game is a usage error before anything is built
    results = []
    with tempfile.TemporaryDirectory(prefix="printer-check-") as folder:
        verify = Verify(dpi, tolerance, ERROR)
        request = BuildRequest(tuple(chosen), out_dir=Path(folder), jobs=jobs, verify=verify)

        def done(outcome: GameBuild) -> None:
            check = PrintCheck(outcome.game, outcome.problems, dpi=dpi, tolerance=tolerance, failure=outcome.failure)
            check.faces, check.sheets = outcome.faces_checked, outcome.sheets_checked
            results.append(check)
            if on_game:
                on_game(check)

        build(project, request, on_game=done)
    return results


def build_game(
    project: Project,
    game: Game,
    request: BuildRequest,
    progress: Progress | None = None,
    runtime: Runtime | None = None,
    tidy: Tidy = "due",
) -> GameBuild:
    """Print one game's cards as ``request`` says (see :func:`build`); never raises for bad card data, a template
    error or a file a face may not read (the outcome's ``failure`` and ``problems`` say what is wrong).

    ``runtime`` holds the workers that lay the faces out and the face cache that holds faces laid out before and
    answers whether the build is up to date (:class:`~printer.api.runtime.Runtime`, open; default: this process,
    no cache).
    ``tidy`` says when faces that edits laid out one by one are laid out again together, so that the PDF
    does not keep a copy of their fonts for each, and when the PDF, updated edit after edit, is written whole
    again (:func:`printer.sheets.assemble.build_sheets`): ``"due"`` once there are enough of them or it has
    grown enough; ``"later"`` not in this build (a watch's save: :attr:`GameBuild.untidy` says whether it left
    some); ``"now"`` in this build, even when nothing else changed.
    """
    runtime = runtime if runtime is not None else Runtime()
    inputs = runtime.inputs(project, game, request)
    runtime.before_build(project, game, request)
    if tidy != "now" and not request.verify:
        remembered = runtime.recall(inputs)
        if remembered is not None:
            return remembered
    try:
        outcome = _build_game(project, game, request, progress, runtime, tidy != "later")
    except RenderError as exc:  # a template error, a blocked or unreadable file: this game's problems, as data
        problems = exc.problems or [Problem(f"templates/{game.id}", str(exc), code="template")]
        outcome = GameBuild(game.id, problems=list(problems), failure="not printed", lang=request.lang)
    from printer.cards.positions import with_lines

    outcome.problems = with_lines(outcome.problems)  # as validate places them: only files with problems are read
    runtime.remember(inputs, outcome)
    return outcome


def _rehearse(project: Project, game: Game, request: BuildRequest) -> None:
    """Have this process make a card's HTML and its sheet's as a build of ``game`` would, and throw them away
    (:func:`printer.sheets.assemble.rehearse`); what fails is left for the next build to report."""
    from printer.sheets import assemble
    from printer.sheets import job as sheet_job
    from printer.sheets.faces import items as print_items
    from printer.sheets.options import resolve_options, sheet_layout

    try:
        where = str(project.root / "printer.toml")
        opts = resolve_options(project.settings, game.settings, game.card_size, request.options, where, project.limits)
        source = request.cards_dir or game.cards
        cards = load_cards(project, [source], game.id)[0].get(game.id)
        if cards is None or not len(cards):
            return
        job = sheet_job.make_job(project, game, opts, [source.resolve()], cmyk_profile=request.icc)
        assemble.rehearse(
            job, print_items.items_for_cards([next(iter(cards))], cards), sheet_layout(opts, project.root)
        )
    except Exception:  # noqa: BLE001, S110 (a rehearsal: the build that follows reports what is wrong)
        pass
