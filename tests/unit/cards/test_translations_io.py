"""printer export/import translations: the translators' round trip through PO files and workbooks."""

from __future__ import annotations

import io
import json
import shutil
from pathlib import Path

import openpyxl
import pytest
from babel.messages.pofile import read_po, write_po
from helpers import REPO

from printer import api
from printer.cards.translations import source_digest
from printer.limits import Limits
from printer.project import load_project

TOML = """[games.l5r]
name = "L5R"
card_size = "poker"
back_field = "deck"
backs = { Dynasty = "dynasty", Fate = "fate", "Pre-Game" = "pregame" }
languages = ["en", "ja"]
translatable = ["title", "text"]
"""
HOLD_TEXT = "**Battle:** Pay {gold}: each Personality in your army gets +2 Force."
#: an overlay written by hand, in its own style (a compact "from" on one line): kept byte for byte
OVERLAY = """{
  "game": "l5r",
  "lang": "ja",
  "cards": [
    {
      "id": "ex-strategy-hold-line",
      "title": "戦線を守れ",
      "text": "**戦闘：** {gold}を支払う：軍勢の人物はそれぞれ兵力+2を得る。",
      "from": {"title": "%s", "text": "%s"}
    }
  ]
}
"""


@pytest.fixture
def game(tmp_path: Path) -> Path:
    """A project with the example Fate cards (one text with an icon) and a Japanese overlay for one card."""
    (tmp_path / "printer.toml").write_text(TOML, encoding="utf-8")
    data = json.loads((REPO / "cards" / "l5r" / "fate.json").read_text(encoding="utf-8"))
    data.pop("$schema", None)
    data["game"] = "l5r"
    data["cards"][0]["text"] = HOLD_TEXT
    cards = tmp_path / "cards" / "l5r"
    cards.mkdir(parents=True)
    (cards / "fate.json").write_text(json.dumps(data, indent=2, ensure_ascii=False), encoding="utf-8")
    overlay = cards / "ja" / "fate.json"
    overlay.parent.mkdir()
    overlay.write_text(OVERLAY % (source_digest("Hold the Line"), source_digest(HOLD_TEXT)), encoding="utf-8")
    return tmp_path


def overlay(root: Path) -> Path:
    return root / "cards" / "l5r" / "ja" / "fate.json"


def snapshot(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted((root / "cards").rglob("*.json"))}


def export(root: Path, name: str, lang: str = "ja") -> Path:
    out = root / name
    result = api.export_translations(load_project(root), "l5r", lang, out)
    assert [p for p in result.problems if p.is_error] == []
    return out


def merge(root: Path, path: Path, **options) -> api.TranslationsImport:
    return api.import_translations(load_project(root), path, **options)


def edit_po(path: Path, changes: dict[str, str], unfuzzy: tuple[str, ...] = ()) -> None:
    """Set the msgstr of the messages whose msgctxt is a key of ``changes`` (as a translator's tool does)."""
    catalog = read_po(io.BytesIO(path.read_bytes()))
    for message in catalog:
        if message.context in changes:
            message.string = changes[message.context]
        if message.context in unfuzzy:
            message.flags.discard("fuzzy")
    out = io.BytesIO()
    write_po(out, catalog)
    path.write_bytes(out.getvalue())


def test_po_round_trip_without_edits_changes_no_byte(game):
    before = snapshot(game)
    po = export(game, "ja.po")
    result = merge(game, po)
    assert [p for p in result.problems if p.is_error] == []
    assert result.files == {} and result.changed == 0 and result.unchanged == 2
    assert snapshot(game) == before


def test_po_has_source_translation_and_context(game):
    text = export(game, "ja.po").read_text(encoding="utf-8")
    assert "Language: ja" in text and "Project-Id-Version: l5r translations" in text
    catalog = read_po(io.StringIO(text))
    hold = catalog.get(HOLD_TEXT, context="ex-strategy-hold-line.text")
    assert hold.string.startswith("**戦闘：**") and not hold.fuzzy
    assert "card: Hold the Line (ex-strategy-hold-line)" in hold.auto_comments
    assert any(c.startswith("text: Rules text") for c in hold.auto_comments)  # the schema's description
    assert hold.locations == [("cards/l5r/fate.json", None)]
    assert "python-brace-format" not in text  # braces in card text are icons
    missing = [m for m in catalog if m.id and not m.string]
    assert missing and all(m.context.rpartition(".")[2] in ("title", "text", "flavor", "keywords") for m in missing)
    keywords = catalog.get('["Tactic"]', context="ex-strategy-hold-line.keywords")  # a list: written as JSON
    assert keywords is not None and keywords.string == ""


def test_a_field_that_is_a_list_goes_out_and_back_as_json(game):
    po = export(game, "ja.po")
    edit_po(po, {"ex-strategy-hold-line.keywords": '["戦術"]'})
    assert merge(game, po).problems == []
    entry = json.loads(overlay(game).read_text(encoding="utf-8"))["cards"][0]
    assert entry["keywords"] == ["戦術"] and entry["from"]["keywords"] == source_digest(["Tactic"])
    edit_po(po, {"ex-strategy-hold-line.keywords": "戦術"})
    assert [p.code for p in merge(game, po).problems] == ["translation-json"]


def test_po_edit_of_one_msgstr_changes_that_field_and_its_digest(game):
    po = export(game, "ja.po")
    before = overlay(game).read_text(encoding="utf-8")
    edit_po(po, {"ex-strategy-hold-line.title": "守りの陣"})
    result = merge(game, po)
    assert result.problems == [] and result.changed == 1
    after = overlay(game).read_text(encoding="utf-8")
    assert after == before.replace("戦線を守れ", "守りの陣")  # the title's digest is the same source's
    assert json.loads(after)["cards"][0]["from"]["title"] == source_digest("Hold the Line")


def test_po_new_translation_goes_into_the_overlay_beside_its_source(game):
    po = export(game, "ja.po")
    edit_po(po, {"ex-follower-ashigaru.title": "港の足軽"})
    result = merge(game, po)
    assert result.problems == [] and result.files == {overlay(game): ("changed", 1)}
    entry = json.loads(overlay(game).read_text(encoding="utf-8"))["cards"][1]
    assert entry == {
        "id": "ex-follower-ashigaru",
        "title": "港の足軽",
        "from": {"title": source_digest("Harbour Ashigaru")},
    }
    overlay(game).unlink()  # the file is made again, from the translations in the PO file
    result = merge(game, po)
    assert result.files == {overlay(game): ("new", 3)}
    data = json.loads(overlay(game).read_text(encoding="utf-8"))
    assert data["lang"] == "ja" and data["game"] == "l5r"
    assert [c["id"] for c in data["cards"]] == ["ex-strategy-hold-line", "ex-follower-ashigaru"]
    assert data["cards"][0]["from"] == {"title": source_digest("Hold the Line"), "text": source_digest(HOLD_TEXT)}
    report = api.validate(load_project(game))
    assert [p for p in report.problems if p.is_error] == []


def test_a_stale_translation_comes_out_fuzzy_and_stays_stale_until_confirmed(game):
    fate = game / "cards" / "l5r" / "fate.json"
    new_text = HOLD_TEXT.replace("+2 Force", "+3 Force")
    fate.write_text(fate.read_text(encoding="utf-8").replace(HOLD_TEXT, new_text), encoding="utf-8")
    po = export(game, "ja.po")
    hold = read_po(io.BytesIO(po.read_bytes())).get(new_text, context="ex-strategy-hold-line.text")
    assert hold.fuzzy and hold.string.startswith("**戦闘：**")
    other = read_po(io.BytesIO(po.read_bytes())).get("Hold the Line", context="ex-strategy-hold-line.title")
    assert not other.fuzzy
    before = snapshot(game)
    assert merge(game, po).files == {}  # still fuzzy: nothing changes, the old digest stays
    assert snapshot(game) == before
    translated = "**戦闘：** {gold}を支払う：軍勢の人物はそれぞれ兵力+3を得る。"
    edit_po(po, {"ex-strategy-hold-line.text": translated}, unfuzzy=("ex-strategy-hold-line.text",))
    assert merge(game, po).changed == 1
    entry = json.loads(overlay(game).read_text(encoding="utf-8"))["cards"][0]
    assert entry["text"] == translated and entry["from"]["text"] == source_digest(new_text)


def test_a_file_exported_before_the_source_changed_merges_as_stale(game):
    po = export(game, "ja.po")
    edit_po(po, {"ex-strategy-hold-line.title": "守りの陣"})
    fate = game / "cards" / "l5r" / "fate.json"
    fate.write_text(fate.read_text(encoding="utf-8").replace('"Hold the Line"', '"Hold the Pass"'), encoding="utf-8")
    result = merge(game, po)
    assert [p.code for p in result.problems] == ["translation-stale"]
    entry = json.loads(overlay(game).read_text(encoding="utf-8"))["cards"][0]
    assert entry["title"] == "守りの陣" and entry["from"]["title"] == source_digest("Hold the Line")


def test_xlsx_round_trip(game):
    before = snapshot(game)
    book = export(game, "ja.xlsx")
    sheet = openpyxl.load_workbook(book)["l5r"]
    assert [c.value for c in sheet[1]] == ["id", "card", "field", "note", "en", "ja", "stale"]
    assert merge(game, book).files == {} and snapshot(game) == before
    rows = {(r[0].value, r[2].value): r for r in sheet.iter_rows(min_row=2)}
    rows[("ex-strategy-hold-line", "title")][5].value = "守りの陣"
    rows[("ex-follower-ashigaru", "text")][5].value = "**足軽**"
    workbook = sheet.parent
    workbook.save(book)
    result = merge(game, book)
    assert result.problems == [] and result.changed == 2
    cards = json.loads(overlay(game).read_text(encoding="utf-8"))["cards"]
    assert cards[0]["title"] == "守りの陣"
    assert cards[1]["id"] == "ex-follower-ashigaru" and cards[1]["text"] == "**足軽**"


def test_xlsx_marks_a_stale_translation(game):
    fate = game / "cards" / "l5r" / "fate.json"
    fate.write_text(fate.read_text(encoding="utf-8").replace('"Hold the Line"', '"Hold the Pass"'), encoding="utf-8")
    sheet = openpyxl.load_workbook(export(game, "ja.xlsx"))["l5r"]
    marks = {(r[0].value, r[2].value): r[6].value for r in sheet.iter_rows(min_row=2)}
    assert marks[("ex-strategy-hold-line", "title")] == "stale"
    assert marks[("ex-strategy-hold-line", "text")] is None


def po_line(po: Path, context: str, keyword: str = "msgstr") -> int:
    lines = po.read_text(encoding="utf-8").split("\n")
    start = lines.index(f'msgctxt "{context}"')
    return next(i for i in range(start, len(lines)) if lines[i].startswith(keyword)) + 1


@pytest.mark.parametrize(
    ("translation", "code", "said"),
    [
        ("**戦闘：** 支払う：兵力+2を得る。", "translation-icon", "the icon {gold} of the source is missing"),
        ("**戦闘：** {gold}{bow}を支払う。", "translation-icon", "has the icon {bow}, which the source does not"),
        ("**戦闘： {gold}を支払う。", "translation-markdown", "unbalanced Markdown emphasis"),
        ("**戦闘：** `{gold}を支払う。", "translation-markdown", "unbalanced backticks"),
    ],
)
def test_markup_problems_are_located_and_nothing_is_written(game, run, translation, code, said):
    po = export(game, "ja.po")
    edit_po(po, {"ex-strategy-hold-line.text": translation, "ex-strategy-hold-line.title": "守りの陣"})
    before = snapshot(game)
    result = run("--project", game, "import", "translations", po)
    assert result.code == 1
    assert f"{po}:{po_line(po, 'ex-strategy-hold-line.text')}: error: " in result.err
    assert said in result.err and "nothing written" in result.err
    assert snapshot(game) == before
    assert [p.code for p in merge(game, po).problems] == [code]


def test_escaped_asterisks_are_not_broken_markdown(game):
    po = export(game, "ja.po")
    edit_po(po, {"ex-strategy-hold-line.text": "**戦闘：** {gold}を支払う \\* 注"})
    assert merge(game, po).problems == []


def test_an_unknown_card_id_names_the_closest(game, run):
    po = export(game, "ja.po")
    text = po.read_text(encoding="utf-8").replace(
        'msgctxt "ex-follower-ashigaru.title"', 'msgctxt "ex-follower-ashigaro.title"'
    )
    po.write_text(
        text.replace('msgid "Harbour Ashigaru"\nmsgstr ""', 'msgid "Harbour Ashigaru"\nmsgstr "足軽"'), encoding="utf-8"
    )
    before = snapshot(game)
    result = run("--project", game, "import", "translations", po)
    line = po_line(po, "ex-follower-ashigaro.title", "msgctxt")
    assert result.code == 1
    assert f"{po}:{line}: error: unknown card id 'ex-follower-ashigaro' in l5r" in result.err
    assert "ex-follower-ashigaru" in result.err  # the hint
    assert snapshot(game) == before


def test_xlsx_problems_are_located_at_their_cell(game):
    book = export(game, "ja.xlsx")
    workbook = openpyxl.load_workbook(book)
    sheet = workbook["l5r"]
    sheet["F3"] = "戦闘 {bow}"  # row 3: the text of ex-strategy-hold-line
    sheet["A4"] = "no-such-card"
    sheet["F4"] = "x"
    workbook.save(book)
    problems = merge(game, book).problems
    assert {(p.where, p.code) for p in problems} == {
        (f"{book}:l5r!F3", "translation-icon"),
        (f"{book}:l5r!A4", "unknown-id"),
    }


def test_cli_round_trip_and_usage_errors(game, run):
    po = game / "ja.po"
    result = run("--project", game, "export", "translations", "l5r", "--lang", "ja", "--to", po)
    assert (
        result.code == 0 and "entries of l5r in ja written to" in result.out and "2 translated (0 stale)" in result.out
    )
    result = run("--project", game, "import", "translations", po, "--dry-run")
    assert result.code == 0 and "would change 0 fields in 0 files, 2 unchanged" in result.out
    assert run("--project", game, "export", "translations", "l5r", "--lang", "en", "--to", po).code == 2
    assert run("--project", game, "export", "translations", "l5r", "--lang", "fr", "--to", po).code == 2
    assert run("--project", game, "export", "translations", "l5r", "--lang", "ja", "--to", game / "ja.txt").code == 2


def test_dry_run_writes_nothing(game):
    po = export(game, "ja.po")
    edit_po(po, {"ex-strategy-hold-line.title": "守りの陣"})
    before = snapshot(game)
    result = merge(game, po, dry_run=True)
    assert result.files == {overlay(game): ("changed", 1)} and snapshot(game) == before


def test_a_file_that_is_not_po_is_a_located_problem(game, run):
    po = game / "bad.po"
    po.write_text('msgid "a"\nmsgstr "b"\nnonsense here\n', encoding="utf-8")
    result = run("--project", game, "import", "translations", po)
    assert result.code == 1 and f"{po}:3:1: error: not a PO file" in result.err and "Traceback" not in result.err


@pytest.mark.parametrize(
    ("msgstr", "column", "message"),
    [
        ('"守りの陣', 8, "the string has no closing quote"),  # Babel read it as 守りの, dropping a character
        ("守りの陣", 8, "not a PO file"),  # Babel read it as no translation
        ('"守りの陣\\q"', 13, "unknown escape \\q"),  # Babel kept the backslash and the q
        ('"守り" "の陣"', 12, "text after the closing quote"),  # Babel read it as 守り" "の陣
    ],
)
def test_a_po_string_babel_would_misread_is_a_located_problem_and_nothing_is_written(game, msgstr, column, message):
    po = export(game, "ja.po")
    lines = po.read_text(encoding="utf-8").split("\n")
    number = lines.index('msgctxt "ex-strategy-hold-line.title"') + 3  # msgctxt, msgid, then msgstr
    assert lines[number - 1].startswith("msgstr ")
    lines[number - 1] = f"msgstr {msgstr}"
    po.write_text("\n".join(lines), encoding="utf-8")
    before = snapshot(game)
    problems = merge(game, po).problems
    assert len(problems) == 1 and str(problems[0].where) == f"{po}:{number}:{column}", [str(p) for p in problems]
    assert problems[0].message.startswith(message)
    assert snapshot(game) == before


@pytest.mark.parametrize(
    ("game_id", "lang"),
    [("l5r", "ja"), ("res-arcana", "ja"), ("via-magica", "ja"), ("arcanductor", "en"), ("edelweiss", "en")],
)
@pytest.mark.parametrize("suffix", [".po", ".xlsx"])
def test_the_examples_translations_go_out_and_back_unchanged(tmp_path, game_id, lang, suffix):
    for name in ("printer.toml",):
        shutil.copy(REPO / name, tmp_path / name)
    for folder in ("cards", "schema", "templates", "rules"):
        shutil.copytree(REPO / folder, tmp_path / folder)
    before = snapshot(tmp_path)
    out = tmp_path / f"{lang}{suffix}"
    exported = api.export_translations(load_project(tmp_path), game_id, lang, out)
    assert exported.problems == [] and exported.entries == exported.translated > 0 and exported.stale == 0
    result = merge(tmp_path, out)
    assert result.problems == [] and result.files == {} and result.unchanged == exported.entries
    assert snapshot(tmp_path) == before


def test_entries_and_size_are_bounded(game, monkeypatch):
    po = export(game, "ja.po")
    project = load_project(game)
    project.limits = Limits(translation_entries=5)
    problems = api.import_translations(project, po).problems
    assert [p.code for p in problems] == ["limit"] and "limits.translation_entries" in problems[0].message
    book = export(game, "ja.xlsx")
    problems = api.import_translations(project, book).problems
    assert [p.code for p in problems] == ["limit"] and problems[0].where == str(book)
    monkeypatch.setattr("printer.cards.translations_io.MAX_FILE_BYTES", 100)
    problems = merge(game, po).problems
    assert [p.code for p in problems] == ["too-large"]


def test_msgfmt_accepts_the_po_file(game):
    msgfmt = shutil.which("msgfmt")
    if msgfmt is None:
        pytest.skip("gettext's msgfmt is not installed")
    import subprocess

    po = export(game, "ja.po")
    done = subprocess.run([msgfmt, "--check", "-o", "/dev/null", str(po)], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr


def test_translations_kept_in_a_spreadsheet_are_not_overwritten(tmp_path):
    (tmp_path / "printer.toml").write_text(TOML, encoding="utf-8")
    folder = tmp_path / "cards" / "l5r"
    folder.mkdir(parents=True)
    digests = f"title={source_digest('Hold the Line')} text={source_digest('Bow.')}"
    rows = [
        ["id", "title", "type", "deck", "focus", "text", "title@ja", "text@ja", "from@ja"],
        ["hold", "Hold the Line", "Strategy", "Fate", "3", "Bow.", "戦線維持", "屈服せよ。", digests],
        ["storm", "Storm", "Event", "Dynasty", "", "Rain falls.", "", "", ""],
    ]
    (folder / "fate.csv").write_text("\n".join(",".join(row) for row in rows) + "\n", encoding="utf-8")
    po = export(tmp_path, "ja.po")
    edit_po(po, {"hold.title": "踏みとどまれ", "storm.title": "嵐"})
    before = snapshot(tmp_path)
    problems = merge(tmp_path, po).problems
    assert [p.code for p in problems] == ["translation-file"] and "fate.csv" in problems[0].message
    assert problems[0].where == f"{po}:{po_line(po, 'hold.title', 'msgctxt')}"
    assert snapshot(tmp_path) == before
    edit_po(po, {"hold.title": "戦線維持"})  # as it is in the sheet: only the new one is merged, into an overlay
    result = merge(tmp_path, po)
    assert result.problems == [] and result.files == {folder / "ja" / "fate.json": ("new", 1)}
    report = api.validate(load_project(tmp_path))
    assert [p for p in report.problems if p.is_error] == []


def test_strict_makes_a_warning_stop_the_import(game, run):
    po = export(game, "ja.po")
    edit_po(po, {"ex-strategy-hold-line.title": "守りの陣"})
    fate = game / "cards" / "l5r" / "fate.json"
    fate.write_text(fate.read_text(encoding="utf-8").replace('"Hold the Line"', '"Hold the Pass"'), encoding="utf-8")
    before = snapshot(game)
    result = run("--project", game, "import", "translations", po, "--strict")
    assert result.code == 1 and "changed since the file was exported" in result.err and snapshot(game) == before
    assert run("--project", game, "import", "translations", po).code == 0 and snapshot(game) != before


def test_a_file_that_does_not_name_its_game_needs_game(game, run):
    po = export(game, "ja.po")
    po.write_text(po.read_text(encoding="utf-8").replace("l5r translations", "my-project 1.0"), encoding="utf-8")
    result = run("--project", game, "import", "translations", po)
    assert result.code == 2 and "does not say which game" in result.err and "--game" in result.err
    assert run("--project", game, "import", "translations", po, "--game", "l5r").code == 0


def test_many_unknown_ids_get_the_closest_id_for_the_first_hundred_only(game):
    po = export(game, "ja.po")
    lines = ['msgid ""', 'msgstr ""', '"Project-Id-Version: l5r translations\\n"', '"Language: ja\\n"', ""]
    for i in range(150):
        lines += [f'msgctxt "ex-follower-ashigar{i}.title"', 'msgid "Harbour Ashigaru"', 'msgstr "足軽"', ""]
    po.write_text("\n".join(lines), encoding="utf-8")
    problems = merge(game, po).problems
    assert len(problems) == 150 and {p.code for p in problems} == {"unknown-id"}
    assert sum("ex-follower-ashigaru" in (p.hint or "") for p in problems) == 100


def test_an_icon_said_twice_is_a_warning_and_a_translation_already_there_is_not_checked(game):
    po = export(game, "ja.po")
    edit_po(po, {"ex-strategy-hold-line.text": "**戦闘：** {gold}を支払い、もう一度{gold}を支払う。"})
    result = merge(game, po)
    assert [(p.code, p.severity) for p in result.problems] == [("translation-icon-count", "warning")]
    assert "{gold} is once in the source and twice in the ja translation" in result.problems[0].message
    assert result.changed == 1
    overlay(game).write_text(overlay(game).read_text(encoding="utf-8").replace("{gold}を支払い", "{bow}"), "utf-8")
    po = export(game, "ja.po")  # the overlay now holds an icon the source has not: the import leaves it be
    assert merge(game, po).problems == []


@pytest.mark.parametrize(
    ("column", "value", "said"), [("stale", "maybe", "stale is 'maybe'"), ("field", "titel", "did you mean 'title'?")]
)
def test_a_workbooks_stale_and_field_cells_are_checked_where_they_are(game, column, value, said):
    import openpyxl

    book_path = export(game, "ja.xlsx")
    book = openpyxl.load_workbook(book_path)
    sheet = book.worksheets[0]
    col = [c.value for c in sheet[1]].index(column) + 1
    sheet.cell(row=3, column=col, value=value)
    book.save(book_path)
    before = snapshot(game)
    problems = [p for p in merge(game, book_path).problems if p.is_error]
    assert len(problems) == 1 and str(problems[0].where).endswith(f"!{openpyxl.utils.get_column_letter(col)}3")
    assert said in problems[0].message + " " + str(problems[0].hint), str(problems[0])
    assert snapshot(game) == before
