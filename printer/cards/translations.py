"""Translations of a game's cards, read as data beside the cards.

A game names its languages in printer.toml (``[games.<id>] languages = ["en", "ja"]``, the first being the
*source*: the language of the card files themselves) and which fields are translatable (a property of its card
schema with ``"x-translatable": true``, and/or ``translatable = ["title", "text"]`` in its table).

A translation is an *overlay*: a JSON file with a top-level ``"lang"`` key (conventionally
``cards/<game>/<lang>/*.json``; the card loader never reads it as cards), checked against
``schema/translations.schema.json``::

    {"game": "starfall", "lang": "ja",
     "cards": [{"id": "hold-the-line", "title": "...", "text": "...",
                "from": {"title": "1a2b3c4d5e6f", "text": "0f9e8d7c6b5a"}}]}

``from`` holds, for each translated field, :func:`source_digest` of the source value it was made from: a
translation is *stale* when that digest differs from the digest of the source card's current value (a field with
no digest counts as stale). A spreadsheet holds translations as ``<field>@<lang>`` columns beside the source
columns and the digests in a ``from@<lang>`` column (``title=1a2b3c4d5e6f text=0f9e8d7c6b5a``).

Problems in a translation are located in the overlay with the language: ``cards/starfall/ja/crew.json::$.cards[3].text
(ja)``, or at the spreadsheet cell (``cards/starfall/crew.xlsx:Sheet1!F7 (ja)``). docs/translations.md is the user's
page.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence, Set
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, cast

from printer.cards.catalog import field_count, schema_store
from printer.cards.load import CARD_SUFFIXES, card_files, read_json
from printer.cards.model import Card, CardSet
from printer.cards.record import MAX_FILE_BYTES, Record, json_key, json_type
from printer.cards.translation_book import (
    DEFAULT_LANG,
    ENTRY_KEYS,
    LANG_TAG,
    Translation,
    TranslationBook,
    add_checked,
    json_kind,
    lang_problem,
    languages,
    source_digest,
    translatable_fields,
)
from printer.jsonvalue import JSONObject
from printer.limits import over
from printer.location import Location
from printer.paths import is_inside, regular_file_problem
from printer.problems import WARNING, Candidates, Problem, counted, did_you_mean
from printer.project import Project, bundled_root

if TYPE_CHECKING:
    from printer.cards.schema import SchemaStore
    from printer.cards.spreadsheet import SheetRecord

# --- reading ----------------------------------------------------------------------------------------------------------

#: the overlay files' schema (printer's own: a project cannot loosen it)
SCHEMA_FILE = "schema/translations.schema.json"
#: how many unknown ids get the closest id as hint (each costs a look-up among the game's ids)
_HINTED = 100
#: a cheap test before parsing a JSON file that may be an overlay
_LANG_KEY = b'"lang"'


def load_translations(
    project: Project,
    paths: list[Path],
    *,
    cards: Mapping[str, CardSet] | None = None,
    store: SchemaStore | None = None,
    records: Sequence[object] | None = None,
    skip: Set[Path] = frozenset(),
) -> tuple[TranslationBook, list[Problem]]:
    """Read every translation under ``paths`` (the folders or files the cards are read from): overlay files and the
    ``<field>@<lang>`` columns of spreadsheets.

    Returns the :class:`TranslationBook` and the located problems (errors): an overlay its schema refuses, a
    language the game does not declare (or its source), a field that is not translatable, a card translated twice
    into one language. With ``cards`` (the valid cards by game, :func:`printer.cards.catalog.load_cards`) also an
    unknown card id (the closest as hint), a field the source card does not have, and a value of another JSON type
    than the source's. ``records`` are the records already read from ``paths``
    (:func:`printer.cards.load.load_records`), whose spreadsheet rows are then not read again; ``skip`` are JSON
    files known to hold cards, not overlays (not read again). ``store`` gives the card schemas (default: the
    project's)."""
    store = store or schema_store(project)
    book = TranslationBook(sources={g: languages(project, g) for g in project.games})
    problems: list[Problem] = []
    fields: dict[str, tuple[str, ...]] = {}

    def translatable(game: str) -> tuple[str, ...]:
        if game not in fields:
            fields[game] = translatable_fields(project, game, store.schema(project.games[game].schema), store)
        return fields[game]

    rows: list[SheetRecord] = []
    read: set[Path] = set()
    for record in records or ():
        if isinstance(record, Record) and type(record) is not Record:  # a spreadsheet row (SheetRecord)
            read.add(record.file)
            rows.append(cast("SheetRecord", record))
    for folder in paths:
        for file in card_files([Path(folder)]):
            if Path(folder).is_dir() and not is_inside(file, [folder]):
                continue  # a link out of the folder: the card loader reports it
            if file.suffix.lower() == ".json":
                if file not in skip:
                    problems += _read_overlay(project, file, book, translatable, store)
            elif file not in read and file.suffix.lower() in CARD_SUFFIXES and regular_file_problem(file) is None:
                from printer.cards.spreadsheet import read_records

                read.add(file)
                rows += read_records(file)[0]  # the card loader reports the file's own problems
    if rows:
        from printer.cards.sheet_translations import sheet_translations

        problems += sheet_translations(project, rows, book, translatable, store)
    if cards is not None:
        schemas = {game.id: game.schema for game in project.games.values()}
        problems += check_against_source(book, cards, store, schemas)
    return book, problems


def is_overlay(data: object) -> bool:
    """Whether parsed JSON is a translation overlay (an object with a top-level ``lang`` key), not cards."""
    return isinstance(data, dict) and "lang" in data


def _read_overlay(
    project: Project,
    file: Path,
    book: TranslationBook,
    translatable: Callable[[str], tuple[str, ...]],
    store: SchemaStore,
) -> list[Problem]:
    try:
        if file.stat().st_size > MAX_FILE_BYTES:
            return []  # the card loader reports it, unread
        with file.open("rb") as stream:
            head = stream.read()
    except OSError:
        return []  # the card loader reports a file it cannot read
    if _LANG_KEY not in head:
        return []
    data, problems = read_json(file)
    if not is_overlay(data):
        return []
    assert isinstance(data, dict)
    lang = data.get("lang")
    tag = f" ({lang})" if isinstance(lang, str) and len(lang) <= 20 else ""
    entries = data.get("cards")
    if isinstance(entries, list) and len(entries) > project.limits.cards_per_build:  # refused unread, as cards are
        limit = project.limits.cards_per_build
        return problems + [over("cards_per_build", len(entries), limit, f"{file}::$.cards{tag}", "translated cards")]
    found = _schema_problems_of(data, file, store)
    shown = lang if tag else None
    problems += [Problem(p.where.in_lang(shown), p.message, p.hint, p.severity, p.code) for p in found]
    if found:
        return problems
    game, problem = _overlay_game(project, file, data, tag)
    if problem is not None:
        return problems + [problem]
    assert game is not None and isinstance(lang, str)
    problem = lang_problem(project, game, lang, f"{file}::$.lang ({lang})")
    if problem is not None:
        return problems + [problem]
    allowed = translatable(game)
    limit = project.limits.fields_per_card
    for i, entry in enumerate(data["cards"]):
        count = field_count(entry)
        if count > limit:  # refused unread, as a card with too many fields is
            problems.append(over("fields_per_card", count, limit, f"{file}::$.cards[{i}] ({lang})", "fields"))
            continue
        translated = {k: v for k, v in entry.items() if k not in ENTRY_KEYS}
        translation = Translation(
            game, lang, entry["id"], translated, dict(entry.get("from", {})), file, f"$.cards[{i}]"
        )
        problems += add_checked(book, translation, allowed)
    return problems


#: an overlay's schema problems reported at most (the entries after are not checked)
_SCHEMA_PROBLEMS = 100


def _schema_problems_of(data: JSONObject, file: Path, store: SchemaStore) -> list[Problem]:
    """``data`` (an overlay) against its schema: the file's own keys, then each entry alone (so that a file of many
    bad entries is explained a few at a time: at most :data:`_SCHEMA_PROBLEMS` problems)."""
    schema = bundled_root() / SCHEMA_FILE
    fast = store.fast_validator(schema)
    try:
        if fast is not None and fast.is_valid(data):
            return []
    except Exception:  # noqa: BLE001 - data jsonschema-rs cannot take is explained the slow way
        pass
    entries = data.get("cards")
    if not isinstance(entries, list):
        return store.validate(data, schema, f"{file}::$")
    found = store.validate({**data, "cards": []}, schema, f"{file}::$")
    for i, entry in enumerate(entries):
        for problem in store.validate({"lang": "xx", "cards": [entry]}, schema, "$"):
            where = Location(str(file), path=f"$.cards[{i}]" + (problem.where.path or "$")[len("$.cards[0]") :])
            found.append(Problem(where, problem.message, problem.hint, problem.severity, problem.code))
        if len(found) >= _SCHEMA_PROBLEMS:
            found.append(
                Problem(f"{file}::$.cards", f"entries after [{i}] not checked: too many problems", code="schema")
            )
            break
    return found


def _overlay_game(project: Project, file: Path, data: JSONObject, tag: str) -> tuple[str | None, Problem | None]:
    game = data.get("game")
    if isinstance(game, str):
        if game in project.games:
            return game, None
        hint = did_you_mean(game, list(project.games)) or "games: " + ", ".join(sorted(project.games))
        return None, Problem(f"{file}::$.game{tag}", f"unknown game {game!r}", hint, code="unknown-game")
    owner = project.game_for_path(file)
    if owner is None:
        return None, Problem(
            f"{file}::${tag}",
            "cannot tell which game these translations belong to",
            'put the file under cards/<game>/<lang>/ or add "game": "<id>"',
            code="unknown-game",
        )
    return owner.id, None


def check_against_source(
    book: TranslationBook,
    cards: Mapping[str, CardSet],
    store: SchemaStore | None = None,
    schemas: Mapping[str, Path] | None = None,
) -> list[Problem]:
    """What ``book``'s translations say that the source ``cards`` (by game) contradict: an unknown card id (the
    closest as hint), a translated field the source card does not have, a value of another JSON type than the
    source's (a list for a text). With ``store`` and ``schemas`` (each game's card schema file) the card as
    translated is also validated against its game's schema: a translated text over its ``maxLength`` is an error at
    the translated field."""
    problems: list[Problem] = []
    ids: dict[str, Candidates] = {}  # each game's card ids, prepared once for the hints
    unknown = 0
    for translation in book:
        cardset = cards.get(translation.game)
        card = cardset.by_id(translation.card_id) if cardset is not None else None
        if card is None:
            unknown += 1
            if translation.game not in ids:
                ids[translation.game] = Candidates(c.id for c in cardset) if cardset is not None else Candidates([])
            hint = did_you_mean(translation.card_id, ids[translation.game]) if unknown <= _HINTED else None
            problems.append(
                Problem(
                    translation.where("id"),
                    f"no {translation.game} card has the id {translation.card_id!r}",
                    hint or "an entry's id is the id of the card it translates",
                    code="translation-unknown-id",
                )
            )
            continue
        for name, value in translation.fields.items():
            if name not in card.data:
                problems.append(
                    Problem(
                        translation.where(name),
                        f"card {card.id!r} has no {name!r} to translate ({card.where})",
                        "remove the field from the translation, or add it to the source card first",
                        code="translation-extra-field",
                    )
                )
            elif json_kind(value) != json_kind(card.data[name]):
                problems.append(
                    Problem(
                        translation.where(name),
                        f"the translation is {json_type(value)}, the source {json_type(card.data[name])}",
                        "translate the value in the same shape as the source's",
                        code="translation-type",
                    )
                )
        schema = (schemas or {}).get(translation.game)
        if store is not None and schema is not None:
            problems += _schema_problems(translation, card, store, schema)
    return problems


def _schema_problems(translation: Translation, card: Card, store: SchemaStore, schema: Path) -> list[Problem]:
    """The game schema's errors in ``card`` with ``translation``'s fields in place, located at the translated
    field (a value of another JSON type than the source's is left out: it is reported apart, and never used); errors
    of the source's own fields are the card's, not reported here."""
    data = dict(card.data)
    data.update((k, v) for k, v in translation.fields.items() if k in data and json_kind(v) == json_kind(data[k]))
    if data == card.data:
        return []
    problems: list[Problem] = []
    for problem in store.validate(data, schema, "$"):
        path = (problem.where.path or "$")[1:]
        name = next((n for n in translation.fields if path == json_key(n) or path.startswith(json_key(n) + ".")), None)
        if name is None:
            name = next((n for n in translation.fields if path.startswith(json_key(n) + "[")), None)
        if name is not None:
            problems.append(
                Problem(translation.where(name), problem.message, problem.hint, problem.severity, "translation-schema")
            )
    return list(dict.fromkeys(problems))


# --- using them ---------------------------------------------------------------------------------------------------


@dataclass
class LangState:
    """The translation state of one game's cards in ``lang``: how many cards are ``translated`` (every translatable
    field the source has, none stale), and the ids of those ``missing`` a translation (of one field or more) and of
    those whose translation is ``stale`` (the source changed since). A card with nothing to translate is in none."""

    lang: str
    translated: int = 0
    missing: list[str] = field(default_factory=list)
    stale: list[str] = field(default_factory=list)

    def summary(self) -> str:
        """``ja: 60 translated, 3 missing, 2 stale``."""
        return f"{self.lang}: {self.translated} translated, {len(self.missing)} missing, {len(self.stale)} stale"


def _to_translate(card: Card, fields: Sequence[str]) -> list[str]:
    """The translatable fields ``card`` has a value in (an empty text or list has nothing to translate)."""
    out = []
    data = card.data
    for name in fields:
        value = data.get(name)
        if value is None or value == "" or value == [] or value == {}:
            continue
        out.append(name)
    return out


def _where_to_translate(card: Card, fields: Sequence[str], lang: str) -> str:
    """The hint of a missing translation: an overlay file, or for a card read from a spreadsheet its
    ``<field>@<lang>`` columns too."""
    hint = f"translate {', '.join(fields)} in an overlay file (cards/{card.game}/{lang}/*.json)"
    if card.record.file.suffix.lower() in _SPREADSHEETS:
        hint += f" or in the spreadsheet's columns {', '.join(f'{name}@{lang}' for name in fields)}"
    return hint


_SPREADSHEETS = (".csv", ".xlsx", ".xlsm", ".xls", ".ods")


def _assess(
    card: Card, translation: Translation | None, lang: str, fields: Sequence[str]
) -> tuple[str | None, Problem | None]:
    """``(state, problem)`` of one card: state ``None`` (nothing to translate), ``"missing"``, ``"stale"`` or
    ``"translated"``; the warning for the first two."""
    wanted = _to_translate(card, fields)
    if not wanted:
        return None, None
    source = card.record.where()
    if translation is None:
        return "missing", Problem(
            f"{source} ({lang})",
            f"card {card.id!r} has no {lang} translation: printed in the source language",
            _where_to_translate(card, wanted, lang),
            WARNING,
            code="translation-missing",
        )
    untranslated = [name for name in wanted if name not in translation.fields]
    if untranslated:
        return "missing", Problem(
            translation.where(),
            f"card {card.id!r} has no {lang} translation of {', '.join(repr(n) for n in untranslated)}: printed in "
            "the source language",
            f"translate {', '.join(untranslated)} beside the other fields ({source})",
            WARNING,
            code="translation-missing",
        )
    stale = translation.stale_fields(card, wanted)
    if stale:
        if translation.cells:  # a spreadsheet's from@lang cell holds every translated field's digest
            pairs = " ".join(
                f"{name}={source_digest(card.data[name])}" for name in translation.fields if name in card.data
            )
            stamp = f"write {pairs} in its from@{lang} cell"
        else:
            digests = ", ".join(f'"{name}": "{source_digest(card.data[name])}"' for name in stale)
            stamp = f"set from to {{{digests}}}"
        return "stale", Problem(
            translation.where(stale[0]),
            f"the {lang} translation of {card.id!r} is stale: the source {', '.join(repr(n) for n in stale)} changed "
            "since it was translated",
            f"check the translation against the source ({source}), then {stamp}",
            WARNING,
            code="translation-stale",
        )
    return "translated", None


def translation_state(
    cards: CardSet, book: TranslationBook, lang: str, fields: Sequence[str]
) -> tuple[LangState, list[Problem]]:
    """The :class:`LangState` of ``cards`` in ``lang`` and a warning for each card whose translation is missing
    (code ``translation-missing``, at the source card) or stale (``translation-stale``, at the translated field,
    the current digest in the hint). For the source language: every card translated, no problem."""
    if lang == book.source(cards.game):
        return LangState(lang, len(cards)), []
    state = LangState(lang)
    problems: list[Problem] = []
    held = book.of(cards.game, lang)
    for card in cards:
        verdict, problem = _assess(card, held.get(card.id), lang, fields)
        if verdict == "translated":
            state.translated += 1
        elif verdict == "missing":
            state.missing.append(card.id)
        elif verdict == "stale":
            state.stale.append(card.id)
        if problem is not None:
            problems.append(problem)
    return state, problems


def translate(cards: CardSet, book: TranslationBook, lang: str, fields: Sequence[str]) -> tuple[CardSet, list[Problem]]:
    """``cards`` in ``lang``: each a new :class:`Card` with the same ``record`` (art and locations resolve against the
    source file) and the translated values of ``fields`` in place of the source's.

    For the source language (:meth:`TranslationBook.source`) the same ``cards``, no problems. A card not translated
    (or not in every field) keeps the source text, with a warning (``translation-missing``) and one count for the
    language; a stale translation is used, with a warning (``translation-stale``). A translated value whose JSON
    type is not the source's is not used (:func:`check_against_source` reports it)."""
    if lang == book.source(cards.game):
        return cards, []
    held = book.of(cards.game, lang)
    out = CardSet(cards.game)
    problems: list[Problem] = []
    missing: list[Card] = []
    for card in cards:
        translation = held.get(card.id)
        verdict, problem = _assess(card, translation, lang, fields)
        if problem is not None:
            problems.append(problem)
        if verdict == "missing":
            missing.append(card)
        if translation is None:
            out.add(Card(card.game, card.data, card.record))
            continue
        data = dict(card.data)
        for name in fields:
            if (
                name in translation.fields
                and name in data
                and json_kind(translation.fields[name]) == json_kind(data[name])
            ):
                data[name] = translation.fields[name]
        out.add(Card(card.game, data, card.record))
    if missing:
        problems.append(
            Problem(
                f"{missing[0].record.where()} ({lang})",
                f"{counted(len(missing), 'card')} of {cards.game} {'has' if len(missing) == 1 else 'have'} no {lang} "
                "translation (or not of every field): printed in the source language",
                "printer validate lists them",
                WARNING,
                code="translation-missing-count",
            )
        )
    return out, problems


__all__ = [
    "DEFAULT_LANG",
    "LANG_TAG",
    "LangState",
    "Translation",
    "TranslationBook",
    "check_against_source",
    "is_overlay",
    "languages",
    "load_translations",
    "source_digest",
    "translatable_fields",
    "translate",
    "translation_state",
]
