"""The translators' round trip: what goes out to a translator and the checks on what comes back.

``printer export translations`` writes one :class:`TranslationEntry` per card and translatable field that the source card
has: the source text, the current translation (empty when missing), whether that translation is stale, and the
context a translator needs (the card's id and title, the field, the schema's description of it). The files
themselves are :mod:`printer.cards.po` (gettext PO, through Babel) and :mod:`printer.cards.translations_xlsx`
(a workbook); :mod:`printer.cards.translations_merge` writes what comes back into the overlay files.

What comes back is a list of :class:`Incoming` entries, each located in the translator's file (``ja.po:25``,
``ja.xlsx:starfall!F7``). :func:`markup_problems` compares a translation with its source: an icon code (``{gold}``,
``{gold:2}``) lost or added, and Markdown emphasis or backticks left unbalanced.
"""

from __future__ import annotations

import json
import math
import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from printer.cards.markup import card_markdown
from printer.cards.model import CardSet
from printer.cards.schema import SchemaStore
from printer.cards.translations import TranslationBook, source_digest
from printer.jsonvalue import JSON
from printer.problems import ERROR, WARNING, Problem

if TYPE_CHECKING:
    from referencing._core import Resolver

#: the largest translator's file read (a PO file or a workbook), bytes
MAX_FILE_BYTES = 50 * 2**20
#: what a file may be written as or read from
PO_SUFFIXES = (".po", ".pot")
SHEET_SUFFIXES = (".xlsx", ".ods")
SUFFIXES = PO_SUFFIXES + SHEET_SUFFIXES


@dataclass(frozen=True)
class TranslationEntry:
    """One field of one card for a translator.

    ``source`` is the source language's value as text (a value that is not text, such as a list, as JSON);
    ``translation`` the current translation as text (``""`` when there is none); ``stale`` when the translation
    was made from another source text (:func:`printer.cards.translations.source_digest`); ``title`` the card's
    source title and ``note`` the schema's description of the field, for context; ``origin`` the source card's
    file, relative to the project when inside it.
    """

    card_id: str
    field: str
    title: str
    note: str
    source: str
    translation: str
    stale: bool
    origin: str

    @property
    def key(self) -> str:
        """``card-id.field``: the entry's name in a PO file (its ``msgctxt``)."""
        return entry_key(self.card_id, self.field)


@dataclass(frozen=True)
class Incoming:
    """One entry read back from a translator's file.

    ``source`` is the source text the file holds (``None`` when it has none); ``translation`` the text the
    translator wrote (``""``: none); ``fuzzy`` a PO entry still marked fuzzy or a workbook row still marked
    stale (its translation is written but not stamped as made from the current source). ``where`` locates the
    translation, ``id_where`` the card id (a PO entry's ``msgctxt`` line, a workbook's id cell), ``field_where``
    the field when it has a place of its own (a workbook's field cell; ``None``: at ``id_where``).
    """

    card_id: str
    field: str
    source: str | None
    translation: str
    fuzzy: bool
    where: str
    id_where: str
    field_where: str | None = None


@dataclass
class Catalogue:
    """A translator's file as read: the ``game`` and ``lang`` it says it holds (``None`` when it does not say),
    its entries and the problems met reading it."""

    game: str | None
    lang: str | None
    entries: list[Incoming]
    problems: list[Problem]


def entry_key(card_id: str, field: str) -> str:
    return f"{card_id}.{field}"


def split_key(key: str) -> tuple[str, str] | None:
    """``("card-id", "field")`` of ``card-id.field`` (a card id may hold dots, a field name does not)."""
    card_id, dot, field = key.rpartition(".")
    return (card_id, field) if dot and card_id and field else None


def as_text(value: object) -> str:
    """A card field's value as a translator edits it: text as it is, anything else as JSON."""
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)


def from_text(text: str, like: object) -> object:
    """The value of ``text`` for a field whose source value is ``like``: text as it is, else parsed as JSON
    (raises :class:`ValueError` when it is not JSON: nested too deeply for Python's parser, or holding ``NaN``,
    ``Infinity`` or a number too large for a double, none of which JSON has)."""
    if isinstance(like, str):
        return text
    try:
        return json.loads(text, parse_constant=_not_json, parse_float=_finite)
    except RecursionError:
        raise ValueError("nested too deeply") from None


def _not_json(name: str) -> object:
    raise ValueError(f"{name} is not a JSON number")


def _finite(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(f"{text} is too large for a JSON number")
    return value


def field_notes(store: SchemaStore, schema_file: Path) -> dict[str, str]:
    """The ``description`` of each card property of a game's schema, following its ``allOf`` references (the
    game's own description first, then a shared schema's). Each schema object is walked once (a schema whose
    ``allOf`` refers to itself several times would otherwise be walked exponentially often)."""
    notes: dict[str, str] = {}
    seen: set[int] = set()

    def walk(schema: object, resolver: Resolver[JSON], depth: int = 0) -> None:
        if not isinstance(schema, dict) or depth > 20 or id(schema) in seen:
            return
        seen.add(id(schema))
        properties, parts = schema.get("properties"), schema.get("allOf")
        for name, spec in properties.items() if isinstance(properties, dict) else ():
            if isinstance(spec, dict) and isinstance(spec.get("description"), str) and name not in notes:
                notes[name] = spec["description"]
        for part in parts if isinstance(parts, list) else ():
            if isinstance(part, dict) and isinstance(part.get("$ref"), str):
                try:
                    resolved = resolver.lookup(part["$ref"])
                except Exception:  # noqa: BLE001 (a reference validation reports; a note is only context)
                    continue
                walk(resolved.contents, resolved.resolver, depth + 1)
            else:
                walk(part, resolver, depth + 1)

    root = store.schema(schema_file)
    root_id = root.get("$id")
    base = root_id if isinstance(root_id, str) else schema_file.resolve().as_uri()
    walk(root, store.registry.resolver(base_uri=base))
    return notes


def _relative(path: Path, root: Path) -> str:
    try:
        return path.resolve().relative_to(root.resolve()).as_posix()
    except ValueError:
        return str(path)


def entries(
    cards: CardSet, book: TranslationBook, lang: str, fields: Sequence[str], notes: Mapping[str, str], root: Path
) -> list[TranslationEntry]:
    """Every entry of ``cards`` into ``lang``: each card in order, each of its ``fields`` it has a value for (an
    empty value has nothing to translate), with its current translation from ``book``."""
    out = []
    for card in cards:
        translation = book.get(cards.game, lang, card.id)
        for name in fields:
            value = card.data.get(name)
            if value is None or value == "" or value == [] or value == {}:
                continue
            current = translation.fields.get(name) if translation is not None else None
            stale = (
                translation is not None and current is not None and translation.source.get(name) != source_digest(value)
            )
            out.append(
                TranslationEntry(
                    card.id,
                    name,
                    card.title,
                    notes.get(name, ""),
                    as_text(value),
                    "" if current is None else as_text(current),
                    stale,
                    _relative(card.record.file, root),
                )
            )
    return out


# -- checks on a translation ------------------------------------------------------------------------------------

_ESCAPED = re.compile(r"\\[!-/:-@\[-`{-~]")
_MARKDOWN = card_markdown()


def _icons(text: str) -> Counter[str]:
    """The icon codes of card-text markup in ``text``, as written (``{gold}``, ``{gold:2}``), counted."""
    found: Counter[str] = Counter()
    for token in _MARKDOWN.parseInline(text, {}):
        for child in token.children or []:
            if child.type == "icon":
                label = child.meta["label"]
                found["{" + child.meta["name"] + (f":{label}" if label is not None else "") + "}"] += 1
    return found


def _loose_marks(text: str) -> Counter[str]:
    """The emphasis marks (``*``, ``**``) Markdown left as plain text in ``text``, and its backticks when odd in
    number: what an unbalanced mark leaves behind. Escaped marks (``\\*``) do not count."""
    plain = _ESCAPED.sub("", text)
    found: Counter[str] = Counter()
    for token in _MARKDOWN.parseInline(plain, {}):
        for child in token.children or []:
            if child.type == "text":
                found["*"] += child.content.count("*")
    ticks = plain.count("`")
    if ticks % 2:
        found["`"] += 1
    return found


def markup_problems(source: str, translation: str, where: str, lang: str) -> list[Problem]:
    """Problems of ``translation`` against ``source`` (card-text markup), located at ``where``. Errors: an icon code
    of the source missing from the translation or one the source does not have, and emphasis (``*``, ``**``) or
    backticks that Markdown leaves unbalanced in the translation but not in the source. A warning: an icon code
    both have, but not as many times (a translation may well say a symbol twice, or once for two)."""
    problems = []
    want, got = _icons(source), _icons(translation)
    for code in sorted(set(got) & set(want)):
        if got[code] != want[code]:
            problems.append(
                Problem(
                    where,
                    f"the icon {code} is {_times(want[code])} in the source and {_times(got[code])} in the {lang} "
                    "translation",
                    "check that no cost or symbol was lost or doubled",
                    WARNING,
                    "translation-icon-count",
                )
            )
    for code in sorted(set(want) - set(got)):
        problems.append(
            Problem(
                where,
                f"the icon {code} of the source is missing from the {lang} translation",
                f"keep every icon code as it is in the source ({_listed(want)}); only the words around it change",
                ERROR,
                "translation-icon",
            )
        )
    for code in sorted(set(got) - set(want)):
        problems.append(
            Problem(
                where,
                f"the {lang} translation has the icon {code}, which the source does not",
                f"use the icon codes of the source ({_listed(want) or 'it has none'})",
                ERROR,
                "translation-icon",
            )
        )
    loose, was = _loose_marks(translation), _loose_marks(source)
    if loose["*"] > was["*"]:
        problems.append(
            Problem(
                where,
                f"unbalanced Markdown emphasis in the {lang} translation: a '*' or '**' is not closed",
                "close **bold** and *italic* as in the source, or write \\* for an asterisk",
                ERROR,
                "translation-markdown",
            )
        )
    if loose["`"] > was["`"]:
        problems.append(
            Problem(
                where,
                f"unbalanced backticks in the {lang} translation",
                "close each ` as in the source",
                ERROR,
                "translation-markdown",
            )
        )
    return problems


def _times(n: int) -> str:
    return "once" if n == 1 else "twice" if n == 2 else f"{n} times"


def _listed(codes: Iterable[str]) -> str:
    return ", ".join(sorted(set(codes)))
