"""Translations as data: overlay files, their digests and staleness, and cards in another language."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest
from helpers import write_json

from printer.cards.catalog import load_cards, schema_store
from printer.cards.load import load_records
from printer.cards.translations import (
    LangState,
    Translation,
    TranslationBook,
    languages,
    load_translations,
    source_digest,
    translatable_fields,
    translate,
    translation_state,
)
from printer.problems import UsageError
from printer.project import load_project

STRATEGY = {"id": "hold", "title": "Hold the Line", "type": "Strategy", "deck": "Fate", "focus": 3, "text": "Bow."}
EVENT = {"id": "storm", "title": "Storm", "type": "Event", "deck": "Dynasty", "text": "Rain falls."}
TOML = (
    '[games.l5r]\nname = "L5R"\ncard_size = "poker"\nback_field = "deck"\n'
    'backs = { Dynasty = "dynasty", Fate = "fate", "Pre-Game" = "pregame" }\n'
)


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A project whose l5r game is in English and Japanese, title and text translatable, with two cards."""
    (tmp_path / "printer.toml").write_text(
        TOML + 'languages = ["en", "ja"]\ntranslatable = ["title", "text"]\n', encoding="utf-8"
    )
    write_json(tmp_path / "cards" / "l5r" / "fate.json", {"game": "l5r", "cards": [STRATEGY, EVENT]})
    return tmp_path


def overlay(root: Path, *entries: dict, lang: str = "ja", name: str = "fate.json", **extra) -> Path:
    return write_json(root / "cards" / "l5r" / lang / name, {"lang": lang, **extra, "cards": list(entries)})


def entry(card: dict, **fields) -> dict:
    """A translation of ``card`` made from its current text: ``fields`` and their digests."""
    return {"id": card["id"], **fields, "from": {k: source_digest(card[k]) for k in fields}}


def read(root: Path):
    project = load_project(root)
    sets, problems = load_cards(project, [root / "cards" / "l5r"])
    assert problems == []
    book, found = load_translations(project, [root / "cards" / "l5r"], cards=sets)
    return project, sets, book, found


def test_source_digest_is_sha256_of_compact_sorted_json():
    value = {"b": "日本", "a": [1, 2]}
    text = '{"a":[1,2],"b":"日本"}'
    assert source_digest(value) == hashlib.sha256(text.encode("utf-8")).hexdigest()[:12]
    assert source_digest("Bow.") == source_digest("Bow.") != source_digest("Bow!")
    assert len(source_digest(3)) == 12


def test_languages_source_first_default_and_lang(tmp_path, project):
    assert languages(load_project(project), "l5r") == ("en", "ja")
    (tmp_path / "printer.toml").write_text(TOML, encoding="utf-8")
    assert languages(load_project(tmp_path), "l5r") == ("en",)
    (tmp_path / "printer.toml").write_text(TOML + 'lang = "ja"\n', encoding="utf-8")
    assert languages(load_project(tmp_path), "l5r") == ("ja",)
    with pytest.raises(UsageError):
        languages(load_project(tmp_path), "l5")


def test_printer_toml_checks_languages(tmp_path):
    (tmp_path / "cards" / "l5r").mkdir(parents=True)
    (tmp_path / "printer.toml").write_text(TOML + 'languages = ["en", "japanese!"]\n', encoding="utf-8")
    with pytest.raises(UsageError) as caught:
        load_project(tmp_path)
    (problem,) = caught.value.problems
    assert str(problem.where).endswith("printer.toml:6:1") and "japanese!" in problem.message


def test_translatable_fields_from_toml_and_schema_marks(project):
    loaded = load_project(project)
    store = schema_store(loaded)
    schema = {
        "$id": "https://printer.invalid/schema/l5r/card.schema.json",
        "allOf": [
            {"$ref": "../card.schema.json"},
            {"properties": {"flavor": {"x-translatable": True}, "keywords": {"type": "array"}}},
            {"if": {}, "then": {"properties": {"keywords": {"x-translatable": True}}}},
        ],
    }
    assert translatable_fields(loaded, "l5r", schema, store) == ("title", "text", "flavor", "keywords")
    assert translatable_fields(loaded, "l5r", {}) == ("title", "text")


def test_a_schema_marked_translatable_still_validates(project):
    schema = project / "schema" / "l5r" / "card.schema.json"
    bundled = json.loads((Path(__file__).resolve().parents[3] / "schema" / "l5r" / "card.schema.json").read_text())
    for prop in bundled["properties"].values():  # the bundled schema's own marks off: only the one below counts
        prop.pop("x-translatable", None)
    bundled["allOf"].append({"properties": {"title": {"x-translatable": True}}})
    write_json(schema, bundled)
    loaded = load_project(project)
    sets, problems = load_cards(loaded, [project / "cards" / "l5r"])
    assert problems == [] and len(sets["l5r"]) == 2
    (project / "printer.toml").write_text(TOML + 'languages = ["en", "ja"]\n', encoding="utf-8")
    loaded = load_project(project)
    store = schema_store(loaded)
    assert translatable_fields(loaded, "l5r", store.schema(loaded.games["l5r"].schema), store) == ("title",)


def test_the_card_loader_skips_overlay_files(project):
    overlay(project, entry(STRATEGY, title="戦線維持"))
    records, problems = load_records([project / "cards" / "l5r"])
    assert problems == [] and [r.data["id"] for r in records] == ["hold", "storm"]


def test_translations_are_read_and_applied(project):
    overlay(project, entry(STRATEGY, title="戦線維持", text="屈服せよ。"), entry(EVENT, title="嵐", text="雨が降る。"))
    _, sets, book, problems = read(project)
    assert problems == []
    found = book.get("l5r", "ja", "hold")
    assert isinstance(found, Translation) and found.fields == {"title": "戦線維持", "text": "屈服せよ。"}
    assert found.pointer == "$.cards[0]" and found.file == project / "cards" / "l5r" / "ja" / "fate.json"
    assert found.where("text") == f"{found.file}::$.cards[0].text (ja)"
    assert book.langs("l5r") == ["ja"] and list(book.of("l5r", "ja")) == ["hold", "storm"]
    assert book.get("l5r", "fr", "hold") is None and book.source("l5r") == "en"
    japanese, warnings = translate(sets["l5r"], book, "ja", ("title", "text"))
    assert warnings == []
    card = japanese.by_id("hold")
    assert card.title == "戦線維持" and card.get("text") == "屈服せよ。" and card.get("focus") == 3
    assert card.record is sets["l5r"].by_id("hold").record
    assert sets["l5r"].by_id("hold").title == "Hold the Line", "the source cards are left as they are"
    same, none = translate(sets["l5r"], book, "en", ("title", "text"))
    assert same is sets["l5r"] and none == []
    state, warnings = translation_state(sets["l5r"], book, "ja", ("title", "text"))
    assert state == LangState("ja", 2, [], []) and warnings == []
    assert state.summary() == "ja: 2 translated, 0 missing, 0 stale"


def test_a_missing_translation_falls_back_with_a_warning_and_a_count(project):
    overlay(project, entry(STRATEGY, title="戦線維持", text="屈服せよ。"))
    _, sets, book, problems = read(project)
    assert problems == []
    japanese, warnings = translate(sets["l5r"], book, "ja", ("title", "text"))
    assert japanese.by_id("storm").title == "Storm"
    codes = [p.code for p in warnings]
    assert codes == ["translation-missing", "translation-missing-count"]
    assert all(not p.is_error for p in warnings)
    assert warnings[0].where == f"{project / 'cards' / 'l5r' / 'fate.json'}::$.cards[1] (ja)"
    assert "1 card of l5r has no ja translation" in warnings[1].message
    state, found = translation_state(sets["l5r"], book, "ja", ("title", "text"))
    assert state == LangState("ja", 1, ["storm"], []) and [p.code for p in found] == ["translation-missing"]


def test_a_field_left_untranslated_is_missing(project):
    overlay(project, entry(STRATEGY, title="戦線維持"), entry(EVENT, title="嵐", text="雨が降る。"))
    _, sets, book, _ = read(project)
    japanese, warnings = translate(sets["l5r"], book, "ja", ("title", "text"))
    assert japanese.by_id("hold").title == "戦線維持" and japanese.by_id("hold").get("text") == "Bow."
    assert "'text'" in warnings[0].message and str(warnings[0].where).endswith("::$.cards[0] (ja)")
    assert translation_state(sets["l5r"], book, "ja", ("title", "text"))[0].missing == ["hold"]


def test_a_translation_goes_stale_when_its_source_is_edited(project):
    overlay(project, entry(STRATEGY, title="戦線維持", text="屈服せよ。"), entry(EVENT, title="嵐", text="雨が降る。"))
    assert read(project)[3] == []
    edited = dict(STRATEGY, text="Bow two Personalities.")
    write_json(project / "cards" / "l5r" / "fate.json", {"game": "l5r", "cards": [edited, EVENT]})
    _, sets, book, problems = read(project)
    assert problems == []
    state, warnings = translation_state(sets["l5r"], book, "ja", ("title", "text"))
    assert state == LangState("ja", 1, [], ["hold"])
    (stale,) = warnings
    assert stale.code == "translation-stale" and not stale.is_error
    assert stale.where == f"{project / 'cards' / 'l5r' / 'ja' / 'fate.json'}::$.cards[0].text (ja)"
    assert source_digest("Bow two Personalities.") in (stale.hint or "")
    japanese, warnings = translate(sets["l5r"], book, "ja", ("title", "text"))
    assert japanese.by_id("hold").get("text") == "屈服せよ。", "a stale translation is still used"
    assert [p.code for p in warnings] == ["translation-stale"]


def test_a_field_without_a_digest_is_stale(project):
    overlay(project, {"id": "hold", "title": "戦線維持", "text": "屈服せよ。"}, entry(EVENT, title="嵐", text="雨"))
    _, sets, book, _ = read(project)
    state, warnings = translation_state(sets["l5r"], book, "ja", ("title", "text"))
    assert state.stale == ["hold"] and source_digest("Hold the Line") in (warnings[0].hint or "")


def test_unknown_id_extra_field_and_untranslatable_field_are_located(project):
    overlay(
        project,
        entry(STRATEGY, title="戦線維持", text="屈服せよ。", focus=4),
        {"id": "stom", "title": "嵐"},
        entry(EVENT, title="嵐", text="雨"),
        {"id": "storm", "flavor": "風"},
    )
    (project / "printer.toml").write_text(
        TOML + 'languages = ["en", "ja"]\ntranslatable = ["title", "text", "flavor"]\n', encoding="utf-8"
    )
    _, _, _, problems = read(project)
    file = project / "cards" / "l5r" / "ja" / "fate.json"
    by_code = {p.code: p for p in problems}
    assert all(p.is_error for p in problems if p.code != "translation-from")
    assert by_code["translation-field"].where == f"{file}::$.cards[0].focus (ja)"
    assert by_code["translation-unknown-id"].where == f"{file}::$.cards[1].id (ja)"
    assert "'storm'" in (by_code["translation-unknown-id"].hint or "")
    assert by_code["translation-duplicate"].where == f"{file}::$.cards[3] (ja)"


def test_a_field_the_source_lacks_and_a_value_of_another_shape(project):
    (project / "printer.toml").write_text(
        TOML + 'languages = ["en", "ja"]\ntranslatable = ["title", "text", "flavor"]\n', encoding="utf-8"
    )
    overlay(project, entry(STRATEGY, title=["戦線維持"]), {"id": "storm", "flavor": "風"})
    _, sets, book, problems = read(project)
    file = project / "cards" / "l5r" / "ja" / "fate.json"
    assert {(p.code, p.where) for p in problems} == {
        ("translation-type", f"{file}::$.cards[0].title (ja)"),
        ("translation-extra-field", f"{file}::$.cards[1].flavor (ja)"),
    }
    japanese, _ = translate(sets["l5r"], book, "ja", ("title", "text", "flavor"))
    assert japanese.by_id("hold").title == "Hold the Line", "a value of another shape is not used"
    assert "flavor" not in japanese.by_id("storm").data


def test_overlay_checked_against_its_schema(project):
    overlay(project, {"title": "x"}, entry(STRATEGY, title="戦線維持"), extra_key=1)
    path = project / "cards" / "l5r" / "ja" / "bad.json"
    write_json(path, {"lang": "ja", "cards": [{"id": "hold", "title": "x", "from": {"title": "XYZ"}}]})
    _, _, book, problems = read(project)
    wheres = sorted(p.where for p in problems)
    file = project / "cards" / "l5r" / "ja" / "fate.json"
    assert f"{file}::$.cards[0] (ja)" in wheres  # no id
    assert f"{file}::$.extra_key (ja)" in wheres
    assert f"{path}::$.cards[0].from.title (ja)" in wheres
    assert len(book) == 0


def test_overlay_language_must_be_declared_and_not_the_source(project):
    overlay(project, entry(STRATEGY, title="Tenir"), lang="fr")
    overlay(project, entry(STRATEGY, title="Hold"), lang="en")
    _, _, book, problems = read(project)
    assert len(book) == 0
    codes = {(p.code, Path(str(p.where).split("::")[0]).parent.name) for p in problems}
    assert codes == {("translation-lang", "fr"), ("translation-lang", "en")}
    assert all(str(p.where).endswith("::$.lang (fr)") or str(p.where).endswith("::$.lang (en)") for p in problems)


def test_overlay_game_from_its_key_or_folder(project):
    write_json(project / "translations" / "ja.json", {"lang": "ja", "cards": [entry(STRATEGY, title="戦線維持")]})
    loaded = load_project(project)
    book, problems = load_translations(loaded, [project / "translations"])
    assert [p.code for p in problems] == ["unknown-game"] and len(book) == 0
    write_json(
        project / "translations" / "ja.json",
        {"game": "l5r", "lang": "ja", "cards": [entry(STRATEGY, title="戦線維持")]},
    )
    book, problems = load_translations(loaded, [project / "translations"])
    assert problems == [] and book.get("l5r", "ja", "hold") is not None


def test_a_json_syntax_error_in_an_overlay_is_reported_once(project):
    path = project / "cards" / "l5r" / "ja" / "fate.json"
    write_json(path, None, raw='{"lang": "ja", "cards": [,]}')
    loaded = load_project(project)
    _, problems = load_cards(loaded, [project / "cards" / "l5r"])
    assert [p.code for p in problems] == ["json-syntax"] and str(problems[0].where).startswith(f"{path}:1:")
    assert load_translations(loaded, [project / "cards" / "l5r"])[1] == [], "the card loader reports it"


def test_book_keeps_the_first_of_two(tmp_path):
    first = Translation("g", "ja", "a", {"title": "一"}, {}, tmp_path / "a.json", "$.cards[0]")
    second = Translation("g", "ja", "a", {"title": "二"}, {}, tmp_path / "b.json", "$.cards[0]")
    book = TranslationBook([first], {"g": ["en", "ja"]})
    assert book.add(second) is first and book.get("g", "ja", "a") is first and len(book) == 1
    assert list(book) == [first] and book.source("g") == "en" and book.langs("g") == ["ja"]


# --- spreadsheets -------------------------------------------------------------------------------------------------

SHEET_HEADER = ["id", "title", "type", "deck", "focus", "text", "title@ja", "text@ja", "from@ja"]


def sheet_rows(stale: bool = False) -> list[list[object]]:
    digests = f"title={source_digest('Hold the Line')} text={source_digest('Bow.' if not stale else 'Old.')}"
    return [
        SHEET_HEADER,
        ["hold", "Hold the Line", "Strategy", "Fate", 3, "Bow.", "戦線維持", "屈服せよ。", digests],
        ["storm", "Storm", "Event", "Dynasty", None, "Rain falls.", None, None, None],
    ]


def write_xlsx(path: Path, rows: list[list[object]], title: str = "Fate Cards") -> Path:
    import openpyxl

    book = openpyxl.Workbook()
    sheet = book.active
    sheet.title = title
    for row in rows:
        sheet.append(row)
    path.parent.mkdir(parents=True, exist_ok=True)
    book.save(path)
    return path


def sheet_project(project: Path, rows: list[list[object]], suffix: str) -> Path:
    (project / "cards" / "l5r" / "fate.json").unlink(missing_ok=True)
    path = project / "cards" / "l5r" / f"fate{suffix}"
    if suffix == ".csv":
        import csv

        with path.open("w", encoding="utf-8", newline="") as stream:
            csv.writer(stream).writerows([["" if v is None else v for v in row] for row in rows])
    else:
        write_xlsx(path, rows)
    return path


@pytest.mark.parametrize("suffix", [".xlsx", ".csv"])
def test_a_spreadsheet_holds_translations_in_at_lang_columns(project, suffix):
    path = sheet_project(project, sheet_rows(), suffix)
    loaded = load_project(project)
    sets, problems = load_cards(loaded, [project / "cards" / "l5r"])
    assert problems == [], "title@ja, text@ja and from@ja are not taken for unknown fields"
    assert "title@ja" not in sets["l5r"].by_id("hold").data
    records, _ = load_records([project / "cards" / "l5r"])
    book, problems = load_translations(loaded, [project / "cards" / "l5r"], cards=sets, records=records)
    assert problems == []
    found = book.get("l5r", "ja", "hold")
    assert found is not None and found.fields == {"title": "戦線維持", "text": "屈服せよ。"}
    sheet = "'Fate Cards'!" if suffix == ".xlsx" else ""
    assert found.where("text") == f"{path}:{sheet}H2 (ja)"
    assert book.get("l5r", "ja", "storm") is None
    state, warnings = translation_state(sets["l5r"], book, "ja", ("title", "text"))
    assert state == LangState("ja", 1, ["storm"], []) and [p.code for p in warnings] == ["translation-missing"]
    assert warnings[0].where == f"{path}:{sheet}3:3 (ja)" if suffix == ".xlsx" else f"{path}:3 (ja)"
    assert "in the spreadsheet's columns title@ja, text@ja" in (warnings[0].hint or "")
    japanese, _ = translate(sets["l5r"], book, "ja", ("title", "text"))
    assert japanese.by_id("hold").title == "戦線維持"
    again, problems = load_translations(loaded, [project / "cards" / "l5r"], cards=sets)
    assert problems == [] and again.get("l5r", "ja", "hold") == found, "read from the file when no records are given"


def test_a_stale_translation_in_a_spreadsheet_is_located_at_its_cell(project):
    path = sheet_project(project, sheet_rows(stale=True), ".xlsx")
    _, sets, book, problems = read(project)
    assert problems == []
    state, warnings = translation_state(sets["l5r"], book, "ja", ("title", "text"))
    (stale,) = [p for p in warnings if p.code == "translation-stale"]
    assert state.stale == ["hold"] and stale.where == f"{path}:'Fate Cards'!H2 (ja)"
    # the hint gives the from@ja cell to write, in the cell's own form, not an overlay's JSON
    pairs = f"title={source_digest('Hold the Line')} text={source_digest('Bow.')}"
    assert (stale.hint or "").endswith(f"then write {pairs} in its from@ja cell")


def test_bad_translation_cells_are_located(project):
    rows = sheet_rows()
    rows[0] = [*SHEET_HEADER, "title@fr", "text@"]
    rows[1] = [*rows[1][:-1], "title=zz", "Tenir", "x"]
    path = sheet_project(project, rows, ".xlsx")
    loaded = load_project(project)
    sets, problems = load_cards(loaded, [project / "cards" / "l5r"])
    assert [(p.code, p.where) for p in problems] == [("bad-header", f"{path}:'Fate Cards'!K1")]
    rows[0] = rows[0][:-1]
    rows[1] = rows[1][:-1]
    path = sheet_project(project, rows, ".xlsx")
    _, sets, book, problems = read(project)
    assert {(p.code, p.where) for p in problems} == {
        ("translation-from", f"{path}:'Fate Cards'!I2 (ja)"),
        ("translation-lang", f"{path}:'Fate Cards'!J:J (fr)"),
    }


def test_a_translated_card_is_checked_against_the_game_schema(project):
    overlay(project, entry(STRATEGY, title="戦" * 201, text="屈服せよ。"), entry(EVENT, title="", text="雨"))
    _, _, _, problems = read(project)
    file = project / "cards" / "l5r" / "ja" / "fate.json"
    assert {(p.code, p.where) for p in problems} == {
        ("translation-schema", f"{file}::$.cards[0].title (ja)"),
        ("translation-schema", f"{file}::$.cards[1].title (ja)"),
    }
    assert all(p.is_error for p in problems) and "201 characters long" in problems[0].message + problems[1].message


def test_an_entry_with_too_many_fields_is_refused_unread(project):
    overlay(project, {"id": "hold", **{f"f{i}": "x" for i in range(1200)}})
    _, _, book, problems = read(project)
    assert [p.code for p in problems] == ["limit"] and len(book) == 0
    assert str(problems[0].where).endswith("::$.cards[0] (ja)")


def test_an_overlay_of_more_cards_than_a_build_takes_is_refused_unread(project):
    (project / "printer.toml").write_text(
        TOML + 'languages = ["en", "ja"]\ntranslatable = ["title"]\n[limits]\ncards_per_build = 3\n', encoding="utf-8"
    )
    overlay(project, *({"id": f"c{i}"} for i in range(4)))
    _, _, book, problems = read(project)
    assert [p.code for p in problems] == ["limit"] and len(book) == 0
    assert str(problems[0].where).endswith("::$.cards (ja)")


def test_an_overlay_of_many_bad_entries_is_explained_a_hundred_problems_at_most(project):
    overlay(project, *({"title": "x"} for _ in range(150)))
    _, _, book, problems = read(project)
    assert len(problems) == 101 and len(book) == 0
    assert str(problems[0].where).endswith("::$.cards[0] (ja)") and "missing required field 'id'" in problems[0].message
    assert str(problems[-1].where).endswith("::$.cards (ja)") and "not checked" in problems[-1].message
