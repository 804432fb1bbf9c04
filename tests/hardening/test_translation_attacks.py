"""A translator's file from a stranger (``printer import translations`` of .po, .xlsx, .ods) and translation
overlays in a stranger's project cannot write outside the project, exhaust memory or end in a traceback.

- a language that is a path (``../../x``) is refused where it is declared (printer.toml's schema) and where it is
  named (``--lang``); an overlay folder ``cards/<game>/<lang>`` that links out of the project is never written;
- a workbook that unpacks to more than :data:`printer.cards.sheet_size.MAX_UNPACKED_BYTES` (a zip bomb), or one
  of whose parts says it is smaller than it is, is refused before python-calamine reads it: located, exit 1;
- a translation of a list field nested too deeply for JSON is a located error, not a ``RecursionError``.
"""

from __future__ import annotations

import json
import os
import re
import struct
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from printer.cards import sheet_size

TOML = '[games.t]\nname = "T"\ncard_size = "poker"\nlanguages = {langs}\ntranslatable = ["title", "traits"]\n'
CARD = {"id": "a", "title": "Ash", "type": "Unit", "traits": ["x", "y"]}
PO = (
    'msgid ""\nmsgstr ""\n"Language: ja\\n"\n"Content-Type: text/plain; charset=utf-8\\n"\n\n'
    'msgctxt "a.{field}"\nmsgid "{source}"\nmsgstr "{translation}"\n'
)


def _project(root: Path, langs: str = '["en", "ja"]') -> Path:
    (root / "cards" / "t").mkdir(parents=True)
    (root / "templates" / "t").mkdir(parents=True)
    (root / "schema" / "t").mkdir(parents=True)
    (root / "printer.toml").write_text(TOML.format(langs=langs), encoding="utf-8")
    (root / "templates" / "t" / "card.html.j2").write_text("<div>{{ card.title }}</div>\n", encoding="utf-8")
    schema = {"$id": "https://printer.invalid/schema/t/card.schema.json", "allOf": [{"$ref": "../card.schema.json"}]}
    (root / "schema" / "t" / "card.schema.json").write_text(json.dumps(schema), encoding="utf-8")
    (root / "cards" / "t" / "c.json").write_text(json.dumps({"game": "t", "cards": [CARD]}), encoding="utf-8")
    return root


def _po(path: Path, field: str, source: str, translation: str) -> Path:
    path.write_text(PO.format(field=field, source=source, translation=translation), encoding="utf-8")
    return path


def _clean(result) -> None:
    assert "Traceback" not in result.err and "RecursionError" not in result.err, result.err


# --- paths ------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("lang", ["../../x", "/tmp/x", "ja/../../../x", "ja\n"])
def test_a_language_that_is_a_path_is_refused_in_printer_toml(tmp_path, run, lang):
    root = _project(tmp_path / "p", json.dumps(["en", lang]))
    po = _po(tmp_path / "x.po", "title", "Ash", "灰")
    result = run("--project", root, "import", "translations", po, "--game", "t", "--lang", lang)
    _clean(result)
    assert result.code in (1, 2), result.err
    assert [p for p in tmp_path.rglob("*") if p.name == "c.json"] == [root / "cards" / "t" / "c.json"]


def test_a_lang_folder_linked_out_of_the_project_is_not_written(tmp_path, run):
    root = _project(tmp_path / "p")
    outside = tmp_path / "outside"
    outside.mkdir()
    (root / "cards" / "t" / "ja").symlink_to(outside)
    po = _po(tmp_path / "x.po", "title", "Ash", "灰")
    result = run("--project", root, "import", "translations", po, "--game", "t")
    _clean(result)
    assert result.code == 1 and "outside the project" in result.err
    assert list(outside.iterdir()) == []


def test_an_overlay_in_printers_bundled_files_is_not_written(tmp_path, run, monkeypatch):
    import printer.paths

    root = _project(tmp_path / "p")
    (root / "cards" / "t" / "ja").mkdir()
    monkeypatch.setattr(printer.paths, "bundled_folders", lambda: [root / "cards" / "t" / "ja"])
    po = _po(tmp_path / "x.po", "title", "Ash", "灰")
    result = run("--project", root, "import", "translations", po, "--game", "t")
    _clean(result)
    assert result.code == 1 and "bundled files" in result.err
    assert list((root / "cards" / "t" / "ja").iterdir()) == []


# --- sizes ------------------------------------------------------------------------------------------------------


def _workbook(path: Path, cell: bytes, lie: bool = False) -> Path:
    """A translations workbook whose one translation cell holds ``cell``; with ``lie`` its sheet's zip headers say
    it unpacks to 100 bytes."""
    from openpyxl import Workbook

    book = Workbook()
    sheet = book.active
    sheet.title = "t"
    sheet.append(["id", "field", "en", "ja"])
    sheet.append(["a", "title", "Ash", "MARK"])
    book.save(path.with_suffix(".base.xlsx"))
    with (
        zipfile.ZipFile(path.with_suffix(".base.xlsx")) as src,
        zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as out,
    ):
        for item in src.infolist():
            data = src.read(item.filename)
            if item.filename == "xl/worksheets/sheet1.xml":
                data = data.replace(b"MARK", cell)
            out.writestr(item.filename, data)
    if lie:
        raw = bytearray(path.read_bytes())
        name = b"xl/worksheets/sheet1.xml"
        for signature, offset, name_at in ((b"PK\x03\x04", 22, 30), (b"PK\x01\x02", 24, 46)):
            at = raw.index(signature)
            while raw[at + name_at : at + name_at + len(name)] != name:
                at = raw.index(signature, at + 4)
            struct.pack_into("<I", raw, at + offset, 100)
        path.write_bytes(bytes(raw))
    return path


def test_a_zip_bomb_workbook_is_refused_before_it_is_read(tmp_path, run, monkeypatch):
    monkeypatch.setattr(sheet_size, "MAX_UNPACKED_BYTES", 2_000_000)
    root = _project(tmp_path / "p")
    book = _workbook(tmp_path / "bomb.xlsx", b"x" * 3_000_000)
    assert book.stat().st_size < 50_000
    result = run("--project", root, "import", "translations", book, "--game", "t", "--lang", "ja")
    _clean(result)
    assert result.code == 1 and "unpacks to" in result.err and "bomb.xlsx" in result.err
    assert not (root / "cards" / "t" / "ja").exists()


def test_an_ods_zip_bomb_is_refused_before_it_is_read(tmp_path, run, monkeypatch):
    monkeypatch.setattr(sheet_size, "MAX_UNPACKED_BYTES", 2_000_000)
    root = _project(tmp_path / "p")
    book = tmp_path / "bomb.ods"
    with zipfile.ZipFile(book, "w", zipfile.ZIP_DEFLATED) as out:
        out.writestr("mimetype", "application/vnd.oasis.opendocument.spreadsheet")
        out.writestr("content.xml", "<office:document-content>" + " " * 3_000_000 + "</office:document-content>")
    result = run("--project", root, "import", "translations", book, "--game", "t", "--lang", "ja")
    _clean(result)
    assert result.code == 1 and "bomb.ods: error: the workbook unpacks to" in result.err


def test_a_workbook_part_larger_than_it_says_is_refused(tmp_path, run):
    root = _project(tmp_path / "p")
    book = _workbook(tmp_path / "liar.xlsx", b"y" * 300_000, lie=True)
    result = run("--project", root, "import", "translations", book, "--game", "t", "--lang", "ja")
    _clean(result)
    assert (
        result.code == 1 and "liar.xlsx: error: the workbook's part xl/worksheets/sheet1.xml unpacks to" in result.err
    )
    assert not (root / "cards" / "t" / "ja").exists()


def test_a_card_spreadsheet_zip_bomb_is_refused_too(tmp_path, run, monkeypatch):
    monkeypatch.setattr(sheet_size, "MAX_UNPACKED_BYTES", 2_000_000)
    root = _project(tmp_path / "p")
    _workbook(root / "cards" / "t" / "more.xlsx", b"x" * 3_000_000)
    result = run("--project", root, "validate")
    _clean(result)
    assert result.code == 1 and "unpacks to" in result.err and "more.xlsx" in result.err


def test_a_translation_nested_too_deeply_for_json_is_a_located_error(tmp_path, run):
    root = _project(tmp_path / "p")
    po = _po(tmp_path / "x.po", "traits", '[\\"x\\", \\"y\\"]', "[" * 100_000 + "]" * 100_000)
    result = run("--project", root, "import", "translations", po, "--game", "t")
    _clean(result)
    assert result.code == 1 and "x.po:" in result.err and "not JSON" in result.err
    assert not (root / "cards" / "t" / "ja").exists()


def test_a_msgstr_over_the_file_limit_is_refused_unread(tmp_path, run, monkeypatch):
    from printer.cards import translations_io

    monkeypatch.setattr(translations_io, "MAX_FILE_BYTES", 1_000_000)
    root = _project(tmp_path / "p")
    po = _po(tmp_path / "x.po", "title", "Ash", "灰" * 1_000_000)
    result = run("--project", root, "import", "translations", po, "--game", "t")
    _clean(result)
    assert result.code == 1 and "over the limit" in result.err


@pytest.mark.parametrize("indent", ["", "  ", "\t", "\r\n", "\u3000"])
def test_po_entries_are_counted_before_babel_parses_them_however_they_are_indented(tmp_path, run, monkeypatch, indent):
    import printer.cards.po

    def parsed(*args):
        raise AssertionError("Babel parsed a file over the limit")

    monkeypatch.setattr(printer.cards.po, "read_po_file", parsed)
    root = _project(tmp_path / "p")
    with (root / "printer.toml").open("a") as toml:
        toml.write("\n[limits]\ntranslation_entries = 10\n")
    body = "".join(f'\n{indent}msgctxt "a{n}.title"\n{indent}msgid "Ash"\n{indent}msgstr "x"\n' for n in range(20))
    po = tmp_path / "x.po"
    po.write_text('msgid ""\nmsgstr ""\n"Language: ja\\n"\n' + body, encoding="utf-8")
    result = run("--project", root, "import", "translations", po, "--game", "t")
    _clean(result)
    assert result.code == 1 and "limits.translation_entries" in result.err


# --- overlays in a stranger's project ------------------------------------------------------------------------


def _overlay(entries: list[dict]) -> str:
    return json.dumps({"game": "t", "lang": "ja", "cards": entries})


@pytest.mark.parametrize("linked", ["file", "folder"])
def test_an_overlay_linked_out_of_the_project_is_not_read(tmp_path, run, linked):
    root = _project(tmp_path / "p")
    secret = tmp_path / "secret"
    secret.mkdir()
    (secret / "s.json").write_text(_overlay([{"id": "a", "title": "SECRET-TITLE"}]), encoding="utf-8")
    if linked == "file":
        (root / "cards" / "t" / "ja").mkdir()
        (root / "cards" / "t" / "ja" / "s.json").symlink_to(secret / "s.json")
    else:
        (root / "cards" / "t" / "ja").symlink_to(secret)
    for args in (["validate"], ["export", "translations", "t", "--lang", "ja", "--to", tmp_path / "out.po"]):
        result = run("--project", root, *args)
        _clean(result)
        assert "SECRET-TITLE" not in result.out + result.err
        out = tmp_path / "out.po"
        assert not out.exists() or "SECRET-TITLE" not in out.read_text(encoding="utf-8")


@pytest.mark.parametrize(
    "value",
    ["[" * 100_000 + "]" * 100_000, '{"a": ' * 5_000 + "1" + "}" * 5_000, "NaN", "1e400", '"' + "x" * 2_000_000 + '"'],
)
def test_a_hostile_translation_value_in_an_overlay_is_a_located_error(tmp_path, run, value):
    root = _project(tmp_path / "p")
    (root / "cards" / "t" / "ja").mkdir()
    text = '{"game": "t", "lang": "ja", "cards": [{"id": "a", "traits": ' + value + "}]}"
    (root / "cards" / "t" / "ja" / "o.json").write_text(text, encoding="utf-8")
    result = run("--project", root, "validate")
    _clean(result)
    assert result.code == 1 and "cards/t/ja/o.json" in result.err, result.err


def test_a_translated_title_too_long_to_be_a_name_is_not_matched_nor_hinted(tmp_path, run):
    root = _project(tmp_path / "p")
    (root / "schema" / "t" / "formats").mkdir()
    open_format = {"id": "t-open", "game": "t", "name": "Open", "sections": [{"name": "Deck", "types": ["Unit"]}]}
    (root / "schema" / "t" / "formats" / "open.json").write_text(json.dumps(open_format), encoding="utf-8")
    (root / "cards" / "t" / "ja").mkdir()
    long_title = "ア" * 100_000
    (root / "cards" / "t" / "ja" / "o.json").write_text(_overlay([{"id": "a", "title": long_title}]), encoding="utf-8")
    deck = tmp_path / "deck.txt"
    deck.write_text(f"1 {'ア' * 50}\n1 {long_title}\n", encoding="utf-8")
    result = run("--project", root, "deck", "check", deck, "--format", "t-open")
    _clean(result)
    assert result.code == 1
    assert "deck.txt:2: error: unknown card" in result.out + result.err
    assert len(re.findall("ア{1001,}", result.out + result.err)) == 1  # the decklist's own line, in no hint


def test_a_schema_that_refers_to_itself_many_times_exports_quickly(tmp_path):
    root = _project(tmp_path / "p")
    loop = [{"$ref": "#/$defs/x"}] * 8
    schema = {
        "$id": "https://printer.invalid/schema/t/card.schema.json",
        "allOf": [{"$ref": "../card.schema.json"}, *loop],
        "$defs": {"x": {"allOf": [*loop, {"$ref": "../card.schema.json"}]}},
        "properties": {"title": {"description": "The card's name."}},
    }
    (root / "schema" / "t" / "card.schema.json").write_text(json.dumps(schema), encoding="utf-8")
    repo = Path(__file__).resolve().parents[2]
    done = subprocess.run(
        [sys.executable, "-m", "printer", "--project", str(root), "export", "translations", "t", "--lang", "ja"]
        + ["--to", str(tmp_path / "ja.po")],
        capture_output=True,
        timeout=60,  # 8**20 walks of the schema before: this never ended
        env={**os.environ, "PYTHONPATH": str(repo)},
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "#. title: The card's name." in (tmp_path / "ja.po").read_text(encoding="utf-8")
