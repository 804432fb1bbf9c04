"""The data of translations: a game's languages and translatable fields, :func:`source_digest`, one card's
:class:`Translation` and the :class:`TranslationBook` of every translation read.

:mod:`printer.cards.translations` reads them (and re-exports these names); see its docstring and
docs/translations.md.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import unquote, urldefrag, urljoin

from printer.cards.model import Card
from printer.cards.record import json_key
from printer.jsonvalue import JSONObject
from printer.problems import WARNING, Problem, did_you_mean
from printer.project import Project

if TYPE_CHECKING:
    from printer.cards.schema import SchemaStore

#: a language tag as printer.toml takes it (``en``, ``ja``, ``pt-BR``)
LANG_TAG = re.compile(r"[a-zA-Z]{2,3}(-[A-Za-z0-9]+)*")
#: the language of a game that declares none
DEFAULT_LANG = "en"
#: the keys of an overlay entry that are not translated fields
ENTRY_KEYS = ("id", "from")
#: the marker of a translatable property in a card schema
SCHEMA_MARK = "x-translatable"


def source_digest(value: object) -> str:
    """The digest of a source value a translation records in ``from``: the first 12 hex digits of SHA-256 over the
    value as compact JSON with sorted keys, UTF-8 (``ensure_ascii=False``), so that the same value gives the same
    digest whatever file or spreadsheet it was read from."""
    text = json.dumps(value, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:12]


def languages(project: Project, game_id: str) -> tuple[str, ...]:
    """The languages of ``game_id``, the source first; at least one.

    ``[games.<id>] languages`` when given (only language tags: ``ja-JP``, never a path nor a tag with a line
    break, which printer.toml's schema lets through as Python's ``$`` matches before a final newline); else the game's ``lang`` (the language of its card text) alone; else
    ``("en",)``. Raises :class:`~printer.problems.UsageError` for an unknown game."""
    settings = project.game(game_id).settings
    listed = settings.get("languages")
    if isinstance(listed, list):
        found = tuple(dict.fromkeys(x for x in listed if isinstance(x, str) and LANG_TAG.fullmatch(x)))
        if found:
            return found
    lang = settings.get("lang")
    return (lang,) if isinstance(lang, str) and LANG_TAG.fullmatch(lang) else (DEFAULT_LANG,)


def translatable_fields(
    project: Project, game_id: str, schema: JSONObject, store: SchemaStore | None = None
) -> tuple[str, ...]:
    """The fields of ``game_id``'s cards that translations may replace: ``[games.<id>] translatable`` (printer.toml),
    then the properties ``schema`` (the game's card schema as a dict) marks ``"x-translatable": true``, each once.

    The schema's ``allOf``/``anyOf``/``oneOf`` and ``then``/``else`` parts are followed, and its ``$ref`` ones too
    when ``store`` (a :class:`~printer.cards.schema.SchemaStore`) is given. Only top-level card fields count."""
    listed = project.game(game_id).settings.get("translatable")
    names = [x for x in listed if isinstance(x, str) and x] if isinstance(listed, list) else []
    return tuple(dict.fromkeys([*names, *_marked(schema, store)]))


def _marked(schema: JSONObject, store: SchemaStore | None) -> list[str]:
    """The properties ``schema`` marks translatable (see :func:`translatable_fields`).

    A ``$ref`` is followed through ``store``'s own schemas (:meth:`SchemaStore.contents_of`: the files the card
    validation may read, nothing else), without python-jsonschema's registry, so that finding the fields costs no
    import on the fast path of ``validate``."""
    base = schema.get("$id") if store is not None and isinstance(schema, dict) else None
    found: list[str] = []
    stack: list[tuple[object, str | None]] = [(schema, base if isinstance(base, str) else None)]
    steps = 0
    while stack and steps < 2000:  # a schema that refers to itself is walked a bounded number of steps
        steps += 1
        node, here = stack.pop(0)
        if not isinstance(node, dict):
            continue
        if isinstance(node.get("$id"), str) and here is not None:
            here = urljoin(here, node["$id"])
        properties = node.get("properties")
        if isinstance(properties, dict):
            found += [name for name, sub in properties.items() if isinstance(sub, dict) and sub.get(SCHEMA_MARK)]
        ref = node.get("$ref")
        if isinstance(ref, str) and here is not None and store is not None:
            stack.append(_referred(store, urljoin(here, ref)))
        for key in ("allOf", "anyOf", "oneOf"):
            parts = node.get(key)
            if isinstance(parts, list):
                stack += [(part, here) for part in parts]
        for key in ("then", "else"):
            stack.append((node.get(key), here))
    return list(dict.fromkeys(found))


def _referred(store: SchemaStore, uri: str) -> tuple[object, str | None]:
    """The part of a schema ``uri`` names (a JSON pointer fragment or none) and its base URI; ``(None, None)`` when
    it cannot be read (the card validation reports an unresolvable ``$ref``)."""
    document, fragment = urldefrag(uri)
    try:
        node = store.contents_of(document)
    except Exception:  # noqa: BLE001 - not one of the schemas the store may read
        return None, None
    for token in fragment.lstrip("/").split("/") if fragment.startswith("/") else []:
        token = unquote(token).replace("~1", "/").replace("~0", "~")
        if isinstance(node, dict):
            node = node.get(token)
        elif isinstance(node, list) and token.isdigit() and int(token) < len(node):
            node = node[int(token)]
        else:
            return None, None
    return node, document


@dataclass(frozen=True)
class Translation:
    """One card's translation into ``lang``: the translated ``fields`` (field -> value) and, in ``source``, the
    digest of the source value each was made from (the overlay's ``from``).

    ``file`` and ``pointer`` (``$.cards[3]``) say where it was read; ``cells`` (a spreadsheet row's) maps each
    field, and ``""`` the row, to its location (``file.xlsx:Sheet1!F7``)."""

    game: str
    lang: str
    card_id: str
    fields: Mapping[str, object]
    source: Mapping[str, str]
    file: Path
    pointer: str
    cells: Mapping[str, str] = field(default_factory=dict)

    def where(self, field: str = "") -> str:
        """``file::$.cards[3].text (ja)`` for a problem at ``field`` (the entry: ``field=""``); a spreadsheet
        translation's cell, ``file.xlsx:Sheet1!F7 (ja)``."""
        if self.cells:
            return f"{self.cells.get(field) or self.cells.get('', str(self.file))} ({self.lang})"
        return f"{self.file}::{self.pointer}{json_key(field) if field else ''} ({self.lang})"

    def stale_fields(self, card: Card, fields: Iterable[str]) -> list[str]:
        """The fields among ``fields`` translated here whose ``from`` digest is not the digest of ``card``'s current
        value (no digest: stale too)."""
        return [
            name
            for name in fields
            if name in self.fields and name in card.data and self.source.get(name) != source_digest(card.data[name])
        ]


class TranslationBook:
    """Every translation read, by game, language and card id (:func:`load_translations`).

    ``sources`` maps each game to its languages (the source first), as the project declares them."""

    def __init__(self, translations: Iterable[Translation] = (), sources: Mapping[str, Sequence[str]] | None = None):
        self._by: dict[tuple[str, str], dict[str, Translation]] = {}
        self.languages: dict[str, tuple[str, ...]] = {g: tuple(v) for g, v in (sources or {}).items()}
        for translation in translations:
            self.add(translation)

    def add(self, translation: Translation) -> Translation | None:
        """Keep ``translation``; returns the one already kept for the same card and language instead (which stays),
        or ``None``."""
        held = self._by.setdefault((translation.game, translation.lang), {})
        first = held.get(translation.card_id)
        if first is None:
            held[translation.card_id] = translation
        return first

    def get(self, game: str, lang: str, card_id: str) -> Translation | None:
        return self._by.get((game, lang), {}).get(card_id)

    def of(self, game: str, lang: str) -> Mapping[str, Translation]:
        """The translations of ``game`` into ``lang``, by card id (empty when there are none)."""
        return self._by.get((game, lang), {})

    def langs(self, game: str) -> list[str]:
        """The languages ``game`` has translations in, sorted."""
        return sorted(lang for g, lang in self._by if g == game and self._by[(g, lang)])

    def source(self, game: str) -> str | None:
        """The source language of ``game`` (the first it declares), or ``None`` when the book was not told."""
        langs = self.languages.get(game)
        return langs[0] if langs else None

    def __iter__(self) -> Iterator[Translation]:
        for held in self._by.values():
            yield from held.values()

    def __len__(self) -> int:
        return sum(len(held) for held in self._by.values())


def lang_problem(project: Project, game: str, lang: str, where: str) -> Problem | None:
    """Why ``lang`` cannot hold translations of ``game`` (not declared, or the source), or ``None``."""
    langs = languages(project, game)
    if lang == langs[0]:
        return Problem(
            where,
            f"{lang!r} is the source language of {game!r} (its card files are in it): nothing to translate",
            f"name the language of these translations; {game!r} declares languages = {list(langs)}",
            code="translation-lang",
        )
    if lang in langs:
        return None
    hint = did_you_mean(lang, list(langs[1:])) or (
        f"add it to [games.{game}] languages in printer.toml (now {list(langs)})"
    )
    return Problem(where, f"{game!r} has no language {lang!r}", hint, code="translation-lang")


def add_checked(book: TranslationBook, translation: Translation, allowed: tuple[str, ...]) -> list[Problem]:
    """Keep ``translation`` in ``book``, less the fields that are not translatable; the problems found."""
    problems: list[Problem] = []
    refused = [name for name in translation.fields if name not in allowed]
    for name in refused:
        hint = did_you_mean(name, list(allowed)) or (
            "translatable fields: " + ", ".join(allowed)
            if allowed
            else 'mark the field "x-translatable": true in the card schema, or list it in [games.'
            f"{translation.game}] translatable in printer.toml"
        )
        problems.append(
            Problem(translation.where(name), f"field {name!r} is not translatable", hint, code="translation-field")
        )
    for name in translation.source:
        if name not in translation.fields:
            problems.append(
                Problem(
                    translation.where("from") if not translation.cells else translation.where(""),
                    f"a source digest for {name!r}, which is not translated here",
                    f"remove {name!r} from from, or translate it",
                    WARNING,
                    code="translation-from",
                )
            )
    if refused:
        kept = {k: v for k, v in translation.fields.items() if k not in refused}
        translation = Translation(
            translation.game,
            translation.lang,
            translation.card_id,
            kept,
            translation.source,
            translation.file,
            translation.pointer,
            translation.cells,
        )
    first = book.add(translation)
    if first is not None:
        problems.append(
            Problem(
                translation.where(),
                f"card {translation.card_id!r} is translated into {translation.lang} twice, first at {first.where()}",
                "keep one of them",
                code="translation-duplicate",
            )
        )
    return problems


def json_kind(value: object) -> str:
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, (int, float)):
        return "number"
    return type(value).__name__
