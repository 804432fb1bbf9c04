"""Translations read back from a translator's file, merged into the overlay files (``cards/<game>/<lang>/*.json``).

:func:`merge` checks every entry (:class:`printer.cards.translations_io.Incoming`) against the source cards and
works out the new text of each overlay file it changes; the caller writes them (atomically, and only when no
entry has an error). A translation already in an overlay file is changed in place, every other character of the
file kept (:func:`printer.cards.edit.replace_card`); a card translated for the first time is added to the overlay
file beside its source file (``cards/starfall/spells.json`` -> ``cards/starfall/ja/spells.json``), which is made when missing.

Each field written gets its ``from`` digest: :func:`printer.cards.translations.source_digest` of the source text
the translator saw, which is the current source unless it changed since the export (then the translation stays
stale, with a warning). An entry still marked fuzzy (PO) or stale (workbook) keeps the ``from`` digest it had, so
that it stays stale until someone confirms it. An empty translation changes nothing.
"""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from printer.cards.edit import CardEditError, card_at, insert_card, replace_card
from printer.cards.model import Card, CardSet
from printer.cards.translations import Translation, TranslationBook, source_digest
from printer.cards.translations_io import Incoming, as_text, entry_key, from_text, markup_problems
from printer.jsonvalue import JSONObject
from printer.paths import bundled_schema, read_text
from printer.problems import ERROR, WARNING, Candidates, Problem, did_you_mean
from printer.project import Project

#: unknown card ids looked up for the closest id (a file of many unknown ids is reported quickly)
MAX_HINTS = 100


@dataclass
class OverlayChange:
    """The new ``text`` of the overlay file ``path`` (``status`` ``new`` or ``changed``), changing ``fields``
    translated fields."""

    path: Path
    text: str
    status: str
    fields: int = 0


@dataclass
class Merge:
    """What :func:`merge` found: the overlay files to write, the count of fields they change, of entries
    unchanged and of entries left empty, and the problems (an error anywhere: write nothing)."""

    files: list[OverlayChange] = field(default_factory=list)
    changed: int = 0
    unchanged: int = 0
    empty: int = 0
    problems: list[Problem] = field(default_factory=list)


@dataclass
class _Change:
    card: Card
    values: dict[str, object] = field(default_factory=dict)
    digests: dict[str, str | None] = field(default_factory=dict)
    where: str = ""


def merge(
    project: Project,
    cards: CardSet,
    book: TranslationBook,
    lang: str,
    fields: Sequence[str],
    incoming: Sequence[Incoming],
    folder: Path,
) -> Merge:
    """Merge ``incoming`` translations of ``cards`` into ``lang`` into the overlays of ``book``; new overlay files
    go under ``folder/<lang>/`` (``folder`` is the game's card folder). Problems are located in the translator's
    file: an unknown card id (the closest id as hint), a field that is not translatable or that the card does
    not have, a value that is not JSON where the source is not text, an icon code lost or added, Markdown left
    unbalanced (:func:`printer.cards.translations_io.markup_problems`), an entry given twice, an overlay file
    printer may not write."""
    result = Merge()
    ids = Candidates(card.id for card in cards)
    hints = [MAX_HINTS]  # unknown ids still to look the closest id up for
    seen: dict[str, str] = {}
    changes: dict[str, _Change] = {}
    for entry in incoming:
        problems = _check(entry, cards, ids, fields, seen, lang, hints)
        result.problems += problems
        if problems or not entry.translation:
            result.empty += not problems
            continue
        card = cards.by_id(entry.card_id)
        assert card is not None  # _check reported an unknown id
        source = card.data[entry.field]
        try:
            value = from_text(entry.translation, source)
        except ValueError as exc:
            result.problems.append(
                Problem(
                    entry.where,
                    f"not JSON: {exc}",
                    "the source of this field is not text: write JSON",
                    code="translation-json",
                )
            )
            continue
        seen_source = entry.source if entry.source is not None else as_text(source)
        existing = book.get(cards.game, lang, card.id)
        old_from = existing.source.get(entry.field) if existing is not None else None
        digest, moved = _digest(entry, source, seen_source, old_from)
        old_value = existing.fields.get(entry.field) if existing is not None else None
        if old_value == value and type(old_value) is type(value) and old_from == digest:
            result.unchanged += 1
            continue
        if isinstance(source, str):  # what is written is checked; a translation already there was before
            result.problems += markup_problems(seen_source, entry.translation, entry.where, lang)
        if moved:
            result.problems.append(
                Problem(
                    entry.where,
                    f"the source of {entry_key(entry.card_id, entry.field)} changed since the file was exported: "
                    "the translation is merged as made from the old source, so it stays stale",
                    "export the translations again to translate the new source",
                    WARNING,
                    "translation-stale",
                )
            )
        change = changes.setdefault(card.id, _Change(card, where=entry.id_where))
        change.values[entry.field] = value
        change.digests[entry.field] = digest
        result.changed += 1
    if not any(p.is_error for p in result.problems):
        _texts(project, cards.game, lang, book, folder, list(changes.values()), result)
    return result


def _check(
    entry: Incoming,
    cards: CardSet,
    ids: Candidates,
    fields: Sequence[str],
    seen: dict[str, str],
    lang: str,
    hints: list[int],
) -> list[Problem]:
    card = cards.by_id(entry.card_id)
    if card is None:
        hints[0] -= 1
        close = did_you_mean(entry.card_id, ids) if hints[0] >= 0 else None
        hint = close or "keep the card ids as they were exported"
        return [Problem(entry.id_where, f"unknown card id {entry.card_id!r} in {cards.game}", hint, code="unknown-id")]
    if entry.field not in fields:
        hint = "translatable fields: " + (", ".join(fields) or "none")
        field = did_you_mean(entry.field, list(fields))
        return [
            Problem(
                entry.field_where or entry.id_where,
                f"{entry.field!r} is not a translatable field of {cards.game}",
                field or hint,
                code="translation-field",
            )
        ]
    if card.data.get(entry.field) in (None, "", [], {}):
        return [
            Problem(
                entry.field_where or entry.id_where,
                f"the card {entry.card_id} has no {entry.field} to translate",
                code="translation-field",
            )
        ]
    key = entry_key(entry.card_id, entry.field)
    if key in seen:
        return [
            Problem(
                entry.where,
                f"a second {lang} translation of {key} (the first is at {seen[key]})",
                "keep one",
                code="translation-twice",
            )
        ]
    seen[key] = entry.where
    return []


def _digest(entry: Incoming, source: object, seen_source: str, old_from: str | None) -> tuple[str | None, bool]:
    """The ``from`` digest to write for ``entry`` (kept while it is fuzzy, else of the source text it was made from)
    and whether that source is not the current one."""
    if entry.fuzzy:
        return old_from, False
    if seen_source == as_text(source):
        return source_digest(source), False
    try:
        return source_digest(from_text(seen_source, source)), True
    except ValueError:
        return old_from, True


def _texts(
    project: Project, game: str, lang: str, book: TranslationBook, folder: Path, changes: list[_Change], result: Merge
) -> None:
    """The new texts of the overlay files ``changes`` touch, into ``result.files``."""
    texts: dict[Path, tuple[str, str, int]] = {}  # path -> (text, status, fields)
    for change in changes:
        existing = book.get(game, lang, change.card.id)
        path = existing.file if existing is not None else _overlay_path(folder, lang, change.card)
        if path.suffix.lower() != ".json":
            result.problems.append(
                Problem(
                    change.where,
                    f"the {lang} translation of {change.card.id} is kept in the spreadsheet {path} "
                    f"(its @{lang} columns): printer merges translations into overlay files only",
                    f"edit it in {path.name}, or move it into an overlay file (cards/{game}/{lang}/*.json)",
                    code="translation-file",
                )
            )
            continue
        if path not in texts:
            problem = project.write_problem(path, change.where)
            text, status = None, "new"
            if problem is None and path.exists():
                text, problem = read_text(path, change.where)
                status = "changed"
            if problem is not None:
                result.problems.append(problem.with_severity(ERROR))
                continue
            texts[path] = (text if text is not None else _new_file(project, game, lang, path), status, 0)
        text, status, count = texts[path]
        try:
            text = _edited(text, existing, change, path, lang)
        except CardEditError as exc:
            result.problems.append(Problem(change.where, f"{path}: {exc.problem.message}", code="translation-file"))
            continue
        texts[path] = (text, status, count + len(change.values))
    result.files = [OverlayChange(path, text, status, count) for path, (text, status, count) in texts.items()]


def _overlay_path(folder: Path, lang: str, card: Card) -> Path:
    """``folder/<lang>/`` and the source file's path below ``folder``, as ``.json``."""
    source = card.record.file
    try:
        relative = source.resolve().relative_to(folder.resolve())
    except ValueError:
        relative = Path(source.name)
    return folder / lang / relative.with_suffix(".json")


def _new_file(project: Project, game: str, lang: str, path: Path) -> str:
    """The text of an overlay file holding no translation yet."""
    data: dict[str, object] = {}
    own = project.root / "schema" / "translations.schema.json"
    bundled = bundled_schema("translations.schema.json")
    if own.is_file():
        data["$schema"] = Path(os.path.relpath(own, path.parent)).as_posix()
    elif bundled.is_file():
        data["$schema"] = bundled.resolve().as_uri()
    data.update({"game": game, "lang": lang, "cards": []})
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"


def _edited(text: str, existing: Translation | None, change: _Change, path: Path, lang: str) -> str:
    """``text`` with the translation of ``change`` (in place when ``existing``, else added to its card list)."""
    if existing is not None:
        old = card_at(text, existing.pointer)
        if old is None or old.get("id") != change.card.id:
            raise CardEditError(
                Problem(str(path), f"the translation of {change.card.id} is no longer at {existing.pointer}")
            )
        return replace_card(text, existing.pointer, _entry(old, change))
    try:
        data = json.loads(text)
    except ValueError:
        data = None
    if not isinstance(data, dict) or data.get("lang") != lang or not isinstance(data.get("cards"), list):
        raise CardEditError(
            Problem(str(path), f"not an overlay file of {lang} translations (a 'lang' and a 'cards' list)")
        )
    new_text, _ = insert_card(text, None, _entry({"id": change.card.id}, change), "$.cards")
    return new_text


def _entry(old: JSONObject, change: _Change) -> JSONObject:
    """An overlay entry: ``old`` with the changed fields, its ``from`` digests last (a field without a digest has
    none: it counts as stale)."""
    digests = dict(old.get("from") or {}) if isinstance(old.get("from"), dict) else {}
    entry = {key: value for key, value in old.items() if key != "from"}
    for name, value in change.values.items():
        entry[name] = value
        digest = change.digests[name]
        if digest is None:
            digests.pop(name, None)
        else:
            digests[name] = digest
    if digests:
        entry["from"] = digests
    return entry
