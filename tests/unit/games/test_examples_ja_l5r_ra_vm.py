"""The L5R, Res Arcana and Via Magica examples in English and Japanese: English card files (the source), a Japanese
translation of every translatable field of every card (cards/<game>/ja/), none missing or stale, markup kept."""

import json
import re

import pytest
from helpers import REPO

from printer import api
from printer.cards.catalog import load_cards, schema_store
from printer.cards.translations import languages, load_translations, translatable_fields, translation_state
from printer.project import load_project

GAMES = ("l5r", "res-arcana", "via-magica")
#: kana and CJK ideographs: the source files are English
JAPANESE = re.compile(r"[\u3040-\u30ff\u3400-\u9fff]")
#: what a translation must keep as it is: icon codes ({bow}, {gold:2}) and Markdown emphasis marks
KEPT = re.compile(r"\{[a-z0-9:-]+\}|\*\*|\*")


def _read(game: str):
    project = load_project(REPO)
    paths = [REPO / "cards" / game]
    sets, problems = load_cards(project, paths)
    book, found = load_translations(project, paths, cards=sets)
    store = schema_store(project)
    fields = translatable_fields(project, game, store.schema(project.games[game].schema), store)
    return project, sets[game], book, fields, problems + found


@pytest.mark.parametrize("game", GAMES)
def test_every_card_is_translated_into_japanese_none_missing_or_stale(game):
    project, cards, book, fields, problems = _read(game)
    assert problems == []
    assert languages(project, game) == ("en", "ja")
    assert {"title", "text"} <= set(fields)
    state, warnings = translation_state(cards, book, "ja", fields)
    assert (state.translated, state.missing, state.stale) == (len(cards), [], [])
    assert warnings == []


def test_the_translatable_fields_are_what_a_player_reads():
    assert _read("l5r")[3] == ("title", "text", "flavor", "keywords")
    assert _read("res-arcana")[3] == ("title", "text", "flavor")
    assert _read("via-magica")[3] == ("title", "text")


@pytest.mark.parametrize("game", GAMES)
def test_the_card_files_are_english_and_the_overlays_japanese(game):
    for file in sorted((REPO / "cards" / game).glob("*.json")):
        assert not JAPANESE.search(file.read_text(encoding="utf-8")), file
    overlays = sorted((REPO / "cards" / game / "ja").glob("*.json"))
    assert [f.name for f in overlays] == sorted(f.name for f in (REPO / "cards" / game).glob("*.json"))
    for file in overlays:
        data = json.loads(file.read_text(encoding="utf-8"))
        assert data["lang"] == "ja" and data["game"] == game
        for entry in data["cards"]:
            assert JAPANESE.search(entry["title"]), (file, entry["id"])


@pytest.mark.parametrize("game", GAMES)
def test_translations_keep_icon_codes_and_markup(game):
    _, cards, book, fields, _ = _read(game)
    for card in cards:
        translation = book.get(game, "ja", card.id)
        for name, value in translation.fields.items():
            if isinstance(value, str):
                assert sorted(KEPT.findall(value)) == sorted(KEPT.findall(card.data[name])), (card.id, name)
            else:
                assert len(value) == len(card.data[name]), (card.id, name)


def test_printer_validate_reports_them_all_translated_into_japanese():
    """What `printer validate` prints for the project: each of the three games 0 missing and 0 stale in ja."""
    report = api.validate(api.load_project(REPO), render=False)
    assert report.translations is not None
    lines = report.translations.summary_lines()
    for game in GAMES:
        count = len(load_cards(load_project(REPO), [REPO / "cards" / game])[0][game])
        assert f"{game} ja: {count} translated, 0 missing, 0 stale" in lines
    assert not [p for p in report.translations.problems if str(p.where).startswith(tuple(f"cards/{g}/" for g in GAMES))]


@pytest.mark.parametrize("game", GAMES)
def test_japanese_punctuation_is_full_width(game):
    """A colon or parenthesis in Japanese text is the full-width one (：（）); icon codes keep theirs ({gold:2})."""
    _, cards, book, _, _ = _read(game)
    for card in cards:
        for name, value in book.get(game, "ja", card.id).fields.items():
            for text in [value] if isinstance(value, str) else value:
                assert not re.search(r"[:()]", re.sub(r"\{[^}]*\}", "", text)), (card.id, name, text)
