"""Deck formats as data: ``schema/<game>/formats/*.json``, validated by ``schema/format.schema.json``.

A format file says, for one game (see the README section "Checking a deck" for every field):

- ``sections``: where cards go (matched by the card's ``type`` and
  ``deck`` fields), the decklist headers that name each section, and each
  section's minimum and maximum size;
- ``copy_limit`` and ``unique_limit``: copies of one card, of a Unique card;
  ``copy_limit_text``: a card's own text may raise its limit ("You may
  include up to 10 copies of this card in your deck");
  ``copy_allowances``: cards that, in the deck, raise the limit of others
  (Eternal Victory Dojo: four copies of one or two Battle Strategies);
- ``legal``: the legality arcs (card field ``legality``) and sets (card
  fields ``sets``/``set``) a card must name one of;
- ``banned``: card names refused outright, each with an optional note;
- ``checks``: named Python checks for rules that data cannot express
  registered by games (:func:`printer.plugins.all_checks`): ``<game>.<name>``.

Adding a format is adding a file: formats are found by their ``id`` in the
project's ``schema/*/formats/`` first, then in printer's bundled ones.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from printer.cards.model import Card
from printer.decks.deck_errors import FormatError
from printer.decks.names import loose_key, name_key, strip_tag
from printer.jsonvalue import JSONObject
from printer.paths import bundled_root, contained, regular_file_problem
from printer.problems import Problem, did_you_mean

if TYPE_CHECKING:
    from printer.cards.schema import SchemaStore

FORMAT_SCHEMA = "format.schema.json"
_TAGS = re.compile(r"<[^>]+>")


@dataclass(frozen=True)
class Section:
    """One part of a deck: the cards whose ``type`` is in ``types`` (and ``deck`` matches).

    ``headers`` are the decklist headers naming it, lower case, its own
    name included. ``min``/``max`` bound its card count (``None``: no bound).
    """

    name: str
    types: tuple[str, ...] | None
    deck: str | None
    min: int | None
    max: int | None
    headers: tuple[str, ...]
    description: str | None = None

    def accepts(self, card: Card) -> bool:
        if self.types is not None and card.get("type") not in self.types:
            return False
        return self.deck is None or card.get("deck") == self.deck

    def bounds(self) -> str:
        """``"exactly 1"``, ``"at least 40"``, ``"at most 1"``, ``"1 to 3"`` or ``"any number"``."""
        if self.min is not None and self.min == self.max:
            return f"exactly {self.min}"
        if self.min and self.max is not None:
            return f"{self.min} to {self.max}"
        if self.min:
            return f"at least {self.min}"
        if self.max is not None:
            return f"at most {self.max}"
        return "any number"


@dataclass(frozen=True)
class Ban:
    """A banned card: its ``name`` as the format file writes it and an optional ``note``."""

    name: str
    note: str | None = None


@dataclass(frozen=True)
class Allowance:
    """A card in the deck (``granted_by``) that lets some other cards exceed the copy limit.

    Matching cards (of ``types``, with ``keyword``, with an ability whose
    label names ``ability``, non-Unique when ``non_unique``) may have up to
    ``limit`` copies; ``cards`` caps how many different cards may use it.
    """

    granted_by: str
    limit: int
    types: tuple[str, ...] | None = None
    keyword: str | None = None
    ability: str | None = None
    non_unique: bool = False
    cards: int | None = None
    note: str | None = None

    def matches(self, card: Card, is_unique: bool) -> bool:
        if self.types is not None and card.get("type") not in self.types:
            return False
        if self.non_unique and is_unique:
            return False
        if self.keyword and not any(
            _TAGS.sub("", str(k)).strip().casefold() == self.keyword.casefold() for k in card.get("keywords") or []
        ):
            return False
        if self.ability and not _has_ability(card, self.ability):
            return False
        return True


_LABEL = re.compile(r"(?:\*\*|<b>)([^*<]*?):?\s*(?:\*\*|</b>)\s*:?")


def _has_ability(card: Card, word: str) -> bool:
    """Whether the card's text has an ability whose bold label (``**Battle/Open:**``) names ``word``."""
    text = str(card.get("text") or "")
    return any(re.search(rf"\b{re.escape(word)}\b", label, re.IGNORECASE) for label in _LABEL.findall(text))


_NUMBERS = {
    "one": 1,
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
    "ten": 10,
}
_TEXT_LIMITS = [
    re.compile(r"you may include (?:up to )?(?P<n>\w+) copies of this \w+ in your deck", re.IGNORECASE),
    re.compile(r"your deck may (?:include|contain) (?:up to )?(?P<n>\w+) copies of this \w+", re.IGNORECASE),
    re.compile(r"you may include any number of (?:copies of )?this \w+ in your deck", re.IGNORECASE),
]


def text_copy_limit(card: Card) -> int | None:
    """The copy limit a card's own text sets, e.g. "You may include up to 10 copies of this card in
    your deck" (10), "... any number of this Follower ..." (a very large number); ``None`` when it sets none."""
    text = _TAGS.sub("", str(card.get("text") or "")).replace("*", "")
    for pattern in _TEXT_LIMITS:
        match = pattern.search(text)
        if match:
            n = match.groupdict().get("n")
            if n is None:
                return 10**6
            value = int(n) if n.isdigit() else _NUMBERS.get(n.casefold())
            if value:
                return value
    return None


@dataclass
class Format:
    """A deck format loaded from its file (see the module docstring)."""

    id: str
    game: str
    name: str
    file: Path
    sections: list[Section]
    copy_limit: int | None = None
    unique_limit: int | None = None
    unique_keyword: str | None = "Unique"
    legal_arcs: tuple[str, ...] | None = None
    legal_sets: tuple[str, ...] | None = None
    banned: dict[str, Ban] = field(default_factory=dict)
    checks: list[str] = field(default_factory=list)
    copy_limit_text: bool = False
    allowances: list[Allowance] = field(default_factory=list)
    description: str | None = None
    source: str | None = None
    deck_min: int | None = None  # the whole deck's size, every section together (format file: deck_size)
    deck_max: int | None = None
    # what each card is in this format (section, Unique, legal, name key, own copy limit), worked out once: checking
    # many decklists asks again and again; by id(card), the entry keeping the card (so that the id stays its own)
    _per_card: dict[int, _CardFacts] = field(default_factory=dict, init=False, repr=False, compare=False)
    _headers: dict[str, list[Section]] = field(default_factory=dict, init=False, repr=False, compare=False)

    def facts(self, card: Card) -> _CardFacts:
        """What ``card`` is in this format (computed on first use, then remembered)."""
        found = self._per_card.get(id(card))
        if found is None or found.card is not card:
            if len(self._per_card) >= 200_000:
                self._per_card.clear()
            found = self._per_card[id(card)] = _CardFacts(self, card)
        return found

    def section_of(self, card: Card) -> Section | None:
        """The first section that accepts ``card``, or ``None`` when the format has no place for it."""
        return self.facts(card).section

    def sections_for_header(self, header: str | None) -> list[Section]:
        """The sections a decklist header names (``[]`` for no or an unknown header)."""
        if not header:
            return []
        found = self._headers.get(header)
        if found is None:
            wanted = header.strip().casefold()
            found = self._headers[header] = [s for s in self.sections if wanted in s.headers]
        return list(found)

    def section(self, name: str) -> Section | None:
        return next((s for s in self.sections if s.name == name), None)

    def is_unique(self, card: Card) -> bool:
        """Unique cards: the ``unique`` field, or the ``unique_keyword`` among the card's keywords."""
        return self.facts(card).unique

    def _is_unique(self, card: Card) -> bool:
        if card.get("unique") is True:
            return True
        if not self.unique_keyword:
            return False
        wanted = self.unique_keyword.casefold()
        return any(_TAGS.sub("", str(k)).strip().casefold() == wanted for k in card.get("keywords") or [])

    def is_legal(self, card: Card) -> bool:
        """Whether ``card`` names one of the format's arcs or sets (always true without a ``legal`` rule)."""
        return self.facts(card).legal

    def _is_legal(self, card: Card) -> bool:
        if self.legal_arcs is None and self.legal_sets is None:
            return True
        arcs = set(card.get("legality") or [])
        sets = set(card.get("sets") or []) | ({card.get("set")} if card.get("set") else set())
        return bool(arcs & set(self.legal_arcs or ())) or bool(sets & set(self.legal_sets or ()))

    def ban(self, card: Card) -> Ban | None:
        """The ban on ``card`` (matched by full name, name variant included), if any."""
        return self.banned.get(self.name_key_of(card))

    def name_key_of(self, card: Card) -> str:
        """:func:`name_key` of the card's full name (remembered)."""
        return self.facts(card).key

    def ban_for_name(self, name: str) -> Ban | None:
        """The ban on a card written ``name`` that the card data lacks (matched as names resolve, loosely too)."""
        tagged = strip_tag(name)
        for candidate in (name, tagged[0]) if tagged else (name,):
            ban = self.banned.get(name_key(candidate))
            if ban is None:
                ban = next((b for b in self.banned.values() if loose_key(b.name) == loose_key(candidate)), None)
            if ban is not None:
                return ban
        return None

    def legal_description(self) -> str:
        parts = list(self.legal_arcs or ()) + list(self.legal_sets or ())
        return ", ".join(parts) if parts else "any card"


class _CardFacts:
    """One card as a :class:`Format` sees it: ``section``, ``unique``, ``legal``, ``key`` (its :func:`name_key`),
    ``own_limit`` (:func:`text_copy_limit`, only when the format reads it)."""

    __slots__ = ("card", "section", "unique", "legal", "key", "own_limit")

    def __init__(self, fmt: Format, card: Card):
        self.card = card
        self.section = next((s for s in fmt.sections if s.accepts(card)), None)
        self.unique = fmt._is_unique(card)
        self.legal = fmt._is_legal(card)
        self.key = name_key(card.name)
        self.own_limit = text_copy_limit(card) if fmt.copy_limit_text else None


def format_dirs(roots: Iterable[Path]) -> list[Path]:
    """Every ``schema/<game>/formats`` folder under ``roots``, in order."""
    found = []
    for root in roots:
        schema = Path(root) / "schema"
        if schema.is_dir():
            found += sorted(p for p in schema.glob("*/formats") if p.is_dir())
    return found


def _roots(roots: Iterable[Path] | None) -> list[Path]:
    result = [Path(r).resolve() for r in (roots or [])]
    bundled = bundled_root().resolve()
    if bundled not in result:
        result.append(bundled)
    return result


def available_formats(roots: Iterable[Path] | None = None) -> dict[str, Path]:
    """``{format id: file}`` for every format file under ``roots`` and printer's bundled formats.

    A format's id is its ``id`` field, else ``<game folder>-<file stem>``.
    The first root defining an id wins (a project overrides a bundled format).
    Files refused by :func:`find_formats` are left out.
    """
    return find_formats(roots)[0]


def find_formats(roots: Iterable[Path] | None = None) -> tuple[dict[str, Path], dict[str, Problem]]:
    """:func:`available_formats`, and the format files refused, ``{id: problem}``.

    Each file goes through the project's resolver (:func:`printer.paths.contained`): one whose real path is
    outside every root (a symbolic link out of the project, or a ``formats`` folder that is one) is refused
    unread, as is one that is not a regular file (a FIFO would never end); its id is then
    ``<game folder>-<file stem>``, and the problem is located at the file.
    """
    entries: dict[str, Path | Problem] = {}  # the first root naming an id wins, a refused file too
    all_roots = _roots(roots)
    for root in all_roots:
        for file, fallback, problem in format_files(root, all_roots):
            if problem is not None:
                entries.setdefault(fallback, problem)
                continue
            try:
                data = json.loads(file.read_text(encoding="utf-8"))
            except (OSError, ValueError):
                data = {}
            format_id = data.get("id") if isinstance(data, dict) and isinstance(data.get("id"), str) else None
            entries.setdefault(format_id or fallback, file)
    found = {k: v for k, v in entries.items() if isinstance(v, Path)}
    return found, {k: v for k, v in entries.items() if isinstance(v, Problem)}


def format_files(root: Path, allowed: Iterable[Path] = ()) -> list[tuple[Path, str, Problem | None]]:
    """Each format file of ``root`` (``schema/<game>/formats/*.json``) with its fallback id (``<game folder>-<file
    stem>``) and, when the project's resolver refuses it, the problem: a real path outside ``root`` and
    ``allowed`` (a symbolic link out of the project), or not a regular file. A refused file must not be read."""
    root = Path(root).resolve()
    found: list[tuple[Path, str, Problem | None]] = []
    for folder in format_dirs([root]):
        for file in sorted(folder.glob("*.json")):
            _, problem = contained(root, file.relative_to(root), "format file", str(file), list(allowed))
            found.append((file, f"{folder.parent.name}-{file.stem}", problem or regular_file_problem(file)))
    return found


def load_format(ref: str | Path, roots: Iterable[Path] | None = None) -> Format:
    """The format ``ref`` names: a format id (``starfall-standard``) or a path to a format file.

    ``roots`` are project folders searched before printer's bundled formats.
    Raises :class:`FormatError` (exit code 2) when no format has that id
    (the hint names the closest ids) or the file is not a valid format.
    """
    text = str(ref)
    path = Path(text)
    if text.endswith(".json") or path.is_file():
        if not path.is_file():
            raise FormatError(
                f"format file {text} not found", [Problem(text, "format file not found", code="unknown-format")]
            )
        return load_format_file(path, roots)
    known, refused = find_formats(roots)
    if text in refused:
        raise FormatError(refused[text].message, [refused[text]])
    if text not in known:
        hint = did_you_mean(text, list(known)) or ("known formats: " + ", ".join(sorted(known)) if known else None)
        raise FormatError(
            f"unknown format {text!r}", [Problem("--format", f"unknown format {text!r}", hint, code="unknown-format")]
        )
    return load_format_file(known[text], roots)


def load_format_file(path: Path, roots: Iterable[Path] | None = None) -> Format:
    """Read and validate one format file; raises :class:`FormatError` listing every problem."""
    from printer.cards.schema import SchemaStore

    where = str(path)
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except OSError as exc:
        raise FormatError(
            f"cannot read format {path}", [Problem(where, f"cannot read: {exc.strerror or exc}", code="unknown-format")]
        ) from None
    except json.JSONDecodeError as exc:
        place = f"{path}:{exc.lineno}:{exc.colno}"
        raise FormatError(
            f"format {path} is not valid JSON", [Problem(place, f"invalid JSON: {exc.msg}", code="json-syntax")]
        ) from None
    except ValueError as exc:
        raise FormatError(
            f"format {path} is not valid JSON", [Problem(where, f"invalid JSON: {exc}", code="json-syntax")]
        ) from None
    all_roots = _roots(roots)
    store = SchemaStore(all_roots)
    schema_file = next(
        (r / "schema" / FORMAT_SCHEMA for r in all_roots if (r / "schema" / FORMAT_SCHEMA).is_file()), None
    )
    problems = store.validate(data, schema_file, f"{where}::$") if schema_file else []
    if not problems:
        from printer.plugins import all_checks, find_check

        for i, name in enumerate(data.get("checks", [])):
            if find_check(name, data.get("game")) is None:
                known = sorted(all_checks())
                problems.append(
                    Problem(
                        f"{where}::$.checks[{i}]",
                        f"unknown check {name!r}",
                        did_you_mean(name, known) or "known checks: " + ", ".join(known),
                        code="schema",
                    )
                )
    if not problems:
        problems += _bounds_problems(data, where) + _type_problems(data, where, store, all_roots)
    if problems:
        raise FormatError(f"format file {path} is invalid", problems)
    return _from_data(data, Path(path))


def _type_problems(data: JSONObject, where: str, store: SchemaStore, roots: list[Path]) -> list[Problem]:
    """A section's (or a copy allowance's) card type that the game's card schema does not list: the section would
    take no card. Checked when ``schema/<game>/card.schema.json`` (the project's, else printer's) lists the types
    (:class:`printer.cards.spreadsheet_cells.SchemaTypes`: its ``type`` field's ``enum``)."""
    from printer.cards.spreadsheet_cells import SchemaTypes

    game = data.get("game")
    schema_file = next((f for r in roots if (f := r / "schema" / str(game) / "card.schema.json").is_file()), None)
    known = [str(v) for v in SchemaTypes(store, schema_file).of(("type",)).enum] if schema_file else []
    if not known:
        return []
    places = [(f"$.sections[{i}].types", item.get("types")) for i, item in enumerate(data.get("sections", []))]
    places += [(f"$.copy_allowances[{i}].types", a.get("types")) for i, a in enumerate(data.get("copy_allowances", []))]
    return [
        Problem(
            f"{where}::{path}[{j}]",
            f"{game} has no card type {name!r}",
            did_you_mean(str(name), known) or "card types: " + ", ".join(known),
            code="schema",
        )
        for path, names in places
        if isinstance(names, list)
        for j, name in enumerate(names)
        if name not in known
    ]


def _bounds_problems(data: JSONObject, where: str) -> list[Problem]:
    """A section's or the deck's ``min`` over its ``max``: no deck could be legal (the schema checks each alone)."""
    found: list[tuple[str, object, object]] = [
        (f"$.sections[{i}]", item.get("min"), item.get("max")) for i, item in enumerate(data.get("sections", []))
    ]
    if isinstance(data.get("deck_size"), dict):
        found.append(("$.deck_size", data["deck_size"].get("min"), data["deck_size"].get("max")))
    return [
        Problem(
            f"{where}::{path}",
            f"min {low} is over max {high}: no deck could be legal",
            "swap them, or raise max",
            code="schema",
        )
        for path, low, high in found
        if isinstance(low, int) and isinstance(high, int) and low > high
    ]


def _from_data(data: JSONObject, path: Path) -> Format:
    sections = []
    for item in data["sections"]:
        headers = [item["name"], *item.get("headers", [])]
        sections.append(
            Section(
                name=item["name"],
                types=tuple(item["types"]) if "types" in item else None,
                deck=item.get("deck"),
                min=item.get("min"),
                max=item.get("max"),
                headers=tuple(dict.fromkeys(h.casefold() for h in headers)),
                description=item.get("description"),
            )
        )
    banned: dict[str, Ban] = {}
    for item in data.get("banned", []):
        ban = Ban(item) if isinstance(item, str) else Ban(item["name"], item.get("note"))
        banned[name_key(ban.name)] = ban
    legal = data.get("legal")
    name: str = data["name"] if "name" in data else data["id"]
    return Format(
        id=data["id"],
        game=data["game"],
        name=name,
        file=path,
        sections=sections,
        copy_limit=data.get("copy_limit"),
        unique_limit=data.get("unique_limit"),
        unique_keyword=data.get("unique_keyword", "Unique"),
        legal_arcs=tuple(legal["arcs"]) if legal and "arcs" in legal else None,
        legal_sets=tuple(legal["sets"]) if legal and "sets" in legal else None,
        banned=banned,
        checks=list(data.get("checks", [])),
        copy_limit_text=data.get("copy_limit_text", False),
        allowances=[
            Allowance(
                a["granted_by"],
                a["limit"],
                tuple(a["types"]) if "types" in a else None,
                a.get("keyword"),
                a.get("ability"),
                a.get("non_unique", False),
                a.get("cards"),
                a.get("note"),
            )
            for a in data.get("copy_allowances", [])
        ],
        description=data.get("description"),
        source=data.get("source"),
        deck_min=(data.get("deck_size") or {}).get("min"),
        deck_max=(data.get("deck_size") or {}).get("max"),
    )
