"""The library API: one plain function per job, each returning a result with its problems as data.

The ``printer`` command is a thin layer over these functions (parse the
options, call one function, print the result, map it to an exit code), and
so is anything else that drives printer: a test, a preview server, a
script::

    from printer import api

    project = api.load_project("my-game")
    report = api.validate(project)
    if report.ok:
        result = api.build(project, api.BuildRequest(games=("starfall",)))
        for game in result.games:
            print(game.target, game.cards, "cards on", game.sheets, "sheets")
    decks = api.check_decks(project, [Path("storm.txt")], "starfall-standard")

Problems are :class:`~printer.problems.Problem` records with a
:class:`~printer.problems.Severity`; nothing here prints or exits. Usage
mistakes (an unknown game, a missing folder) raise
:class:`~printer.problems.UsageError`, which carries its problems too.
"""

from __future__ import annotations

import contextlib
import gc
import hashlib
import os
import sys
import threading
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from printer.api.translations import (
    GameTranslations,
    TranslationReport,
    game_translations,
    path_translations,
    translation_report,
)
from printer.api.translations_io import (
    TranslationsExport,
    TranslationsImport,
    export_translations,
    import_summary,
    import_translations,
)
from printer.api.versions import ChangesReport, changes
from printer.limits import DEFAULT as DEFAULT_LIMITS
from printer.limits import Limits
from printer.limits import over as limit_over
from printer.paths import cache_folder, output_path, safe_file_name
from printer.problems import ERROR, WARNING, PrinterError, Problem, UsageError, counted, errors
from printer.project import Game, Project
from printer.project import load_project as _load_project
from printer.sheets.players import MAX_PLAYERS

if TYPE_CHECKING:
    from printer.cards.importing import ImportResult
    from printer.cards.model import CardSet
    from printer.cards.schema import SchemaStore
    from printer.decks.formats import Format
    from printer.decks.report import DeckReport
    from printer.sheets.cache import FaceCache
    from printer.sheets.compose import PrintItem
    from printer.sheets.options import PrintOptions
    from printer.sheets.parallel import JobSpec, Workers
    from printer.sheets.verify import Verify

__all__ = [
    "watch",
    "AlignResult",
    "CleanResult",
    "clean",
    "BookBuild",
    "BoxBuild",
    "BuildRequest",
    "BuildResult",
    "DeckCheck",
    "GameBuild",
    "ImportOutcome",
    "ValidationReport",
    "align",
    "build",
    "build_box",
    "build_rules",
    "import_cards",
    "export_cards",
    "CardsExport",
    "build_game",
    "check_decks",
    "check_print",
    "PrintCheck",
    "decks_summary",
    "project_formats",
    "GameListing",
    "list_games",
    "load_project",
    "MAX_PLAYERS",
    "usage_error",
    "validate",
    "game_checks",
    "format_checks",
    "GameTranslations",
    "TranslationReport",
    "game_translations",
    "path_translations",
    "translation_report",
    "TranslationsExport",
    "TranslationsImport",
    "export_translations",
    "import_summary",
    "import_translations",
    "ChangesReport",
    "changes",
]


def load_cards(
    project: Project, paths: list[Path], game: str | None = None, store: SchemaStore | None = None
) -> tuple[dict[str, CardSet], list[Problem]]:
    """:func:`printer.cards.catalog.load_cards`, imported when first called (``printer --help`` imports no validator)."""
    from printer.cards.catalog import load_cards as load

    return load(project, paths, game, store)


#: codes of the errors found in files already written (preflight of a preset, budgets): the files stay on disk
WRITTEN_BUT = ("preflight-", "budget-")


def usage_error(message: str, hint: str | None = None, where: str = "command line") -> UsageError:
    """A :class:`UsageError` (exit 2) carrying one located problem."""
    return UsageError(message, [Problem(where, message, hint, code="usage")])


def load_project(path: str | Path | None = None) -> Project:
    """The project at ``path`` (a folder holding printer.toml), or the nearest one above the current folder.

    What printer.toml may not decide alone (a ``read_also`` folder outside the project, a limit raised) takes the
    user's word (:mod:`printer.userconfig`); what is refused is in ``Project.problems`` as warnings.
    Raises :class:`UsageError` when there is none or printer.toml (or the user's config) is invalid.
    """
    return _load_project(Path(path) if path is not None else None)


def user_word_environment(read_also: list[str], allow_limit: list[str]) -> dict[str, str]:
    """The environment variables that carry the command line's ``--read-also DIR`` and ``--allow-limit NAME=VALUE``
    to every project loaded in this run (:func:`printer.userconfig.command_line`). Raises :class:`UsageError` for an
    unknown limit or a value that is not a positive number."""
    from printer.userconfig import command_line

    return command_line(read_also, allow_limit)


# -- validate -------------------------------------------------------------------------------------------------------


@dataclass
class ValidationReport:
    """Every card read, by game (``sets``), and every problem found (``problems``)."""

    sets: dict[str, CardSet]
    problems: list[Problem]
    #: the translation state of each game with more than one language (:mod:`printer.api.translations`)
    translations: TranslationReport | None = None

    @property
    def cards(self) -> int:
        return sum(len(s) for s in self.sets.values())

    @property
    def ok(self) -> bool:
        return not errors(self.problems)


def validate(
    project: Project, paths: Sequence[Path] = (), game: str | None = None, render: bool = True
) -> ValidationReport:
    """Read and validate the card files under ``paths`` (default: every game's card folder).

    ``game`` is the game of cards whose file and folder do not say. With
    ``render`` every card's template is also rendered to HTML (no PDF), so
    that a template error, an unknown icon or missing art is reported here
    rather than at build time (:func:`printer.sheets.preflight.preflight`).
    Validating the whole project (no ``paths``) also reports the translation
    state of each game with more than one language (``translations``:
    :func:`printer.api.translations.translation_report`).
    Raises :class:`UsageError` for an unknown ``game`` or when there is
    nothing to validate.
    """
    if game is not None:
        project.game(game)  # raises a usage error naming the closest game
    targets = list(paths) or [g.cards for g in project.games.values() if g.cards.is_dir()]
    if not targets:
        raise usage_error("no card files to validate", "pass PATHS or add cards under cards/<game>/")
    sets, problems = load_cards(project, targets, game)
    if render:
        from printer.sheets.preflight import preflight

        problems += preflight(project, sets, targets, problems)
    translations = None
    if not paths:  # the whole project: what else a build of each game reads and checks, and its formats
        for each in project.games.values():
            problems += game_checks(project, each, sets.get(each.id), render)
        problems += format_checks(project)
        translations = translation_report(project, sets)
        problems += translations.problems
    else:  # the overlays among the paths: their own problems (not checked against every card, which are not read)
        problems += path_translations(project, paths)
    return ValidationReport(sets, problems, translations)


def format_checks(project: Project) -> list[Problem]:
    """Every problem of the project's own format files (``schema/<game>/formats/*.json``), as ``printer deck check``
    reports them when it reads one: checked against ``schema/format.schema.json``, which accepts no unknown key
    (``copy_limt`` is an error at ``file::$.copy_limt``, the closest valid name as hint), and the checks named."""
    from printer.decks import FormatError, load_format_file
    from printer.decks.formats import format_files
    from printer.paths import bundled_root

    problems: list[Problem] = []
    for file, _, refused in format_files(project.root, [bundled_root()]):
        if refused is not None:  # a link out of the project: refused unread, as deck check refuses it
            problems.append(refused)
            continue
        try:
            load_format_file(file, [project.root])
        except FormatError as exc:
            problems += exc.problems
    return problems


def game_checks(project: Project, game: Game, cards: CardSet | None, aids: bool) -> list[Problem]:
    """What :func:`build` checks of ``game`` beyond its cards' data and faces, as it checks it (same places and
    severities): the sheet layout the settings give, the declared components, the cards-per-build limit and, with
    ``aids``, the player aids. ``cards`` are the game's valid cards (``None``: none). :func:`validate` and
    ``printer serve``'s problems panel report these too. Raises :class:`UsageError` where the build does (options
    printer.toml gives wrong).
    """
    from printer.sheets.components import read_components
    from printer.sheets.options import layout_report, resolve_options, sheet_layout

    where = str(project.root / "printer.toml")
    opts = resolve_options(project.settings, game.settings, game.card_size, {}, where, project.limits)
    if opts.sheet_layout is not None:
        project.contained(opts.sheet_layout, "sheet_layout", where)
    layout = sheet_layout(opts, project.root)
    problems = layout_report(opts, layout, where)[0]
    declared = game.settings.get("components")
    problems += read_components(declared, game.id, where, layout.page, opts.margin, project.limits.size_mm)[1]
    total = sum(card.copies for card in cards) if cards is not None else 0
    if total > project.limits.cards_per_build:
        problems.append(
            limit_over("cards_per_build", total, project.limits.cards_per_build, str(game.cards), "cards to print")
        )
    if aids and cards is not None:
        from printer.book import aid_items
        from printer.sheets.compose import allowed_roots

        problems += aid_items(project, game, allowed_roots(project, [game.cards.resolve()]))[1]
    return problems


# -- build ------------------------------------------------------------------------------------------------------------


@dataclass
class BuildRequest:
    """What ``build`` prints.

    ``games``: game ids (default: every game of the project). ``cards_dir``,
    ``only`` and ``deck_file`` need exactly one game: print the cards in
    another folder, only the cards with these ids or names, or a decklist's
    cards as many times as listed (proxies). ``out_dir`` defaults to the
    project's ``build/``. ``options`` are the sheet options as given on the
    command line (``paper``, ``margin``, ``duplex``... as strings or None;
    see :func:`printer.sheets.options.resolve_options`). ``exports`` are
    names from :data:`printer.sheets.export.EXPORTERS`; ``dpi`` (px per inch)
    and ``png_bleed`` configure them. ``icc`` is a CMYK output profile for
    PDF/X-4. ``strict`` makes every warning an error (nothing is written).
    ``aids`` prints the player aids after a whole game's cards. ``preset``
    names a print-on-demand vendor (:mod:`printer.sheets.export.presets`:
    ``mpc``, ``drivethrucards``, ``thegamecrafter``, ``printplaygames``,
    ``mbprint``) whose files are written beside the PDF; with ``icc`` its
    CMYK files are converted through that profile. ``jobs`` is the number of
    processes that lay faces out (default: the cores this process may use;
    1 lays out in this process); ``scheduler`` the address of a Dask
    ``distributed`` scheduler (``tcp://HOST:PORT``) to send them to instead.
    ``cache`` keeps laid-out faces in the project's ``build/.cache/faces``
    and takes unchanged ones from there (:mod:`printer.sheets.cache`).
    ``cut_files`` are cut-file formats (``svg``, ``dxf``: one file per
    sheet, the ``cut-svg`` / ``cut-dxf`` exports); ``image_url_base`` is
    where the player hosts the Tabletop Simulator images (``tts-save``;
    default ``file:///`` URLs, for local play only). ``players`` (1 to
    :data:`MAX_PLAYERS`) overrides printer.toml's ``players``: what the game
    marks per-player (cards, player aids, components) prints once per player
    (:mod:`printer.sheets.players`). ``verify`` checks the written sheets
    against the faces laid out alone (``True``: at 100 dpi, 2 % tolerance,
    as warnings; or a :class:`printer.sheets.verify.Verify`: dpi, tolerance,
    severity; ``build --verify``, :func:`check_print`). ``max_size`` (bytes)
    and ``min_dpi`` are budgets: every file written larger, or any image in a
    PDF written printed below ``min_dpi`` at its size, is an error naming the
    file (and the page and image), the files staying written. ``since`` (a
    git revision or a manifest file) prints only the cards whose printed face
    changed since then, and a changelog page, to ``<game>-reprint.pdf``
    (:mod:`printer.api.versions`). Every PDF gets its manifest beside it
    (``<pdf stem>.manifest.json``, :mod:`printer.sheets.manifest`).
    ``lang`` prints the cards in one language the game declares (``ja``;
    ``"all"``: each of them, one build a language), their files named
    ``<game>-ja.pdf``... (:mod:`printer.api.languages`); ``None`` prints them
    as their files hold them, under today's names.
    """

    games: Sequence[str] = ()
    cards_dir: Path | None = None
    only: Sequence[str] = ()
    deck_file: Path | None = None
    out_dir: Path | None = None
    options: dict[str, Any] = field(default_factory=dict)
    exports: Sequence[str] = ()
    dpi: int = 300
    png_bleed: bool = False
    icc: Path | None = None
    strict: bool = False
    aids: bool = True
    preset: str | None = None
    jobs: int | None = None
    scheduler: str | None = None
    cache: bool = True
    cut_files: Sequence[str] = ()
    image_url_base: str | None = None
    players: int | None = None
    verify: bool | Verify = False
    max_size: int | None = None
    min_dpi: float | None = None
    since: str | None = None
    lang: str | None = None


@dataclass
class GameBuild:
    """The outcome for one game: ``target`` (the PDF, ``None`` when nothing was printed), counts, problems.

    ``cards`` is the number of printed faces (fronts), ``sheets`` the number
    of sheets, ``grid`` the slots per sheet (``3x3`` or ``7 slots``),
    ``backs`` how backs print; ``exports`` one line per export written, with
    ``paths`` every file and folder written; ``failure`` says why nothing
    was printed (``None`` when printed); ``notes`` what the user must know
    to use the output (print at 100 % scale for registration marks).
    ``stats`` counts the work done (``faces laid out``, ``faces from cache``,
    WeasyPrint ``layouts`` and ``pages``, seconds); ``up_to_date`` is true
    when nothing changed since the last build and nothing was done. ``lang`` is the language printed
    (``None``: the build without ``--lang``).
    """

    game: str
    target: Path | None = None
    cards: int = 0
    sheets: int = 0
    grid: str = ""
    backs: str = ""
    problems: list[Problem] = field(default_factory=list)
    exports: list[str] = field(default_factory=list)
    paths: list[Path] = field(default_factory=list)
    failure: str | None = None
    notes: list[str] = field(default_factory=list)
    stats: dict[str, float] = field(default_factory=dict)
    up_to_date: bool = False
    lang: str | None = None

    @property
    def ok(self) -> bool:
        return self.failure is None


@dataclass
class BuildResult:
    """Every game's :class:`GameBuild`, in the order built."""

    games: list[GameBuild] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return all(g.ok for g in self.games)

    @property
    def problems(self) -> list[Problem]:
        return [p for g in self.games for p in g.problems]


#: ``(label, total)`` when a game's sheets start, returning a function called with each number of sheets laid out
Progress = Callable[[str, int], Callable[[int], None]]
#: when a build lays out again together the faces edits laid out one by one (see :func:`build_game`)
Tidy = Literal["due", "later", "now"]


def _strictly(problems: list[Problem], strict: bool) -> list[Problem]:
    return [p.with_severity(ERROR) for p in problems] if strict else problems


def build(
    project: Project,
    request: BuildRequest,
    progress: Progress | None = None,
    on_game: Callable[[GameBuild], None] | None = None,
) -> BuildResult:
    """Print the card sheets (and the exports) of every game ``request`` names.

    ``progress`` is told when each game's sheets start and how many are
    laid out as they go; ``on_game`` gets each game's result as soon as it
    is done (so a caller can report while the next game builds); with
    ``request.lang`` ``"all"`` each game builds once per language it declares.
    Raises :class:`UsageError` for unknown games, languages, options or profiles.
    """
    from printer.api.languages import build_languages

    chosen = [project.game(g) for g in request.games] if request.games else list(project.games.values())
    if not chosen:
        raise usage_error("the project has no games", "add a [games.<id>] table to printer.toml")
    langs = build_languages(project, chosen, request.lang)
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
    from printer.sheets.parallel import Workers

    result = BuildResult()
    cache = None
    folder = cache_folder(project.root, project.build_dir, "faces") if request.cache else None
    if folder is not None:
        from printer.sheets.cache import FaceCache

        cache = FaceCache(folder)
    try:
        with Workers(request.jobs, request.scheduler) as workers:
            for game in chosen:
                for lang in langs[game.id]:
                    each = request if lang == request.lang else replace(request, lang=lang)
                    outcome = build_game(project, game, each, progress, workers, cache)
                    result.games.append(outcome)
                    if on_game:
                        on_game(outcome)
    finally:
        if cache is not None:
            cache.close()
    return result


@dataclass
class PrintCheck:
    """One game's :func:`check_print`: ``problems`` (the build's, and each face that does not print as it looks
    alone, as errors), ``faces`` placed faces and ``sheets`` sheets compared, at ``dpi`` with ``tolerance``."""

    game: str
    problems: list[Problem] = field(default_factory=list)
    faces: int = 0
    sheets: int = 0
    dpi: float = 0.0
    tolerance: float = 0.0
    failure: str | None = None

    @property
    def ok(self) -> bool:
        return self.failure is None and not errors(self.problems)


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
            check.faces = int(outcome.stats.get("faces checked", 0))
            check.sheets = int(outcome.stats.get("sheets checked", 0))
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
    workers: Workers | None = None,
    cache: FaceCache | None = None,
    tidy: Tidy = "due",
) -> GameBuild:
    """Print one game's cards as ``request`` says (see :func:`build`); never raises for bad card data.

    ``workers`` lay the faces out (:class:`printer.sheets.parallel.Workers`; default: this process);
    ``cache`` holds faces laid out before (:class:`printer.sheets.cache.FaceCache`; default: none).
    ``tidy`` says when faces that edits laid out one by one are laid out again together, so that the PDF
    does not keep a copy of their fonts for each, and when the PDF, updated edit after edit, is written whole
    again (:func:`printer.sheets.assemble.build_sheets`): ``"due"`` once there are enough of them or it has
    grown enough; ``"later"`` not in this build (a watch's save: its stats say ``untidy faces`` and ``pdf to
    write whole``); ``"now"`` in this build, even when nothing else changed.
    """
    from printer.sheets.uptodate import recall, remember

    key, digest = (
        (_build_key(project, game, request), _build_signature(project, game, request)) if cache else ("", None)
    )
    if workers is not None and workers.rehearse and workers.can_warm:  # a watch: its pool ready for the first save
        workers.warm(_job_spec(project, game, request))
    known = None if request.since else cache  # a reprint depends on more than the project's files
    if known is not None and tidy != "now" and not request.verify:
        stored = recall(known.store, key, digest)
        remembered = _game_build_from(stored) if stored is not None else None
        if remembered is not None:
            remembered.notes = [*remembered.notes, "up to date: nothing changed since the last build"]
            remembered.stats, remembered.up_to_date = {}, True
            return remembered
    outcome = _build_game(project, game, request, progress, workers, cache, tidy != "later")
    if known is not None and not outcome.failure and outcome.target is not None:
        remember(known.store, key, digest, _game_build_data(outcome), outcome.paths)
    return outcome


def _rehearse(project: Project, game: Game, request: BuildRequest) -> None:
    """Have this process make a card's HTML and its sheet's as a build of ``game`` would, and throw them away
    (:func:`printer.sheets.assemble.rehearse`); what fails is left for the next build to report."""
    from printer.sheets import assemble, compose
    from printer.sheets.options import resolve_options, sheet_layout

    try:
        where = str(project.root / "printer.toml")
        opts = resolve_options(project.settings, game.settings, game.card_size, request.options, where, project.limits)
        source = request.cards_dir or game.cards
        cards = load_cards(project, [source], game.id)[0].get(game.id)
        if cards is None or not len(cards):
            return
        job = compose.make_job(project, game, opts, [source.resolve()], cmyk_profile=request.icc)
        assemble.rehearse(job, compose.items_for_cards([next(iter(cards))], cards), sheet_layout(opts, project.root))
    except Exception:  # noqa: BLE001, S110 (a rehearsal: the build that follows reports what is wrong)
        pass


def _job_spec(project: Project, game: Game, request: BuildRequest, opts: PrintOptions | None = None) -> JobSpec:
    """What a worker needs to lay out ``game``'s faces as ``request`` asks (``opts``: the options resolved)."""
    from printer.sheets.options import resolve_options
    from printer.sheets.parallel import JobSpec

    if opts is None:
        where = str(project.root / "printer.toml")
        opts = resolve_options(project.settings, game.settings, game.card_size, request.options, where, project.limits)
    source = request.cards_dir or game.cards
    extra = [source.resolve()] + ([request.deck_file.resolve().parent] if request.deck_file else [])
    roots = tuple(str(r) for r in extra)
    return JobSpec(str(project.root), game.id, opts, roots, str(request.icc) if request.icc else None)


#: set by the first build in this process (see :func:`_fresh_process`)
_BUILT_BEFORE: list[bool] = []


def _fresh_process() -> bool:
    """Whether this is the process's first build and WeasyPrint is not imported yet: a command, whose faces are best
    laid out by a pool started at once (:meth:`~printer.sheets.parallel.Workers.warm`). In a long-lived process
    (the local server), later builds lay a few faces out themselves, without starting processes."""
    fresh = not _BUILT_BEFORE and "weasyprint" not in sys.modules
    _BUILT_BEFORE[:] = [True]
    return fresh


def _game_build_data(outcome: GameBuild) -> dict[str, Any]:
    """``outcome`` as JSON data (for :mod:`printer.sheets.uptodate`; see :func:`_game_build_from`)."""
    from dataclasses import asdict

    data = asdict(outcome)
    data["target"] = str(outcome.target) if outcome.target is not None else None
    data["paths"] = [str(p) for p in outcome.paths]
    data["problems"] = [p.as_dict() for p in outcome.problems]
    return data


def _game_build_from(data: dict[str, Any]) -> GameBuild | None:
    """The :class:`GameBuild` :func:`_game_build_data` made, or ``None`` when ``data`` is not of its shape."""
    try:
        fields = dict(data)
        fields["target"] = Path(data["target"]) if data.get("target") is not None else None
        fields["paths"] = [Path(p) for p in data.get("paths", [])]
        fields["problems"] = [Problem(**p) for p in data.get("problems", [])]
        return GameBuild(**fields)
    except (TypeError, ValueError, KeyError):
        return None


def _build_key(project: Project, game: Game, request: BuildRequest) -> str:
    """Which build this is: the project, the game and every field of the request that changes the output."""
    from dataclasses import fields

    skip = {"games", "jobs", "scheduler", "cache"} | ({"lang"} if request.lang is None else set())
    asked = [(f.name, getattr(request, f.name)) for f in fields(request) if f.name not in skip]
    return hashlib.sha256(repr((str(project.root), game.id, asked)).encode()).hexdigest()


def _build_signature(project: Project, game: Game, request: BuildRequest) -> str | None:
    """The inputs' signature (:func:`printer.sheets.uptodate.signature`) for a build of ``game``."""
    from printer import __version__
    from printer.paths import bundled_root
    from printer.sheets.uptodate import signature

    files = [project.root / "printer.toml", game.schema]
    files += [p for p in (request.deck_file, request.icc) if p is not None]
    layout_file = request.options.get("sheet_layout") or game.settings.get("sheet_layout")
    layout_file = layout_file or project.settings.get("sheet_layout")
    if layout_file:
        files.append(project.root / str(layout_file))
    folders = [request.cards_dir or game.cards, *game.template_dirs, game.schema.parent, bundled_root() / "schema"]
    folders += [project.root / "rules" / game.id / "aids", *project.read_also]
    if request.lang is not None:  # a language's player aids (the translations are in the card folder, walked above)
        folders.append(project.root / "rules" / game.id)
    return signature([__version__, _build_key(project, game, request)], files, folders)


def _build_game(
    project: Project,
    game: Game,
    request: BuildRequest,
    progress: Progress | None = None,
    workers: Workers | None = None,
    cache: FaceCache | None = None,
    tidy: bool = True,
) -> GameBuild:
    from printer.sheets import assemble, compose
    from printer.sheets.export import EXPORTERS, ExportRequest
    from printer.sheets.options import layout_report, resolve_options, sheet_layout
    from printer.sheets.players import per_player, read_players

    outcome = GameBuild(game.id, lang=request.lang)
    suffix = f"-{request.lang}" if request.lang else ""  # printer.api.languages.lang_suffix
    toml = str(project.root / "printer.toml")
    opts = resolve_options(
        project.settings,
        game.settings,
        game.card_size,
        request.options,
        str(project.root / "printer.toml"),
        project.limits,
    )
    if opts.sheet_layout is not None and not request.options.get("sheet_layout"):  # named by printer.toml
        project.contained(opts.sheet_layout, "sheet_layout", str(project.root / "printer.toml"))
    layout = sheet_layout(opts, project.root)
    where = "command line" if request.options.get("registration") else str(project.root / "printer.toml")
    layout_problems, outcome.notes = layout_report(opts, layout, where)
    out_dir = request.out_dir or project.build_dir
    source = request.cards_dir or game.cards
    spec = _job_spec(project, game, request, opts)
    if workers is not None and _fresh_process():  # workers import WeasyPrint while the cards are read
        workers.warm(spec)
    sets, problems = load_cards(project, [source], game.id)
    if errors(problems):
        outcome.problems, outcome.failure = _strictly(problems, request.strict), "not printed: fix the card files first"
        return outcome
    cards = sets.get(game.id)
    if cards is None or not len(cards):
        outcome.problems = _strictly(
            problems + [Problem(str(source), "no cards to print", code="empty")], request.strict
        )
        outcome.failure = "not printed: no cards"
        return outcome
    players, per, player_problems = read_players(project.settings, game.settings, game.id, toml)
    if request.players is not None:
        players = request.players
    if request.deck_file:
        from printer.decks.resolve import remember_titles, translated_titles

        for titles in translated_titles(project, [source], {game.id: cards}).values():
            remember_titles(cards, titles)  # a decklist may name the cards in any of their languages
        items, found = deck_items(request.deck_file, cards, project.limits)
        items = compose.sort_items(items, opts.sort)
        deck_name = f"{game.id}-{compose.slug(request.deck_file.stem)}{suffix}"
        target = output_path(out_dir, safe_file_name(deck_name) + ".pdf")
    else:
        selected, found = compose.select(cards, request.only)
        total = sum(card.copies * (players if per.holds(card.data) else 1) for card in selected)
        if total > project.limits.cards_per_build:
            where = str(source)
            too_many = limit_over("cards_per_build", total, project.limits.cards_per_build, where, "cards to print")
            outcome.problems, outcome.failure = [too_many], "not printed"
            return outcome
        items = compose.sort_items(compose.items_for_cards(selected, cards), opts.sort)
        items = per_player(items, players, lambda item: item.card is not None and per.holds(item.card.data))
        if not request.only and request.aids:  # player aids print with the whole game (printer.book.aids)
            from printer.book import aid_items

            roots = compose.allowed_roots(project, [source.resolve()])
            aids, aid_problems = aid_items(project, game, roots, request.lang)
            items, problems = items + aids * (players if per.aids else 1), problems + aid_problems
        target = output_path(out_dir, f"{game.id}{suffix}.pdf")
    locate = None
    if request.lang is not None:  # the cards in that language (printer.api.languages)
        from printer.api.languages import translated_items

        items, lang_problems, locate = translated_items(project, game, cards, items, [source], request.lang)
        problems = problems + lang_problems
    components: list[tuple[Any, list[PrintItem]]] = []
    component_problems: list[Problem] = []
    if not request.deck_file:  # a decklist prints its cards as proxies, whatever they are
        components, items, component_problems = _split_components(
            project, game, items, layout.page, opts.margin, players
        )
    problems += player_problems + found + layout_problems + component_problems
    if errors(problems) or (request.strict and problems):
        outcome.problems, outcome.failure = _strictly(problems, request.strict), "not printed"
        return outcome
    n_sheets = -(-len(items) // layout.per_sheet)
    if n_sheets > project.limits.sheets_per_build:
        problem = limit_over("sheets_per_build", n_sheets, project.limits.sheets_per_build, str(source), "sheets")
        outcome.problems, outcome.failure = problems + [problem], "not printed"
        return outcome
    extra = [Path(r) for r in spec.extra_roots]
    job = compose.make_job(project, game, opts, extra, cmyk_profile=request.icc, lang=request.lang)
    job.renderer.locate = locate
    reprint = None
    if request.since and not request.deck_file:  # a reprint: the cards whose printed face changed
        from printer.api.versions import reprint_items

        items, reprint = reprint_items(project, game, opts, request.since, items, request.options, request.lang)
        problems += reprint.problems
        whole = target.with_name(f"{target.stem}-components.pdf")
        pieces = {item.card.id for _, its in components for item in its if item.card is not None}
        changed = [c.name for c in reprint.reprint if c.id in pieces]  # tokens, tiles, boards: not in a reprint
        if changed:
            outcome.notes = [
                *outcome.notes,
                f"{game.id}{suffix}: {counted(len(changed), 'component')} changed ({', '.join(changed)}), not in the "
                f"reprint: print them from {whole.name} of a whole build",
            ]
        target, components = target.with_name(f"{target.stem}-reprint.pdf"), []  # beside the whole PDF
        n_sheets = -(-len(items) // layout.per_sheet)
        if not items:
            note = f"{game.id}{suffix}: nothing to reprint: no card's printed face changed since {request.since}"
            outcome.problems, outcome.notes = problems, [*outcome.notes, note]
            return outcome
    label = f"{game.id}{suffix}: {counted(len(items), 'card')}"
    checked = assemble.Checked()
    from functools import partial

    from printer.api.versions import after_sheets, make_manifest

    manifest: list[dict[str, Any]] = []  # made while the faces are laid out
    update = progress(label, n_sheets) if progress else None
    found = (
        assemble.build_sheets(
            job,
            items,
            layout,
            target,
            game.name,
            update,
            request.strict,
            workers,
            spec,
            cache,
            tidy=tidy,
            verify=_verify(request),
            checked=checked,
            meanwhile=partial(make_manifest, manifest, project, game, job, items, layout.per_sheet, target),
        )
        if items or not components
        else []
    )
    if items and not (request.strict and found):
        found += after_sheets(project, game, job, items, layout, target, reprint, outcome, manifest)
    if components and not (request.strict and found):
        found += _build_components(
            project, game, opts, components, layout.page, out_dir, extra, outcome, workers, cache, locate
        )
    outcome.stats = {**job.stats, **outcome.stats}
    if request.verify:
        outcome.stats["faces checked"], outcome.stats["sheets checked"] = checked.faces, checked.pages
    if not (request.strict and found):
        export_request = ExportRequest(
            out_dir,
            target.stem,
            request.dpi,
            request.png_bleed,
            request.strict,
            layout=layout,
            title=game.name,
            deck=request.deck_file.stem if request.deck_file else None,
            image_url_base=request.image_url_base,
            components=tuple(components),
            component_job=_component_jobs(project, game, opts, layout.page, extra, request.lang, locate)[0]
            if components
            else None,
        )
        kinds = dict.fromkeys([*request.exports, *(f"cut-{f}" for f in request.cut_files)])
        if opts.registration == "cricut" and items:  # Design Space takes an image and a cut file per sheet
            kinds["cricut"] = None
        if "tts-save" in kinds:  # it writes the tts sheets too
            kinds.pop("tts", None)
        for kind in kinds:
            exported = EXPORTERS[kind](job, items, export_request)
            outcome.exports.append(exported.summary)
            outcome.paths += exported.paths
            found += exported.problems
        if request.preset:
            from printer.sheets.export.presets import export_preset

            made = export_preset(request.preset, job, items, out_dir, target.stem, request.icc, request.strict)
            outcome.exports += made.summary
            outcome.paths += made.paths
            found += made.problems
    if request.max_size or request.min_dpi:
        from printer.sheets.export.preflight import budget_problems

        found += budget_problems([target, *outcome.paths], request.max_size, request.min_dpi)
    problems += _unique(found, problems)
    if request.min_dpi:
        problems = [_art_budget(p, request.min_dpi) for p in problems]
    outcome.problems = _strictly(problems, request.strict)
    if errors(outcome.problems):
        if all(p.code.startswith(WRITTEN_BUT) for p in errors(outcome.problems)):
            outcome.failure = "written, but not as the print shop takes it (the errors above)"
        else:
            outcome.failure = "not printed (--strict)" if request.strict else "not printed"
        return outcome
    if not items and components:
        target = outcome.paths[0]
    outcome.target, outcome.cards, outcome.sheets = target, len(items), n_sheets
    outcome.grid = f"{layout.per_sheet} slots" if layout.explicit is not None else f"{layout.cols}x{layout.rows}"
    outcome.backs = opts.describe_backs()
    if target not in outcome.paths:
        outcome.paths.insert(0, target)
    return outcome


def _verify(request: BuildRequest) -> Verify | None:
    """What ``request.verify`` asks the build to check (:mod:`printer.sheets.verify`), or ``None``."""
    from printer.sheets.verify import Verify

    if isinstance(request.verify, Verify):
        return request.verify
    return Verify() if request.verify else None


def _art_budget(problem: Problem, min_dpi: float) -> Problem:
    """A ``low-dpi`` art warning (the art file's own pixels at its printed size) as an error when under ``min_dpi``.

    The art printer prepares for a card is resampled to 300 dpi, so the PDF's
    images alone cannot show art that is too small: its warning can.
    """
    import re

    if problem.code != "low-dpi":
        return problem
    found = re.search(r" is (\d+(?:\.\d+)?) dpi", problem.message)
    if found is not None and float(found.group(1)) >= min_dpi - 0.5:
        return problem
    return Problem(problem.where, f"{problem.message}: below --min-dpi {min_dpi:g}", problem.hint, ERROR, "budget-dpi")


def _split_components(
    project: Project,
    game: Game,
    items: list[PrintItem],
    page: tuple[float, float],
    margin: float,
    players: int = 1,
) -> tuple[list[tuple[Any, list[PrintItem]]], list[PrintItem], list[Problem]]:
    """The game's declared components (printer.toml ``[games.<id>.components.*]``, :mod:`printer.sheets.components`)
    with the print items each holds, the items left for the card sheets, and the declarations' problems.

    A component with a ``copies_field`` prints each of its cards as many times as that field says; one marked
    ``per_player`` prints all of them once per player (``players``).
    """
    from printer.sheets.components import read_components

    declared, problems = read_components(
        game.settings.get("components"),
        game.id,
        str(project.root / "printer.toml"),
        page,
        margin,
        project.limits.size_mm,
    )
    if not declared or problems:
        return [], items, problems
    groups: dict[str, list[PrintItem]] = {c.name: [] for c in declared}
    counted: set[tuple[str, str]] = set()
    rest = []
    for item in items:
        data = item.card.data if item.card is not None else {}
        component = next((c for c in declared if item.card is not None and c.holds(data)), None)
        if component is None:
            rest.append(item)
            continue
        if component.copies_field is None:
            groups[component.name].append(item)
            continue
        assert item.card is not None
        if (component.name, item.card.id) in counted:  # the card's own copies are replaced by the field's count
            continue
        counted.add((component.name, item.card.id))
        value = data.get(component.copies_field, 1)
        count = value if isinstance(value, int) and not isinstance(value, bool) and value >= 0 else 1
        groups[component.name] += [item] * min(count, project.limits.copies_per_line)
    for c in declared:
        if c.per_player:
            groups[c.name] = groups[c.name] * players
    return [(c, groups[c.name]) for c in declared if groups[c.name]], rest, problems


def _build_components(
    project: Project,
    game: Game,
    opts: PrintOptions,
    components: list[tuple[Any, list[PrintItem]]],
    page: tuple[float, float],
    out_dir: Path,
    extra: list[Path],
    outcome: GameBuild,
    workers: Workers | None,
    cache: FaceCache | None,
    locate: Callable[[Any, str], str | None] | None = None,
) -> list[Problem]:
    """``<game>-components.pdf`` (``<game>-ja-components.pdf`` in one language, ``outcome.lang``): the components'
    sheets (:func:`printer.sheets.components.build_components`)."""
    from printer.sheets.components import build_components

    job_for, spec_for = _component_jobs(project, game, opts, page, extra, outcome.lang, locate)
    suffix = f"-{outcome.lang}" if outcome.lang else ""
    target = output_path(out_dir, f"{game.id}{suffix}-components.pdf")
    made, problems = build_components(components, job_for, page, target, game.name, workers, spec_for, cache)
    counts = ", ".join(counted(n, name) for name, n in made.counts.items())
    fronts = sum(1 for s in made.sheets if s.side == "front")
    for name, value in made.stats.items():
        outcome.stats[f"components: {name}"] = value
    boards = f", {made.board_pages} of them a board's pages" if made.board_pages else ""
    outcome.exports.append(f"{target}: components {counts} on {counted(fronts, 'sheet')}{boards}")
    outcome.paths.append(target)
    return problems


def _component_jobs(
    project: Project,
    game: Game,
    opts: PrintOptions,
    page: tuple[float, float],
    extra: list[Path],
    lang: str | None = None,
    locate: Callable[[Any, str], str | None] | None = None,
) -> tuple[Callable[[Any], Any], Callable[[Any], Any]]:
    """``(job_for, spec_for)``: a component's print job (its card size the component's trim size, its templates
    shown ``component``, its faces in ``lang``) and the :class:`~printer.sheets.parallel.JobSpec` workers rebuild it
    from."""
    from dataclasses import replace

    from printer.sheets import compose
    from printer.sheets.parallel import JobSpec

    def options(component: Any) -> PrintOptions:
        return replace(opts, card=component.size, paper=page, orientation="as-given")

    def job_for(component: Any) -> compose.PrintJob:
        job = compose.make_job(project, game, options(component), extra, lang=lang)
        job.renderer.component, job.renderer.locate = component.view(), locate
        return job

    def spec_for(component: Any) -> JobSpec:
        return JobSpec(str(project.root), game.id, options(component), tuple(str(r) for r in extra))

    return job_for, spec_for


def _unique(found: list[Problem], already: list[Problem]) -> list[Problem]:
    """``found`` without repeats, and without problems already reported at the same place for the same reason."""
    seen = {(p.where, p.code) for p in already}
    out = []
    for p in found:
        if (p.where, p.code) not in seen:
            seen.add((p.where, p.code))
            out.append(p)
    return out


def _deck_names_in_every_language(project: Project, paths: list[Path], sets: dict[str, CardSet]) -> None:
    """Let a decklist printed from ``sets`` name each card by its translations' titles too, as deck check does."""
    from printer.decks.resolve import remember_titles, translated_titles

    for game_id, titles in translated_titles(project, paths, sets).items():
        remember_titles(sets[game_id], titles)


def deck_items(
    deck_file: Path, cards: CardSet, limits: Limits = DEFAULT_LIMITS
) -> tuple[list[PrintItem], list[Problem]]:
    """A decklist's cards as print items, each as many times as listed; returns ``(items, problems)``.

    A name missing from ``cards`` prints as a labelled placeholder (a
    warning); loosely matched names are warnings, as ``printer deck`` says.
    A line over ``limits.copies_per_line`` copies, or a deck over
    ``limits.cards_per_build``, is an error and prints nothing.
    """
    from printer.decks import read_decklist, resolve
    from printer.sheets.compose import items_for_counts

    deck, problems = read_decklist(deck_file)
    over = [
        limit_over("copies_per_line", e.count, limits.copies_per_line, f"{deck_file}:{e.line}", "copies")
        for e in deck.entries
        if e.count > limits.copies_per_line
    ]
    total = sum(max(e.count, 0) for e in deck.entries)
    if total > limits.cards_per_build and not over:
        over.append(limit_over("cards_per_build", total, limits.cards_per_build, str(deck_file), "cards in the deck"))
    if over:
        return [], list(problems) + over
    resolution = resolve(deck, cards)
    problems = list(problems) + list(resolution.problems) + list(resolution.notes)
    entries = [(r.entry.count, r.card, r.entry.name) for r in resolution.entries]
    items = items_for_counts(entries, cards)  # a double-faced card prints its other side (back_card) on its back
    placeholder = ("unknown-card", "ambiguous-card")
    return items, [p.with_severity(WARNING) if p.code in placeholder else p for p in problems]


@dataclass
class AlignResult:
    """The alignment page written: ``target``, how backs print (``backs``), the ``back_offset`` (x, y mm) used."""

    target: Path
    backs: str
    back_offset: tuple[float, float]
    problems: list[Problem] = field(default_factory=list)


def align(
    project: Project, options: dict[str, Any], card_size: str | None = None, out_file: Path | None = None
) -> AlignResult:
    """Print the duplex alignment test page for the project's first game (or ``card_size``).

    ``out_file`` is a folder (the page is ``alignment-<paper>-<duplex>.pdf`` in it; default the project's
    ``build/``) or, ending in ``.pdf``, the file itself.

    ``options`` are sheet options as in :class:`BuildRequest`. Raises
    :class:`UsageError` when the options print no backs (``duplex`` none).
    """
    from printer.sheets.align import write_alignment_page
    from printer.sheets.compose import slug
    from printer.sheets.options import resolve_options

    game = next(iter(project.games.values()), None)
    size = card_size or (game.card_size if game else "poker")
    opts = resolve_options(
        project.settings,
        game.settings if game else {},
        size,
        options,
        str(project.root / "printer.toml"),
        project.limits,
    )
    if opts.duplex == "none":
        raise usage_error("--duplex none prints no backs to align", "use long-edge, short-edge or fold")
    paper = str(options.get("paper") or project.settings.get("paper", "A4"))
    name = f"alignment-{slug(paper)}-{opts.duplex}.pdf"
    if out_file is not None and out_file.suffix.lower() == ".pdf" and not out_file.is_dir():
        target = out_file  # --out FILE.pdf, as earlier versions took it
    else:
        target = output_path(out_file or project.build_dir, name)
    problems = write_alignment_page(project, game, opts, target)
    return AlignResult(target, opts.describe_backs(), opts.back_offset, problems)


# -- import ---------------------------------------------------------------------------------------------------------


@dataclass
class ImportOutcome:
    """An import written (or, ``dry_run``, not): ``files`` maps each file name to ``(status, card count)``.

    A status is ``new``, ``changed`` or ``unchanged``; ``needs_force`` lists
    the changed files left alone for want of ``force``; ``summary`` is the
    importer's one-line account of what it read.
    """

    out: Path
    files: dict[str, tuple[str, int]]
    needs_force: list[str]
    summary: str
    problems: list[Problem]
    dry_run: bool = False

    @property
    def written(self) -> int:
        return sum(status != "unchanged" for status, _ in self.files.values())


def import_cards(
    project: Project | None,
    game: str,
    result: ImportResult,
    summary: Callable[[list[dict[str, Any]]], str],
    out: Path,
    force: bool = False,
    dry_run: bool = False,
) -> ImportOutcome:
    """Write an importer's ``result`` (``problems``, ``cards``, ``by_file()``) as card files of ``game`` into ``out``.

    ``summary`` is the importer's one-line account of the cards. Card files
    name the game's schema: the project's, else printer's bundled one.
    Files are written atomically; a file that would change needs ``force``
    (see :func:`write_card_files`).
    """
    from printer.cards.importing import card_file_text
    from printer.paths import bundled_schema

    if project is not None and game in project.games:
        schema = project.games[game].schema
    else:
        schema = bundled_schema(game, "card.schema.json")
    files = result.by_file()
    uri = schema.resolve().as_uri()
    texts = {name: card_file_text(game, cards, uri) for name, cards in files.items()}
    status = write_card_files(texts, out, force, dry_run)
    needs_force = [name for name in files if status[name] == "changed" and not force]
    counts = {name: (status[name], len(cards)) for name, cards in files.items()}
    return ImportOutcome(out, counts, needs_force, summary(result.cards), list(result.problems), dry_run)


@dataclass
class CardsExport:
    """What :func:`export_cards` did: ``count`` cards written to ``path`` (none when ``problems`` hold an error)."""

    path: Path
    count: int = 0
    problems: list[Problem] = field(default_factory=list)


def export_cards(project: Project, game: str, out: Path, cards_dir: Path | None = None) -> CardsExport:
    """Write ``game``'s cards (from ``cards_dir``, default the game's card folder) to the spreadsheet ``out``.

    ``out`` ends in ``.xlsx``, ``.csv`` or ``.ods`` (:mod:`printer.cards.export`). Cards with errors are reported
    in the result and nothing is written. Raises :class:`UsageError` for another ending or an unknown game.
    """
    from printer.cards.catalog import load_cards, schema_store
    from printer.cards.export import FORMATS
    from printer.cards.export import export_cards as write_sheet

    if out.suffix.lower() not in FORMATS:
        raise usage_error(f"cannot export to {out.name}", "write a file ending in .xlsx, .csv or .ods")
    spec = project.game(game)
    store = schema_store(project)
    sets, problems = load_cards(project, [cards_dir or spec.cards], game, store=store)
    if errors(problems):
        return CardsExport(out, 0, problems)
    count = write_sheet(list(sets.get(game, [])), store, spec.schema, out)
    return CardsExport(out, count, problems)


def write_card_files(texts: dict[str, str], out: Path, force: bool, dry_run: bool) -> dict[str, str]:
    """Write ``{file name: text}`` into ``out``; returns ``{file name: status}``.

    A file's status is ``new``, ``changed`` or ``unchanged`` (same text:
    left alone, never rewritten). A file that would change needs ``force``:
    without it a :class:`UsageError` is raised before anything is written,
    except with ``dry_run``, which never writes and lets the caller report. An ``out`` in printer's bundled files
    is a :class:`UsageError` too (:func:`printer.paths.bundled_problem`: no writer changes them).
    """
    from printer.fsutil import atomic_write_text
    from printer.paths import bundled_problem

    if out.exists() and not out.is_dir():
        raise usage_error(f"--out {out} is a file, not a folder")
    bundled = bundled_problem(out, "--out")
    if bundled is not None:
        raise UsageError(bundled.message, [bundled])
    status = {}
    for name, text in texts.items():
        path = out / name
        old = path.read_text(encoding="utf-8", errors="replace") if path.is_file() else None
        status[name] = "new" if old is None else "unchanged" if old == text else "changed"
    conflicts = [name for name, st in status.items() if st == "changed" and not force]
    if conflicts and not dry_run:
        raise usage_error(
            f"{counted(len(conflicts), 'file')} in {out} would be overwritten: " + ", ".join(conflicts),
            "pass --force to overwrite them, or --dry-run to see the changes",
        )
    if not dry_run:
        for name, text in texts.items():
            if status[name] != "unchanged":
                atomic_write_text(out / name, text)
    return status


# -- rules references ---------------------------------------------------------------------------------------------


@dataclass
class BookBuild:
    """One rules reference: ``game``, ``edition`` (``None`` for the main one), ``target`` PDF and ``pages``.

    ``target`` is ``None`` when nothing was printed; ``problems`` says why.
    """

    game: str
    edition: str | None
    target: Path | None
    pages: int = 0
    problems: list[Problem] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return self.target is not None


def build_rules(
    project: Project,
    game: str | None = None,
    paths: Sequence[Path] = (),
    out_dir: Path | None = None,
    paper: str | None = None,
    edition: str | None = None,
    cards_dir: Path | None = None,
    strict: bool = False,
    on_book: Callable[[BookBuild], None] | None = None,
    lang: str | None = None,
) -> list[BookBuild]:
    """Print the rules reference of ``game`` (every game with a rules folder when ``None``) to PDF.

    Reads ``rules/<game>/*.md`` (or the Markdown files or folder ``paths``)
    and writes ``<out_dir>/<game>-rules.pdf`` plus one PDF per edition
    folder; ``paper`` is a page size name or ``WxH mm``; ``edition`` keeps
    one edition (``main`` for the main one). ``on_book`` gets each book as
    it is done. ``lang`` keeps the editions in one language the game declares
    (each edition's ``rules.toml`` ``lang``; the main edition's default is the
    game's source language), ``"all"`` those in any language it declares; a
    game with none in ``lang`` gets a ``no-rules`` error. Raises
    :class:`UsageError` for a project without rules, ``paths`` without a game,
    or a language a game does not declare.
    """
    from pypdf import PdfReader

    from printer.book import build_book, edition_for_paths, find_editions, read_edition, rules_folder
    from printer.sheets.compose import allowed_roots
    from printer.sheets.layout import PAPER_SIZES, parse_size

    if game is None:
        games = [g for g in project.games.values() if rules_folder(project, g).is_dir()]
        if not games:
            raise usage_error("no game of the project has rules", "write rules/<game>/*.md")
    else:
        games = [project.game(game)]
    if paths and len(games) != 1:
        raise usage_error("PATHS need a game", "e.g. printer rules GAME my-rules/")
    page = parse_size(paper or project.settings.get("paper", "A4"), PAPER_SIZES, "paper size", project.limits.size_mm)
    out_dir = out_dir or project.build_dir
    books: list[BookBuild] = []
    if lang is not None:
        from printer.api.languages import build_languages

        langs = build_languages(project, games, lang)

    def done(book: BookBuild) -> None:
        books.append(book)
        if on_book:
            on_book(book)

    for chosen in games:
        editions = [edition_for_paths(chosen, list(paths))] if paths else find_editions(project, chosen)
        if edition:
            editions = [e for e in editions if (e.name or "main") == edition]
        hint = None
        if lang is not None and editions:
            from printer.api.languages import editions_in

            editions, hint = editions_in(project, chosen, editions, langs[chosen.id])
        if not editions:
            where = str(rules_folder(project, chosen))
            what = f"no edition {edition!r}" if edition else "no rules folder"
            what = f"no {lang} edition" if hint else what
            hint = hint or f"write the rules in {where}/*.md"
            problem = Problem(where, f"{chosen.id}: {what}", hint, code="no-rules")
            done(BookBuild(chosen.id, edition, None, problems=_strictly([problem], strict)))
            continue
        for found in editions:
            problems = read_edition(found)
            target = output_path(out_dir, found.output_name())
            if not errors(problems):
                roots = allowed_roots(project, [p for p in [cards_dir, found.folder] if p])
                problems += build_book(project, chosen, found, target, page, roots, cards_dir, strict)
            problems = _strictly(problems, strict)
            if errors(problems):
                done(BookBuild(chosen.id, found.name, None, problems=problems))
            else:
                done(BookBuild(chosen.id, found.name, target, len(PdfReader(target).pages), problems))
    return books


# -- decks ------------------------------------------------------------------------------------------------------------


@dataclass
class DeckCheck:
    """One decklist checked against its format.

    ``report`` is the verdict (for an unreadable decklist, a report holding
    its read errors); ``readable`` is false when the decklist could not be
    read at all (the CLI's exit 2); ``card_problems`` are the errors in the
    card files (those cards are left out of the check).
    """

    deck: Path
    report: DeckReport
    readable: bool = True
    read_problems: list[Problem] = field(default_factory=list)
    card_problems: list[Problem] = field(default_factory=list)
    card_sources: list[Path] = field(default_factory=list)

    @property
    def legal(self) -> bool:
        return self.readable and self.report.is_legal()

    def strict_failed(self, strict: bool) -> bool:
        """Legal, but with warnings (or errors in the card files) that ``--strict`` counts as errors."""
        return strict and self.legal and bool(self.report.warnings or self.card_problems)

    def accepted(self, strict: bool = False) -> bool:
        """Legal (and, with ``strict``, without a warning)."""
        return self.legal and not self.strict_failed(strict)


def decks_summary(checks: Sequence[DeckCheck], strict: bool = False) -> str:
    """One line for many checks: ``319 decklists: 90 legal, 120 illegal, 106 not resolved, 3 unreadable``.

    With ``strict`` a legal deck with warnings counts as ``not accepted (--strict)``.
    """
    counts = {"legal": 0, "not accepted (--strict)": 0, "illegal": 0, "not resolved": 0, "unreadable": 0}
    for check in checks:
        status = check.report.status if check.readable else "unreadable"
        if status == "legal" and check.strict_failed(strict):
            status = "not accepted (--strict)"
        counts["not resolved" if status == "unresolved" else status] += 1
    n = len(checks)
    parts = [f"{count} {status}" for status, count in counts.items() if count or status == "legal"]
    return f"{counted(n, 'decklist')}: " + ", ".join(parts)


def check_decks(
    project: Project | None,
    decks: Sequence[Path],
    format_ref: str | None = None,
    card_dirs: Sequence[Path] = (),
) -> list[DeckCheck]:
    """Check each decklist (plain text, a game's text format or JSON) against a format; one :class:`DeckCheck` per
    decklist.

    ``decks`` are decklist files and folders: a folder stands for every
    ``*.txt`` and ``*.json`` file under it, and every file with a suffix a
    game registers (:func:`printer.decks.readers.decklist_files`; at most the project's
    ``limits.decklists_per_check``). ``format_ref`` is a format id or file; without it each JSON deck's own
    ``format`` is used. ``card_dirs`` are the card files to resolve names
    against (default: the format's game's card folder). With no
    ``project`` (outside any project) formats are printer's bundled ones and
    cards are validated against the game's bundled schema. Cards are loaded
    once per game for all the decks, through the project's card cache
    (:mod:`printer.decks.card_cache`: the card files are read again only
    when they, the schemas or printer.toml changed). Raises
    :class:`UsageError` when no format is given or found, the card data is
    missing, a folder holds no decklist or there are too many.
    """
    from printer.decks import check, load_format, read_decklist
    from printer.decks.readers import decklist_files
    from printer.decks.report import DeckReport
    from printer.decks.resolve import Resolution

    limit = (project.limits if project is not None else DEFAULT_LIMITS).decklists_per_check
    decks, found = decklist_files(decks, limit)
    if found:
        raise UsageError(found[0].message, found)

    roots = [project.root] if project is not None else []
    loaded: dict[tuple[str, tuple[Path, ...]], tuple[CardSet, list[Problem]]] = {}
    formats: dict[str, Format] = {}  # each format read once for all the decks naming it

    def format_named(ref: str | Path) -> Format:
        if str(ref) not in formats:
            formats[str(ref)] = load_format(ref, roots)
        return formats[str(ref)]

    def one(deck: Path) -> DeckCheck:
        decklist, read_problems = read_decklist(deck)
        ref = format_ref or decklist.format
        if not ref and errors(read_problems):  # e.g. a JSON decklist whose "format" is invalid: say so, not "no format"
            raise UsageError(f"{deck}: the decklist cannot be read", errors(read_problems))
        if not ref:
            raise usage_error("no format given", f"pass --format FORMAT ({', '.join(project_formats(project))})")
        fmt = format_named(ref)
        if errors(read_problems):
            warnings = [p for p in read_problems if not p.is_error]
            report = DeckReport(decklist, fmt, Resolution([], []), read_errors=errors(read_problems), warnings=warnings)
            return DeckCheck(deck, report, readable=False, read_problems=read_problems)
        owner = project or _bare_project(fmt.game)
        cards, card_problems = _deck_cards(owner, fmt.game, card_dirs, loaded, cached=project is not None)
        sources = list(card_dirs) or [owner.games[fmt.game].cards]
        verdict = check(decklist, cards, fmt, read_problems)
        return DeckCheck(deck, verdict, True, read_problems, card_problems, sources)

    with _collector_paused():
        return [one(deck) for deck in decks]


@dataclass
class GameListing:
    """One game ``printer games`` lists: ``source`` is the plugin's package and version, or ``this project
    (printer.toml)`` for a game the project declares with no plugin; ``formats`` are the format ids of the game
    (the project's and printer's), ``checks``, ``importers`` and ``decklists`` what its plugin adds."""

    id: str
    name: str
    source: str
    formats: list[str] = field(default_factory=list)
    checks: list[str] = field(default_factory=list)
    importers: list[str] = field(default_factory=list)
    decklists: list[str] = field(default_factory=list)


def list_games(project: Project | None = None) -> list[GameListing]:
    """The installed games (the ``printer.games`` entry points), then the games ``project`` declares that no plugin
    provides, each with its formats."""
    from printer.decks import available_formats
    from printer.plugins import installed_games

    formats = available_formats([project.root] if project is not None else [])

    def own(game_id: str) -> list[str]:
        return sorted(f for f, path in formats.items() if path.parent.parent.name == game_id)

    listed = [
        GameListing(
            game.id,
            game.name,
            f"({game.source})",
            own(game.id),
            [f"{game.id}.{name}" for name in game.checks],
            [i.name for i in game.importers],
            sorted(game.decklist_suffixes),
        )
        for game in installed_games().values()
    ]
    installed = {g.id for g in listed}
    for game in project.games.values() if project is not None else []:
        if game.id not in installed:
            listed.append(GameListing(game.id, game.name, "(this project: printer.toml)", own(game.id)))
    return listed


def project_formats(project: Project | None) -> list[str]:
    """The ids of the formats ``--format`` accepts for ``project``'s games (sorted; every format printer knows when
    ``project`` is ``None`` or has none of its own): what a hint lists, not every bundled game's."""
    from printer.decks import available_formats, load_format

    found = available_formats([project.root] if project is not None else [])
    if project is None:
        return sorted(found)
    own = []
    for format_id, file in found.items():
        try:
            if load_format(file).game in project.games:
                own.append(format_id)
        except PrinterError:
            continue
    return sorted(own) or sorted(found)


@contextlib.contextmanager
def _collector_paused() -> Iterator[None]:
    """Python's cyclic garbage collector off while many decklists are checked, on again after.

    Each decklist's check allocates many small objects, and every collection of the oldest generation walks all
    the loaded cards as well: a third of the time of a folder of decklists. Reference counting still frees what
    each check drops; the reports are kept anyway. On the way out, what the checks made is moved to the oldest
    generation without a walk (:func:`gc.freeze` then :func:`gc.unfreeze`; only when nothing is frozen, so a
    caller's own freeze is left alone): else the first allocation after :func:`gc.enable` walked every report
    made meanwhile as young objects (0.04 s after 317 decklists, in ``printer deck check`` just before it prints).
    """
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            if not gc.get_freeze_count():
                gc.freeze()
                gc.unfreeze()
            gc.enable()


def _bare_project(game_id: str) -> Project:
    """Outside any project: one holding just ``game_id``, with printer's bundled schema, rooted at the current folder."""
    from printer.paths import bundled_schema

    schema = bundled_schema(game_id, "card.schema.json")
    return Project(Path.cwd(), {game_id: Game(game_id, game_id, schema, Path.cwd() / "cards" / game_id, [])})


def _deck_cards(
    project: Project,
    game_id: str,
    card_dirs: Sequence[Path],
    loaded: dict[tuple[str, tuple[Path, ...]], tuple[CardSet, list[Problem]]],
    cached: bool = True,
) -> tuple[CardSet, list[Problem]]:
    """The cards of ``game_id`` the decks are checked with (loaded once per call; through the project's card
    cache, :mod:`printer.decks.card_cache`, when ``cached``) and the errors in their files."""
    if game_id not in project.games:
        raise usage_error(
            f"the project has no game {game_id!r}, which the format is for",
            f"add [games.{game_id}] to printer.toml",
            str(project.root / "printer.toml"),
        )
    targets = tuple(card_dirs) or (project.games[game_id].cards,)
    key = (game_id, targets)
    if key not in loaded:
        missing = [t for t in targets if not t.exists()]
        if missing:
            raise usage_error(f"card folder {missing[0]} not found", "pass --cards DIR with the game's card files")
        if cached:
            from printer.decks.card_cache import load_cards_cached

            sets, card_problems, _ = load_cards_cached(project, list(targets), game_id)
        else:
            from printer.decks.resolve import remember_titles, translated_titles

            sets, card_problems = load_cards(project, list(targets), game_id)
            for found, titles in translated_titles(project, list(targets), sets).items():
                remember_titles(sets[found], titles)  # a decklist may name cards in any of their languages
        cards = sets.get(game_id)
        if cards is None or not len(cards):
            raise usage_error(
                f"no valid {game_id} cards under " + ", ".join(str(t) for t in targets),
                f"run printer validate {targets[0]} to see why" if card_problems else "pass --cards DIR",
            )
        loaded[key] = (cards, errors(card_problems))
    return loaded[key]


# -- tuck box -------------------------------------------------------------------------------------------------------


@dataclass
class BoxBuild:
    """A tuck box written (``target``; ``None`` when not): the deck it holds and the box's measures (mm).

    ``cards`` is the number of cards counted (``None`` when ``thickness``
    was given), ``depth`` the deck's thickness, ``inside`` the room the box
    leaves (width, height, depth: the deck plus the clearance), ``panel``
    the front panel and side (width, height, depth, fold to fold), ``pieces``
    the pieces to cut, ``pages`` the pages printed, ``notes`` what the user
    should know (a split net).
    """

    game: str
    target: Path | None
    cards: int | None
    depth: float
    inside: tuple[float, float, float] = (0.0, 0.0, 0.0)
    panel: tuple[float, float, float] = (0.0, 0.0, 0.0)
    pieces: int = 0
    pages: int = 0
    page: tuple[float, float] = (0.0, 0.0)
    notes: list[str] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return self.target is not None


def build_box(
    project: Project,
    game: str,
    deck_file: Path | None = None,
    thickness: float | None = None,
    card_thickness: float | None = None,
    paper: str | None = None,
    out_dir: Path | None = None,
    lang: str | None = None,
) -> BoxBuild:
    """Write ``<out_dir>/<game>-box.pdf``, a tuck box for the game's cards (or a decklist's), and return its measures.

    The deck's thickness is ``thickness`` (mm) when given, else the number
    of cards (the game's cards with their copies, or the decklist's) times
    ``card_thickness`` (default :data:`printer.box.net.CARD_THICKNESS`);
    the card size is the game's. ``paper`` is A4, Letter or ``WxHmm``
    (default: printer.toml's, else A4). See :mod:`printer.box.net` for the
    net and where each proportion comes from. ``lang``, a language the game
    declares, writes ``<game>-<lang>-box.pdf`` with its faces in that language
    (:mod:`printer.api.languages`). Raises :class:`UsageError` for an unknown
    game or language or a bad length; a deck too deep for the paper is an
    error in the result (nothing written).
    """
    from printer.box import BoxSpec, back_art, write_box
    from printer.box.net import CARD_THICKNESS, deck_depth
    from printer.sheets import compose
    from printer.sheets.layout import PAPER_SIZES, parse_size
    from printer.sheets.options import resolve_options

    chosen = project.game(game)
    if lang is not None:
        from printer.api.languages import ALL, build_languages

        if lang == ALL:
            raise usage_error("--lang all: a box is printed in one language", "e.g. --lang ja", "command line: --lang")
        lang = build_languages(project, [chosen], lang)[chosen.id][0]  # a usage error for a language not declared
    suffix = f"-{lang}" if lang else ""
    opts = resolve_options(
        project.settings, chosen.settings, chosen.card_size, {}, str(project.root / "printer.toml"), project.limits
    )
    page = parse_size(paper or project.settings.get("paper", "A4"), PAPER_SIZES, "paper size", project.limits.size_mm)
    sets, problems = load_cards(project, [chosen.cards], chosen.id)
    cards = sets.get(chosen.id)
    if deck_file is not None:
        _deck_names_in_every_language(project, [chosen.cards], sets)
        items, found = deck_items(deck_file, cards, project.limits) if cards is not None else ([], [])
        problems += found
        name = safe_file_name(f"{chosen.id}-{compose.slug(deck_file.stem)}{suffix}-box") + ".pdf"
    else:
        items = compose.items_for_cards(cards, cards) if cards is not None else []
        # tokens, tiles and boards (printer.toml components) are not in the deck the box holds
        _, items, found = _split_components(project, chosen, items, opts.paper, opts.margin)
        problems += found
        name = f"{chosen.id}{suffix}-box.pdf"
    count = len(items)
    depth = thickness if thickness is not None else deck_depth(count, card_thickness or CARD_THICKNESS)
    result = BoxBuild(chosen.id, None, None if thickness is not None else count, depth, problems=problems)
    if errors(problems):
        return result
    if count > project.limits.cards_per_build:
        result.problems.append(
            limit_over("cards_per_build", count, project.limits.cards_per_build, str(chosen.cards), "cards in the box")
        )
        return result
    target = output_path(out_dir or project.build_dir, name)
    spec = BoxSpec(opts.card, depth)
    job = compose.make_job(project, chosen, opts, [chosen.cards.resolve()], lang=lang)
    art = back_art(job, items)
    from printer.sheets.words import box_details

    details = box_details(lang, count if thickness is None else None, depth, opts.card)
    written = write_box(job, spec, page, target, chosen.name, details, art)
    result.problems += list(job.renderer.problems) + written.problems
    if written.net is None or errors(result.problems):
        return result
    net = written.net
    result.target, result.inside = target, spec.inside
    result.panel = (net.panel_width, net.panel_height, net.panel_depth)
    result.pieces, result.pages, result.page = len(net.pieces), len(written.sheets), written.page
    result.notes = list(net.notes)
    return result


@dataclass
class CleanResult:
    """What :func:`clean` removed: ``removed`` folders and the ``bytes`` they held."""

    removed: list[Path] = field(default_factory=list)
    bytes: int = 0


def clean(project: Project) -> CleanResult:
    """Remove the project's caches (``build/.cache``: laid-out faces, prepared art); outputs stay.

    A ``build/.cache`` that is a symbolic link is unlinked, never followed.
    Raises ``OSError`` when a file cannot be removed.
    """
    import shutil

    result = CleanResult()
    folder = project.build_dir / ".cache"
    if folder.is_symlink():
        folder.unlink()
        result.removed.append(folder)
    elif folder.is_dir():
        result.bytes = sum(p.stat().st_size for p in folder.rglob("*") if p.is_file() and not p.is_symlink())
        shutil.rmtree(folder)
        result.removed.append(folder)
    return result


def watched_inputs(project: Project, request: BuildRequest) -> list[Path]:
    """What :func:`watch` watches for ``request``: the project folder (printer.toml, its cards, templates, CSS, icons
    and art), then what the build reads outside it: ``request.cards_dir``, ``request.deck_file``, ``request.icc``,
    the sheet layout file, each chosen game's card folder, template folders and schema folder, and the project's
    ``read_also`` folders. Absolute paths with links resolved, none inside another; printer's own bundled files are
    left out (they are not edited while a build is watched)."""
    from printer.paths import bundled_root
    from printer.watching import outermost

    chosen = [project.games[g] for g in request.games if g in project.games] or list(project.games.values())
    found: list[Path] = [project.root]
    found += [p for p in (request.cards_dir, request.deck_file, request.icc) if p is not None]
    for game in chosen:
        found += [game.cards, *game.template_dirs, game.schema.parent]
        layout_file = request.options.get("sheet_layout") or game.settings.get("sheet_layout")
        layout_file = layout_file or project.settings.get("sheet_layout")
        if layout_file:
            found.append(project.root / str(layout_file))
    found += project.read_also
    bundled = [Path(os.path.realpath(bundled_root() / name)) for name in ("schema", "templates")]
    real = [Path(os.path.realpath(p)) for p in found]
    own = [p for p in real if p.is_relative_to(real[0]) or not any(p.is_relative_to(b) for b in bundled)]
    return outermost(p for p in own if os.path.exists(p))


def watch(
    root: Path | str,
    request: BuildRequest,
    on_game: Callable[[GameBuild], None],
    on_error: Callable[[list[Problem]], object] | None = None,
    stop: threading.Event | None = None,
    debounce_ms: int = 50,
    tidy_after: float = 2.0,
    on_watch: Callable[[list[Path]], object] | None = None,
) -> None:
    """Build as ``request`` says, then again each time one of its inputs changes, until ``stop`` is set.

    One process stays warm: the worker pool, the face cache and the loaded
    modules are kept between builds, so a one-card edit lays out one face;
    after the first build, this process makes one card's HTML and its
    sheet's, so that the first save finds the templates compiled.
    Every input of the build is watched (:func:`watched_inputs`: the project
    folder, ``request.cards_dir`` and ``request.deck_file`` wherever they
    are, the games' templates, the ``read_also`` folders...; ``on_watch``
    gets that list before the first build), from before the first build to
    the end: a file saved while a build runs is built right after it. The
    build folder and ``request.out_dir`` are not watched. A change to
    printer.toml reloads the project. Problems (a broken card, a template error, a broken
    printer.toml) go to ``on_game`` or ``on_error`` and the watch goes on.
    Changes are gathered for ``debounce_ms`` milliseconds before building.
    A save's build leaves the faces edits laid out one by one as they are
    (``tidy="later"``, :func:`build_game`); once no file changed for
    ``tidy_after`` seconds, each game that has some is built again with
    them laid out together (its outcome goes to ``on_game`` too, with a
    note that says so). Ctrl-C ends it (``KeyboardInterrupt`` is not caught
    here). Raises :class:`~printer.problems.PrinterError` when the project
    can no longer be watched (the watching thread ended by itself).
    """
    from printer.api.languages import build_languages
    from printer.sheets.cache import FaceCache
    from printer.sheets.parallel import Workers
    from printer.watching import Changes, ChangesLost

    root = Path(root).resolve()
    project = load_project(root)
    inputs = watched_inputs(project, request)
    ignored = [project.build_dir.resolve()] + ([request.out_dir.resolve()] if request.out_dir else [])
    untidy: set[str] = set()  # games whose last build left faces to lay out again together

    def build_games(workers: Workers, tidy: Tidy, only: Sequence[str] = (), rehearse: bool = False) -> None:
        untidy.difference_update(only)  # a tidy build is tried once: a game gone or broken is not tried every 2 s
        try:
            project = load_project(root)
            names = [g for g in only if g in project.games] if only else request.games
            if only and not names:
                return
            for game in [project.game(g) for g in names] if names else list(project.games.values()):
                left, built = False, False  # a game is untidy while one of its languages' builds is
                for lang in build_languages(project, [game], request.lang)[game.id]:  # --lang all: each language
                    each = request if lang == request.lang else replace(request, lang=lang)
                    outcome = build_game(project, game, each, None, workers, cache, tidy)
                    if outcome.stats.get("untidy faces") or outcome.stats.get("pdf to write whole"):
                        left = True
                    built = built or not outcome.up_to_date  # an up-to-date build is as untidy as it was
                    if tidy == "now" and outcome.ok:
                        laid = counted(int(outcome.stats.get("faces laid out", 0)), "face")
                        outcome.notes = [*outcome.notes, f"tidied: {laid} of earlier edits laid out together"]
                    on_game(outcome)
                    if rehearse:
                        _rehearse(project, game, each)
                if left:
                    untidy.add(game.id)
                elif built:
                    untidy.discard(game.id)
        except PrinterError as exc:
            if on_error:
                on_error(exc.problems)

    def wanted(path: str) -> bool:
        return not any(Path(path).is_relative_to(i) for i in ignored)

    folder = cache_folder(project.root, project.build_dir, "faces") if request.cache else None
    cache = FaceCache(folder) if folder is not None else None
    try:
        with Changes(inputs, wanted, debounce_ms) as changes, Workers(request.jobs, request.scheduler, True) as workers:
            if on_watch is not None:
                on_watch(inputs)
            changes.wait_ready()  # set up (0.2 s at most): a file saved as the first build starts is seen
            build_games(workers, "later", rehearse=True)  # the first save then finds this process ready too
            while stop is None or not stop.is_set():
                if changes.wait(tidy_after if untidy else None, stop):
                    build_games(workers, "later")
                elif untidy and not (stop is not None and stop.is_set()):
                    build_games(workers, "now", sorted(untidy))
    except ChangesLost as lost:
        problem = Problem(str(root), str(lost), hint="is the project folder still there? start the watch again")
        raise PrinterError(str(lost), [problem]) from None
    finally:
        if cache is not None:
            cache.close()


@dataclass
class PreflightReport:
    """What ``printer preflight`` found in ``pdf`` for ``vendor``: ``problems`` (errors: what the vendor rejects)."""

    pdf: Path
    vendor: str
    vendor_name: str
    source: str
    pages: int
    problems: list[Problem]


def preflight(pdf: Path, vendor: str, min_dpi: float | None = None, max_size: str | None = None) -> PreflightReport:
    """Check ``pdf`` against ``vendor``'s profile (``vendors.toml``): each violation located at its page and object.

    ``min_dpi`` and ``max_size`` (``100MB``, ``200 MB``, ``1.5GB``: decimal
    units) override the profile's figures. Raises :class:`UsageError` for an
    unknown vendor, a vendor that takes no PDF, a bad size or a missing file.
    """
    from printer.sheets.export.preflight import get_profile, preflight_pdf

    profile = get_profile(vendor)
    limit = parse_bytes(max_size, "--max-size") if max_size else None
    path = Path(pdf)
    if not path.is_file():
        raise usage_error(f"{path}: no such file", "give the PDF to check", str(path))
    problems = preflight_pdf(path, profile, min_dpi=min_dpi, max_bytes=limit)
    try:
        import pikepdf

        with pikepdf.open(path) as opened:
            pages = len(opened.pages)
    except Exception:  # noqa: BLE001 - an unreadable file is already one of the problems
        pages = 0
    return PreflightReport(path, profile.id, profile.name, profile.source, pages, problems)


_BYTE_UNITS = {"": 1, "b": 1, "kb": 10**3, "mb": 10**6, "gb": 10**9, "kib": 2**10, "mib": 2**20, "gib": 2**30}


def parse_bytes(text: str, option: str) -> int:
    """``100MB`` -> 100,000,000 bytes (KB, MB, GB decimal; KiB, MiB, GiB binary); :class:`UsageError` otherwise."""
    import re

    found = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*([a-zA-Z]*)\s*", text)
    unit = found.group(2).lower() if found else ""
    if found is None or unit not in _BYTE_UNITS or float(found.group(1)) <= 0:
        raise usage_error(f"{option} {text!r}: not a file size", "write it as 100MB, 200 MB or 1.5GB", option)
    return int(float(found.group(1)) * _BYTE_UNITS[unit])
