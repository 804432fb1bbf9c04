"""``printer deck check`` and ``printer games``: decklists checked against a format, and the games and formats installed."""

from __future__ import annotations

import functools
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from printer.api.common import load_cards, usage_error
from printer.api.results import (
    DeckCheck,
    GameListing,
)
from printer.decks.report import DeckReport as DeckReport
from printer.limits import DEFAULT as DEFAULT_LIMITS
from printer.problems import PrinterError, Problem, UsageError, counted, errors
from printer.process import collector_paused
from printer.project import Game, Project

if TYPE_CHECKING:
    from printer.cards.model import CardSet
    from printer.decks.formats import Format


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
    ``format`` is used, else the project's own format when it has exactly one (as ``printer init`` makes). ``card_dirs`` are the card files to resolve names
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

    @functools.cache
    def only_format() -> str | None:  # the project's one format, found when a decklist first names none
        own = _own_formats(project)
        return own[0] if len(own) == 1 else None

    def one(deck: Path) -> DeckCheck:
        decklist, read_problems = read_decklist(deck)
        ref = format_ref or decklist.format
        # a line's count out of range leaves the rest readable: the rules report it (printer.decks.checks.check)
        unreadable = [p for p in errors(read_problems) if p.code != "deck-count"]
        if not ref and unreadable:  # e.g. a JSON decklist whose "format" is invalid: say so, not "no format"
            raise UsageError(f"{deck}: the decklist cannot be read", unreadable)
        ref = ref or only_format()
        if not ref:
            raise usage_error("no format given", f"pass --format FORMAT ({', '.join(project_formats(project))})")
        fmt = format_named(ref)
        if unreadable:
            warnings = [p for p in read_problems if not p.is_error]
            report = DeckReport(decklist, fmt, Resolution([], []), read_errors=errors(read_problems), warnings=warnings)
            return DeckCheck(deck, report, readable=False, read_problems=read_problems)
        owner = project or _bare_project(fmt.game)
        cards, card_problems = _deck_cards(owner, fmt.game, card_dirs, loaded, cached=project is not None)
        sources = list(card_dirs) or [owner.games[fmt.game].cards]
        verdict = check(decklist, cards, fmt, read_problems)
        return DeckCheck(deck, verdict, True, read_problems, card_problems, sources)

    with collector_paused():
        return [one(deck) for deck in decks]


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
    from printer.decks import available_formats

    return _own_formats(project) or sorted(available_formats([project.root] if project is not None else []))


def _own_formats(project: Project | None) -> list[str]:
    """The ids of the formats for ``project``'s games, its own and printer's bundled ones (sorted; none without a
    project)."""
    from printer.decks import available_formats, load_format

    if project is None:
        return []
    own = []
    for format_id, file in available_formats([project.root]).items():
        try:
            if load_format(file).game in project.games:
                own.append(format_id)
        except PrinterError:
            continue
    return sorted(own)


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


def available_formats(roots: Iterable[Path] | None = None) -> dict[str, Path]:
    """``{format id: file}`` for every format under ``roots`` and printer's bundled ones
    (:func:`printer.decks.formats.available_formats`; imported when first called)."""
    from printer.decks.formats import available_formats as found

    return found(roots)


def find_formats(roots: Iterable[Path] | None = None) -> tuple[dict[str, Path], dict[str, Problem]]:
    """:func:`available_formats`, and the format files refused, ``{id: problem}``
    (:func:`printer.decks.formats.find_formats`)."""
    from printer.decks.formats import find_formats as found

    return found(roots)


def format_name(file: Path) -> str:
    """The ``name`` of the format in ``file``; raises :class:`UsageError` for an invalid format file."""
    from printer.decks import load_format

    return load_format(file).name
