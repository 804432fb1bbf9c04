"""The Japanese builds of the L5R, Res Arcana and Via Magica examples (printer build GAME --lang ja), read from the PDF:
the translated text and the templates' own words in Japanese, set in a Japanese font, and no line of Japanese text
that starts with a closing mark (kinsoku: 。、」） and the like never begin a line)."""

from pathlib import Path

import pdfplumber
import pytest
from helpers import MM, REPO

from printer.cli import main

pytestmark = pytest.mark.slow

GAMES = ("l5r", "res-arcana", "via-magica")
#: marks that may not begin a line of Japanese text (JIS X 4051 line-start prohibitions, the common ones)
NO_LINE_START = set("。、，．」』）〕】・：；？！ーぁぃぅぇぉっゃゅょァィゥェォッャュョ")
#: what each Japanese build must print (translations and the templates' words) and must not (the English words)
EXPECTED = {
    "l5r": (
        ["石垣鉄也", "潮のサヨ", "家臣", "要求", "個人", "領地", "王朝", "命運", "名誉点", "皇帝の寵愛"],
        ["PERSONALITY", "DYNASTY"],
    ),
    "res-arcana": (
        ["灰の予見者", "アーティファクト", "メイジ", "レス・アルカナ", "スタートプレイヤー"],
        ["ARTIFACT", "MAGE"],
    ),
    "via-magica": (["静かな湖", "サマリー", "即時", "恒久", "ビア・マジカ"], ["immediate", "VIA MAGICA"]),
}


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> dict[str, list[Path]]:
    out = tmp_path_factory.mktemp("ja")
    pdfs = {}
    for game in GAMES:
        try:
            main(["--project", str(REPO), "build", game, "--lang", "ja", "--no-aids", "--out", str(out)])
        except SystemExit as exc:
            assert exc.code == 0
        pdfs[game] = sorted(out.glob(f"{game}-ja*.pdf"))
    return pdfs


def _japanese(ch: str) -> bool:
    return "\u3000" <= ch <= "\u9fff" or "\uff00" <= ch <= "\uffef"


@pytest.mark.parametrize("game", GAMES)
def test_the_japanese_build_prints_japanese(built, game):
    assert f"{game}-ja.pdf" in [p.name for p in built[game]]
    text = ""
    for pdf_path in built[game]:
        with pdfplumber.open(pdf_path) as pdf:
            text += "\n".join(page.extract_text() or "" for page in pdf.pages)
    wanted, unwanted = EXPECTED[game]
    spaced_out = text.replace(" ", "")  # letter-spaced words (the backs') come out with spaces
    assert [w for w in wanted if w not in spaced_out] == []
    assert [w for w in unwanted if w in text] == []


def _after_icon(char: dict, drawings: list[dict]) -> bool:
    """Whether an icon (a drawing) ends just left of ``char`` on its line: then ``char`` does not begin the line."""
    return any(
        char["x0"] - 2 * MM <= d["x1"] <= char["x0"] + 0.2 and d["top"] < char["bottom"] and d["bottom"] > char["top"]
        for d in drawings
        if d["width"] < 5 * MM and d["height"] < 5 * MM
    )


@pytest.mark.parametrize("game", GAMES)
def test_japanese_text_is_set_in_a_japanese_font_and_no_line_starts_with_a_closing_mark(built, game):
    starts = 0
    for pdf_path in built[game]:
        with pdfplumber.open(pdf_path) as pdf:
            for page in pdf.pages:
                chars = [c for c in page.chars if c["text"].strip()]
                drawings = page.curves + page.rects + page.images
                fonts = {c["fontname"].split("+")[-1] for c in chars if _japanese(c["text"])}
                assert all("CJK-JP" in f for f in fonts), fonts
                # lines: characters on one baseline, cut where a gap wider than 3 mm parts two cards
                rows: dict[float, list[dict]] = {}
                for c in chars:
                    rows.setdefault(round(c["bottom"] * 2) / 2, []).append(c)
                for row in rows.values():
                    row.sort(key=lambda c: c["x0"])
                    first = [row[0]] + [b for a, b in zip(row, row[1:], strict=False) if b["x0"] - a["x1"] > 3 * MM]
                    first = [c for c in first if not _after_icon(c, drawings)]
                    starts += len(first)
                    bad = [c["text"] for c in first if c["text"] in NO_LINE_START]
                    assert bad == [], (pdf_path.name, page.page_number, "".join(c["text"] for c in row))
    assert starts > 20
