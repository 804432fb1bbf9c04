"""printer's own printed words per language (printer.sheets.words): the sheet labels, the tuck box's back panel and
a reprint's changelog page in Japanese for a build in Japanese, in English (as always) for any other build."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from printer import api
from printer.sheets.changelog import changelog_html
from printer.sheets.changes import CardChange
from printer.sheets.words import WORDS, box_details, words, words_lang
from tests.unit.api.lang_project import make_project


def _text(pdf: Path) -> str:
    return subprocess.run(["pdftotext", str(pdf), "-"], capture_output=True, text=True, check=True).stdout


def _build(root: Path, out: str, **options) -> api.BuildResult:
    request = api.BuildRequest(out_dir=root / out, jobs=1, games=("t",), cache=False, **options)
    result = api.build(api.load_project(root), request)
    assert result.ok, result.problems
    return result


def test_every_language_has_the_english_words_and_others_fall_back_to_english():
    assert set(WORDS["ja"]) == set(WORDS["en"])
    assert words_lang(None) is None and words_lang("en") is None and words_lang("fr") is None
    assert words_lang("ja") == "ja" and words_lang("ja-JP") == "ja"
    assert words("fr") == WORDS["en"] and words(None) == WORDS["en"] and words("ja")["front"] == "表"


def test_the_box_line_in_english_is_as_before_and_in_japanese_counts_cards_in_japanese():
    assert box_details(None, 14, 12.0, (63, 88)) == "14 cards · 63 x 88 mm"
    assert box_details("en", None, 12.5, (63, 88)) == "12.5 mm of cards · 63 x 88 mm"
    assert box_details("ja", 14, 12.0, (63, 88)) == "カード14枚 · 63 x 88 mm"


def test_the_changelog_in_english_has_no_lang_and_in_japanese_its_root_is_japanese():
    changes = [CardChange("c1", "Hold", "changed", sides=["front"])]
    removed = [CardChange("c9", "Gone", "removed")]
    english = changelog_html("T", "v1", changes, removed, ("1", "2"), "2026-01-01", (210, 297))
    assert "<html><head>" in english and "<th>card</th><th>what changed</th>" in english
    assert "<h2>Take out</h2>" in english and ">changed</span>" in english and "version 1 → 2" in english
    assert "1 card to cut and put in place of the old ones." in english and "no longer in the set" in english
    assert changelog_html("T", "v1", changes, removed, ("1", "2"), "2026-01-01", (210, 297), "fr") == english
    japanese = changelog_html("T", "v1", changes, removed, ("1", "2"), "2026-01-01", (210, 297), "ja")
    assert '<html lang="ja">' in japanese and "<th>カード</th><th>変更点</th>" in japanese
    assert "<h2>取り除くカード</h2>" in japanese and ">変更</span>" in japanese and "what changed" not in japanese


@pytest.mark.slow
def test_a_japanese_build_prints_its_sheet_labels_box_and_changelog_in_japanese(tmp_path):
    root = make_project(tmp_path / "p")
    _build(root, "out", lang="ja")
    sheets = _text(root / "out" / "t-ja.pdf")
    assert "T · シート1 · 表" in sheets and "T · シート1 · 裏" in sheets and "sheet 1" not in sheets
    cards = json.loads((root / "cards" / "t" / "cards.json").read_text(encoding="utf-8"))
    cards["cards"][2]["text"] = "Draw two cards."
    (root / "cards" / "t" / "cards.json").write_text(json.dumps(cards), encoding="utf-8")
    _build(root, "re", lang="ja", since=str(root / "out" / "t-ja.manifest.json"))
    changelog = _text(root / "re" / "t-ja-reprint.pdf")
    assert "T: 刷り直し" in changelog and "カード\n" in changelog and "変更点" in changelog
    assert "切り出して古いカードと差し替えるカード：1枚" in changelog and "what changed" not in changelog
    box = api.build_box(api.load_project(root), "t", out_dir=root / "out", lang="ja")
    assert box.target is not None and "T · カード3枚 · 63 x 88 mm" in _text(box.target)


@pytest.mark.slow
def test_an_english_build_prints_printer_words_in_english_as_before(tmp_path):
    root = make_project(tmp_path / "p")
    _build(root, "out")
    _build(root, "out", lang="en")
    for name in ("t.pdf", "t-en.pdf"):
        text = _text(root / "out" / name)
        assert "T · sheet 1 · front" in text and "T · sheet 1 · back" in text and "シート" not in text
    box = api.build_box(api.load_project(root), "t", out_dir=root / "out")
    assert box.target is not None and "T · 3 cards · 63 x 88 mm" in _text(box.target)


def test_a_board_page_caption_in_english_is_as_before_and_in_japanese_in_japanese():
    from printer.sheets.words import board_caption

    assert board_caption("Mat", 1, 2, 2, 3) == "Mat · page 1-2 (row-column) of 2 x 3"
    assert board_caption("Mat", 1, 2, 2, 3, lang="ja") == "Mat · 2 x 3ページ中1-2（行-列）"


@pytest.mark.slow
def test_a_japanese_build_captions_a_board_s_pages_in_japanese(tmp_path):
    from tests.unit.sheets.test_components import COMPONENTS
    from tests.unit.sheets.test_components import make_project as make_components

    root = make_components(tmp_path / "p", 'languages = ["en", "ja"]\n' + COMPONENTS)
    _build(root, "out", lang="ja")
    text = _text(root / "out" / "t-ja-components.pdf").replace(" ", "")
    assert "Mat·1x3ページ中1-2（行-列）" in text and "row-column" not in text
