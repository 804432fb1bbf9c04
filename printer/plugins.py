"""Games as plugins: what a game adds to printer, found through the ``printer.games`` entry points.

Each game printer supports, the five bundled ones included, is a
:class:`GameSupport` registered in its package's metadata::

    # pyproject.toml of a sixth game, e.g. the package printer-starfall
    [project.entry-points."printer.games"]
    starfall = "printer_starfall:SUPPORT"

    # printer_starfall/__init__.py
    from printer.plugins import GameSupport
    from printer_starfall.checks import check_one_captain

    SUPPORT = GameSupport("starfall", "Starfall", checks={"one-captain": check_one_captain},
                          data=Path(__file__).parent / "data")   # data/schema/starfall/, data/templates/starfall/

A format file then names the check ``starfall.one-captain``. The core
(cards, sheets, decks, book) names no game: it asks this module. Removing a
game's entry point removes it from ``printer games``, from the checks a
format may name, from ``printer import`` and from nothing else.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field, replace
from functools import cache
from importlib.metadata import entry_points
from pathlib import Path
from typing import Any

from printer.jsonvalue import JSONObject

#: the entry-point group games register in
GROUP = "printer.games"


@dataclass(frozen=True)
class Importer:
    """``printer import NAME``: reads another tool's export into printer cards of ``game``.

    ``read(paths)`` returns an import result (``cards``, ``problems``,
    ``by_file()``); ``summary(cards)`` one line about what was read;
    ``folders`` whether folders of files are accepted; ``one_file`` whether
    it writes a single file; ``help`` the command's help text and
    ``out_help`` the help of ``--out``.
    """

    name: str
    game: str
    read: Callable[[list[Path]], Any]
    summary: Callable[[list[JSONObject]], str]
    help: str
    out_help: str = "Folder to write the card files into."
    folders: bool = True
    one_file: bool = False


@dataclass(frozen=True)
class NameVariant:
    """A game's notation for versions of one card that count as different cards.

    ``parse(text)`` gets a name already normalised by
    :func:`printer.cards.model.normalize_name` (lower case, dashes as ``-``)
    and returns ``(title, variant)`` when the name carries the notation, or
    ``None``; ``variant`` is lower case (``"veteran 2"``). ``field`` is
    the card-data field that holds a card's variant: such a card's full name
    is ``title • variant``. ``plain`` is the variant that a name without one
    may stand for, and the reverse, when that gives a single card (``""``:
    none).
    """

    field: str
    parse: Callable[[str], tuple[str, str] | None]
    plain: str = ""


class LazyChecks(Mapping[str, Callable[[Any], list[Any]]]):
    """A game's checks named by ``"package.module:NAME"`` (a mapping of local names to check functions), imported
    on first use: registering a game, listing it or showing ``--help`` then imports none of its deck-checking code.

    Raises ``ImportError`` or ``AttributeError`` on first use when the name is wrong.
    """

    def __init__(self, target: str):
        self.target = target
        self._loaded: Mapping[str, Callable[[Any], list[Any]]] | None = None

    def _checks(self) -> Mapping[str, Callable[[Any], list[Any]]]:
        if self._loaded is None:
            import importlib

            module, _, name = self.target.partition(":")
            self._loaded = getattr(importlib.import_module(module), name)
        return self._loaded

    def __getitem__(self, name: str) -> Callable[[Any], list[Any]]:
        return self._checks()[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._checks())

    def __len__(self) -> int:
        return len(self._checks())

    def __repr__(self) -> str:
        return f"LazyChecks({self.target!r})"


@dataclass(frozen=True)
class GameSupport:
    """What one game adds to printer; every field but ``id`` and ``name`` is optional.

    ``checks`` maps a check's local name to a function of a
    :class:`printer.decks.checks.Context` returning violations; format files
    name it ``<id>.<name>`` (a :class:`LazyChecks` imports them on first use). ``importers`` are ``printer import``
    subcommands. ``data`` is a folder holding ``schema/<id>/`` (with
    ``formats/``) and ``templates/<id>/`` for games shipped outside printer
    (``None``: printer's bundled folders). ``labels`` maps a language to the
    words the rules book prints for this game (``{"en": {...}}``), over
    printer's own. ``name_variant`` is the game's :class:`NameVariant`
    notation, if any. ``deck_labels`` are the words a plain-text decklist
    may put before a single card (``Leader: Name``); ``decklist_suffixes``
    maps a file suffix to the decklist format it names (read as plain
    text: a count in parentheses after a name is dropped).
    """

    id: str
    name: str
    checks: Mapping[str, Callable[[Any], list[Any]]] = field(default_factory=dict)
    importers: tuple[Importer, ...] = ()
    data: Path | None = None
    labels: Mapping[str, Mapping[str, str]] = field(default_factory=dict)
    name_variant: NameVariant | None = None
    deck_labels: tuple[str, ...] = ()
    decklist_suffixes: Mapping[str, str] = field(default_factory=dict)
    source: str = ""


@cache
def installed_games() -> dict[str, GameSupport]:
    """Every game registered in the ``printer.games`` entry-point group, by id (loaded once)."""
    games: dict[str, GameSupport] = {}
    for point in sorted(entry_points(group=GROUP), key=lambda p: p.name):
        support = point.load()
        if isinstance(support, GameSupport):
            dist = getattr(point, "dist", None)
            source = f"{dist.name} {dist.version}" if dist is not None else point.value
            games[support.id] = replace(support, source=source)
    return games


def all_checks() -> dict[str, Callable[[Any], list[Any]]]:
    """Every registered check by its full name, ``<game>.<name>`` (``starfall.one-captain``)."""
    return dict(_all_checks())


_CHECKS: list[Any] = [None, {}]  # the installed games the table was made from, and the table


def _all_checks() -> dict[str, Callable[[Any], list[Any]]]:
    games = installed_games()
    if _CHECKS[0] is not games:  # made again when the games are looked up again (installed_games.cache_clear())
        _CHECKS[:] = [games, {f"{g.id}.{name}": rule for g in games.values() for name, rule in g.checks.items()}]
    table: dict[str, Callable[[Any], list[Any]]] = _CHECKS[1]
    return table


def find_check(name: str, game: str | None = None) -> Callable[[Any], list[Any]] | None:
    """The check a format names: ``<game>.<name>``, or a bare ``<name>`` (or an older ``<game>-<name>``) of the
    format's own ``game``; ``None`` when no game registers it."""
    checks = _all_checks()  # asked for every deck checked: not copied
    if name in checks:
        return checks[name]
    if game:
        for local in (name, name.removeprefix(f"{game}-")):
            if f"{game}.{local}" in checks:
                return checks[f"{game}.{local}"]
    return None


def importers() -> dict[str, Importer]:
    """Every registered importer by its ``printer import`` name."""
    return {i.name: i for g in installed_games().values() for i in g.importers}


@cache
def name_variants() -> tuple[NameVariant, ...]:
    """The name-variant notations of every installed game."""
    return tuple(g.name_variant for g in installed_games().values() if g.name_variant is not None)


@cache
def deck_labels() -> frozenset[str]:
    """Every single-card label a plain-text decklist may use (lower case), from every installed game."""
    return frozenset(label.lower() for g in installed_games().values() for label in g.deck_labels)


@cache
def decklist_suffixes() -> dict[str, str]:
    """File suffixes (lower case, with the dot) that installed games register as decklist formats."""
    return {suffix.lower(): kind for g in installed_games().values() for suffix, kind in g.decklist_suffixes.items()}


def refresh() -> None:
    """Forget what was found, so that the next call looks at the entry points again (after an install)."""
    for found in (installed_games, name_variants, deck_labels, decklist_suffixes):
        found.cache_clear()
