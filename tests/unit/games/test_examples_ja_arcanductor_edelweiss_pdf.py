"""The Japanese builds of ARCANDUCTOR and Arcana Fight! Edelweiss (printer build GAME, Japanese being their source),
read from the PDF: Japanese text set in a Japanese font, and no line of it that starts with a closing mark or a small
kana (kinsoku). ARCANDUCTOR's reversed halves are turned a half turn: their lines are read from the right."""

from pathlib import Path

import pdfplumber
import pytest
from helpers import MM, REPO

from printer.cli import main

pytestmark = pytest.mark.slow

GAMES = ("arcanductor", "edelweiss")
#: marks that may not begin a line of Japanese text (JIS X 4051 line-start prohibitions, the common ones)
NO_LINE_START = set("。、，．」』）〕】・：；？！ーぁぃぅぇぉっゃゅょァィゥェォッャュョ")


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> dict[str, list[Path]]:
    out = tmp_path_factory.mktemp("ja")
    for game in GAMES:
        try:
            main(["--project", str(REPO), "build", game, "--lang", "ja", "--out", str(out)])
        except SystemExit as exc:
            assert exc.code == 0
    return {game: sorted(out.glob(f"{game}-ja*.pdf")) for game in GAMES}


def _japanese(ch: str) -> bool:
    return "\u3000" <= ch <= "\u9fff" or "\uff00" <= ch <= "\uffef"


def _turned(char: dict) -> bool:
    return char["matrix"][0] < 0


def _after_icon(char: dict, drawings: list[dict]) -> bool:
    """Whether an icon (a small drawing) sits just before ``char`` on its line, in reading order."""
    if _turned(char):
        near = lambda d: char["x1"] - 0.2 <= d["x0"] <= char["x1"] + 2 * MM  # noqa: E731
    else:
        near = lambda d: char["x0"] - 2 * MM <= d["x1"] <= char["x0"] + 0.2  # noqa: E731
    return any(
        near(d) and d["top"] < char["bottom"] and d["bottom"] > char["top"]
        for d in drawings
        if d["width"] < 5 * MM and d["height"] < 5 * MM
    )


@pytest.mark.parametrize("game", GAMES)
def test_japanese_text_is_set_in_a_japanese_font_and_no_line_starts_with_a_closing_mark(built, game):
    starts = 0
    assert f"{game}-ja.pdf" in [p.name for p in built[game]]
    for pdf_path in built[game]:
        with pdfplumber.open(pdf_path) as pdf:
            for page in pdf.pages:
                chars = [c for c in page.chars if c["text"].strip()]
                drawings = page.curves + page.rects + page.images
                fonts = {c["fontname"].split("+")[-1] for c in chars if _japanese(c["text"])}
                assert all("CJK-JP" in f for f in fonts), fonts
                # lines: characters on one baseline and way up, cut where a gap wider than 3 mm parts two cards
                rows: dict[tuple[float, bool], list[dict]] = {}
                for c in chars:
                    turned = _turned(c)
                    rows.setdefault((round((c["top"] if turned else c["bottom"]) * 2) / 2, turned), []).append(c)
                for (_, turned), row in rows.items():
                    row.sort(key=lambda c: -c["x1"] if turned else c["x0"])
                    gap = (lambda a, b: a["x0"] - b["x1"]) if turned else (lambda a, b: b["x0"] - a["x1"])
                    first = [row[0]] + [b for a, b in zip(row, row[1:], strict=False) if gap(a, b) > 3 * MM]
                    first = [c for c in first if _japanese(c["text"]) and not _after_icon(c, drawings)]
                    starts += len(first)
                    bad = [c["text"] for c in first if c["text"] in NO_LINE_START]
                    assert bad == [], (pdf_path.name, page.page_number, "".join(c["text"] for c in row))
    assert starts > 10, starts
