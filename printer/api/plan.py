"""The Plan stage of a build (:func:`make_plan`): every decision made before a face is laid out.

It reads the project and the cards and writes nothing; WeasyPrint is not imported (a test holds it). The stages
that follow are in :mod:`printer.api.pipeline`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from printer.api.common import _strictly, load_cards
from printer.limits import DEFAULT as DEFAULT_LIMITS
from printer.limits import Limits
from printer.limits import over as limit_over
from printer.paths import output_path, safe_file_name
from printer.problems import WARNING, Problem, errors
from printer.project import Game, Project
from printer.sheets.card_names import card_name_problems, sort_problems
from printer.sheets.plan import BuildPlan, BuildRequest

if TYPE_CHECKING:
    from printer.cards.model import CardSet
    from printer.sheets.faces.items import PrintItem
    from printer.sheets.layout import SheetLayout
    from printer.sheets.options import PrintOptions
    from printer.sheets.parallel import JobSpec
    from printer.sheets.players import PerPlayer


def make_plan(
    project: Project, game: Game, request: BuildRequest, ready: Callable[[JobSpec], object] | None = None
) -> BuildPlan:
    """What a build of ``game`` as ``request`` asks will print (:class:`~printer.sheets.plan.BuildPlan`).

    Resolves the sheet options and layout, reads the game's cards (from ``request.cards_dir`` when given), picks
    the items to print (``--only``, ``--deck`` with its names in every language, the player aids, each per player
    where the game says so, in ``request.lang``), splits the declared components off and checks the project's
    limits. ``ready`` is called with the worker's job spec as soon as the options are resolved, before the
    cards are read (a command's pool then imports WeasyPrint meanwhile). Bad card data or a limit passed is the
    plan's ``failure`` with its problems, never an exception; raises :class:`~printer.problems.UsageError` for
    options printer.toml or the command line give wrong.
    """
    from printer.sheets.faces import items as print_items
    from printer.sheets.players import read_players

    suffix = f"-{request.lang}" if request.lang else ""  # printer.api.languages.lang_suffix
    toml = str(project.root / "printer.toml")
    opts, layout, layout_problems, notes = _sheet_options(project, game, request)
    source = request.cards_dir or game.cards
    spec = _job_spec(project, game, request, opts)
    out_dir = request.out_dir or project.build_dir
    plan = BuildPlan(game, request, opts, layout, spec, source, out_dir, suffix, tuple(notes))
    if ready is not None:  # workers import WeasyPrint while the cards are read
        ready(spec)
    sets, problems = load_cards(project, [source], game.id)
    if errors(problems):
        return _failed(plan, _strictly(problems, request.strict), "not printed: fix the card files first")
    cards = sets.get(game.id)
    if cards is None or not len(cards):
        empty = problems + [Problem(str(source), "no cards to print", code="empty")]
        return _failed(plan, _strictly(empty, request.strict), "not printed: no cards")
    players, per, player_problems = read_players(project.settings, game.settings, game.id, toml)
    player_problems += _name_problems(project, game, opts, cards)
    players = request.players if request.players is not None else players  # --players over printer.toml's
    if request.deck_file:
        items, found, target = _deck_items(project, game, request.deck_file, request.lang, cards, source, opts, out_dir)
    else:
        selected, found = print_items.select(cards, request.only)
        total = sum(card.copies * (players if per.holds(card.data) else 1) for card in selected)
        if total > project.limits.cards_per_build:
            too_many = limit_over(
                "cards_per_build", total, project.limits.cards_per_build, str(source), "cards to print"
            )
            return _failed(plan, [too_many], "not printed")
        items = print_items.sort_items(print_items.items_for_cards(selected, cards), opts.sort)
        items, aid_problems = _players_items(project, game, request, items, source, players, per)
        problems = problems + aid_problems
        target = output_path(out_dir, f"{game.id}{suffix}.pdf")
    items, lang_problems, locate = _in_language(project, game, request.lang, cards, items, source)
    problems = problems + lang_problems
    components, items, component_problems = (
        _split_components(project, game, items, layout.page, opts.margin, players)
        if not request.deck_file  # a decklist prints its cards as proxies, whatever they are
        else ([], items, [])
    )
    problems += player_problems + found + layout_problems + component_problems
    plan = replace(
        plan,
        cards=cards,
        items=tuple(items),
        components=tuple((c, tuple(its)) for c, its in components),
        target=target,
        players=players,
        locate=locate,
    )
    if errors(problems) or (request.strict and problems):
        return _failed(plan, _strictly(problems, request.strict), "not printed")
    n_sheets = -(-len(items) // layout.per_sheet)
    if n_sheets > project.limits.sheets_per_build:
        problem = limit_over("sheets_per_build", n_sheets, project.limits.sheets_per_build, str(source), "sheets")
        return _failed(plan, problems + [problem], "not printed")
    return replace(plan, sheets=n_sheets, problems=tuple(problems))


def _name_problems(project: Project, game: Game, opts: PrintOptions, cards: CardSet) -> list[Problem]:
    """The card fields and values printer.toml names, and the fields the fronts are sorted by, that no card has
    (:mod:`printer.sheets.card_names`)."""
    toml = project.root / "printer.toml"
    sorted_at = opts.places.get("sort", str(toml))
    return card_name_problems(game.settings, cards, toml, game.id) + sort_problems(opts.sort, cards, sorted_at)


def _in_language(
    project: Project, game: Game, lang: str | None, cards: CardSet, items: list[PrintItem], source: Path
) -> tuple[list[PrintItem], list[Problem], Callable[[Any, str], str | None] | None]:
    """``items`` as they print in ``lang``, the translations' problems, and how to locate a translated field
    (:func:`printer.api.languages.translated_items`); ``items`` as they are without a ``lang``."""
    if lang is None:
        return items, [], None
    from printer.api.languages import translated_items  # the cards in that language

    return translated_items(project, game, cards, items, [source], lang)


def _sheet_options(
    project: Project, game: Game, request: BuildRequest
) -> tuple[PrintOptions, SheetLayout, list[Problem], list[str]]:
    """The sheet options ``game`` prints with as ``request`` asks, their layout, and what the build should say about
    it: ``(options, layout, warnings, notes)``. Raises :class:`~printer.problems.UsageError` for a bad option."""
    from printer.sheets.options import layout_report, sheet_layout

    toml = str(project.root / "printer.toml")
    opts = print_options(project, game, request)
    if opts.sheet_layout is not None and not request.options.get("sheet_layout"):  # named by printer.toml
        project.contained(opts.sheet_layout, "sheet_layout", toml)
    layout = sheet_layout(opts, project.root)
    where = "command line" if request.options.get("registration") else toml
    layout_problems, notes = layout_report(opts, layout, where)
    return opts, layout, layout_problems, notes


def print_options(project: Project, game: Game, request: BuildRequest) -> PrintOptions:
    """The print options of ``game`` as ``request`` asks (:func:`printer.sheets.options.resolve_options`:
    printer.toml's ``[project]``, then ``[games.<id>]``, then ``request.options``, the command line's, within the
    project's limits): what the plan lays out with, the faces stage renders with and ``printer serve`` shows
    (card size, bleed, safe area, in mm). Raises :class:`~printer.problems.UsageError` for an option given wrong."""
    from printer.sheets.options import resolve_options

    where = str(project.root / "printer.toml")
    return resolve_options(project.settings, game.settings, game.card_size, request.options, where, project.limits)


def read_roots(game: Game, request: BuildRequest) -> list[Path]:
    """The folders beyond the project a build of ``game`` as ``request`` asks reads files from: the card folder
    read (``request.cards_dir``, else the game's), and the decklist's folder with ``request.deck_file``."""
    source = request.cards_dir or game.cards
    return [source.resolve()] + ([request.deck_file.resolve().parent] if request.deck_file else [])


def _deck_items(
    project: Project,
    game: Game,
    deck_file: Path,
    lang: str | None,
    cards: CardSet,
    source: Path,
    opts: PrintOptions,
    out_dir: Path,
) -> tuple[list[PrintItem], list[Problem], Path]:
    """The items of ``deck_file`` (named in any language the cards have), its problems and its PDF (in ``lang``)."""
    from printer.decks.resolve import remember_titles, translated_titles
    from printer.sheets.faces import items as print_items

    for titles in translated_titles(project, [source], {game.id: cards}).values():
        remember_titles(cards, titles)  # a decklist may name the cards in any of their languages
    items, found = deck_items(deck_file, cards, project.limits)
    items = print_items.sort_items(items, opts.sort)
    suffix = f"-{lang}" if lang else ""
    deck_name = f"{game.id}-{print_items.slug(deck_file.stem)}{suffix}"
    return items, found, output_path(out_dir, safe_file_name(deck_name) + ".pdf")


def _players_items(
    project: Project,
    game: Game,
    request: BuildRequest,
    items: list[PrintItem],
    source: Path,
    players: int,
    per: PerPlayer,
) -> tuple[list[PrintItem], list[Problem]]:
    """``items`` each ``players`` times where the game prints them per player, then (the whole game only) the player
    aids, per player where it says so; returns ``(items, the aids' problems)``."""
    from printer.sheets.faces import items as print_items
    from printer.sheets.players import per_player

    items = per_player(items, players, lambda item: item.card is not None and per.holds(item.card.data))
    if request.only or not request.aids:
        return items, []
    from printer.book.source import rules_folder

    if not rules_folder(project, game).is_dir():  # no aids (and markdown-it and the book's templates not imported)
        return items, []
    from printer.book import aid_items  # player aids print with the whole game (printer.book.aids)

    roots = print_items.allowed_roots(project, [source.resolve()])
    aids, aid_problems = aid_items(project, game, roots, request.lang)
    return items + aids * (players if per.aids else 1), aid_problems


def _failed(plan: BuildPlan, problems: list[Problem], failure: str) -> BuildPlan:
    """``plan`` printing nothing, for ``failure``, with the ``problems`` to report."""
    return replace(plan, problems=tuple(problems), failure=failure)


def _job_spec(project: Project, game: Game, request: BuildRequest, opts: PrintOptions | None = None) -> JobSpec:
    """What a worker needs to lay out ``game``'s faces as ``request`` asks (``opts``: the options resolved)."""
    from printer.sheets.parallel import JobSpec

    if opts is None:
        opts = print_options(project, game, request)
    roots = tuple(str(r) for r in read_roots(game, request))
    return JobSpec(str(project.root), game.id, opts, roots, str(request.icc) if request.icc else None)


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
