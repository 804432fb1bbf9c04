"""The steps of one game's build (:func:`printer.api.build.build_game`): cards to print items, components, sheets, exports."""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from printer.api.common import WRITTEN_BUT, _strictly, load_cards
from printer.api.results import (
    GameBuild,
)
from printer.limits import DEFAULT as DEFAULT_LIMITS
from printer.limits import Limits
from printer.limits import over as limit_over
from printer.paths import output_path, safe_file_name
from printer.problems import ERROR, WARNING, Problem, counted, errors
from printer.project import Game, Project

if TYPE_CHECKING:
    from printer.api.build import (
        BuildRequest,
        Progress,
    )
    from printer.cards.model import CardSet
    from printer.sheets.cache import FaceCache
    from printer.sheets.faces.items import PrintItem
    from printer.sheets.options import PrintOptions
    from printer.sheets.parallel import JobSpec, Workers
    from printer.sheets.verify import Verify


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


def _build_game(
    project: Project,
    game: Game,
    request: BuildRequest,
    progress: Progress | None = None,
    workers: Workers | None = None,
    cache: FaceCache | None = None,
    tidy: bool = True,
) -> GameBuild:
    from printer.sheets import assemble
    from printer.sheets import job as sheet_job
    from printer.sheets.export import EXPORTERS, ExportRequest
    from printer.sheets.faces import items as print_items
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
        items = print_items.sort_items(items, opts.sort)
        deck_name = f"{game.id}-{print_items.slug(request.deck_file.stem)}{suffix}"
        target = output_path(out_dir, safe_file_name(deck_name) + ".pdf")
    else:
        selected, found = print_items.select(cards, request.only)
        total = sum(card.copies * (players if per.holds(card.data) else 1) for card in selected)
        if total > project.limits.cards_per_build:
            where = str(source)
            too_many = limit_over("cards_per_build", total, project.limits.cards_per_build, where, "cards to print")
            outcome.problems, outcome.failure = [too_many], "not printed"
            return outcome
        items = print_items.sort_items(print_items.items_for_cards(selected, cards), opts.sort)
        items = per_player(items, players, lambda item: item.card is not None and per.holds(item.card.data))
        if not request.only and request.aids:  # player aids print with the whole game (printer.book.aids)
            from printer.book import aid_items

            roots = print_items.allowed_roots(project, [source.resolve()])
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
    job = sheet_job.make_job(project, game, opts, extra, cmyk_profile=request.icc, lang=request.lang)
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
    from printer.sheets.output.outcome import SheetsOutcome

    written = (
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
        else SheetsOutcome()
    )
    found, outcome.untidy_faces, outcome.write_whole = written.problems, written.untidy_faces, written.write_whole
    if items and not (request.strict and found):
        found += after_sheets(project, game, job, items, layout, target, reprint, outcome, manifest)
    if components and not (request.strict and found):
        found += _build_components(
            project, game, opts, components, layout.page, out_dir, extra, outcome, workers, cache, locate
        )
    outcome.stats = {**job.engine.stats, **outcome.stats}
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

    from printer.sheets import job as sheet_job
    from printer.sheets.parallel import JobSpec

    def options(component: Any) -> PrintOptions:
        return replace(opts, card=component.size, paper=page, orientation="as-given")

    def job_for(component: Any) -> sheet_job.SheetJob:
        job = sheet_job.make_job(project, game, options(component), extra, lang=lang)
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
    from printer.sheets.faces.items import items_for_counts

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
