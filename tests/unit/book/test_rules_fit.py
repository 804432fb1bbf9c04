"""Cards embedded in a rules book fit their text as on card sheets (printer.sheets.fit), read back from the book's PDF."""

from __future__ import annotations

import json
from pathlib import Path

import pdfplumber
import pytest

MM = 72 / 25.4
CARD_HTML = """<div class="card">
  <div class="title">{{ card.title }}</div>
  <ol class="text-box" data-fit="text" data-fit-min="4pt">{% for line in card.get('lines', []) %}<li>{{ line|markup('lines[%d]'|format(loop.index0)) }}</li>{% endfor %}</ol>
</div>
"""
CSS = """
.card { position: absolute; inset: 0; background: rgb(200, 0, 0); font: 8pt "DejaVu Sans", sans-serif; color: #fff; line-height: 1.2; }
.title { position: absolute; left: 3mm; top: 3mm; font-size: 9pt; }
.text-box { position: absolute; left: 3mm; right: 3mm; top: 20mm; height: 30mm; margin: 0; padding: 0; list-style: none; overflow: hidden; }
.text-box li { margin: 0; }
"""
LINE = "Warriors hold the line while the tide turns and the gate holds."
SCHEMA = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "$id": "https://printer.invalid/schema/t/card.schema.json",
    "allOf": [{"$ref": "../card.schema.json"}],
    "properties": {"lines": {"type": "array", "items": {"type": "string"}}},
    "unevaluatedProperties": False,
}


def write_project(root: Path, cards: list[dict], lang: str = "en") -> Path:
    (root / "printer.toml").write_text(
        '[project]\npaper = "A4"\n[games.t]\nname = "Test"\ncard_size = "poker"\n', encoding="utf-8"
    )
    (root / "templates" / "t").mkdir(parents=True)
    (root / "templates" / "t" / "card.html.j2").write_text(CARD_HTML, encoding="utf-8")
    (root / "templates" / "t" / "back.html.j2").write_text('<div class="card"></div>', encoding="utf-8")
    (root / "templates" / "t" / "card.css").write_text(CSS, encoding="utf-8")
    (root / "schema" / "t").mkdir(parents=True)
    (root / "schema" / "t" / "card.schema.json").write_text(json.dumps(SCHEMA), encoding="utf-8")
    (root / "cards" / "t").mkdir(parents=True)
    (root / "cards" / "t" / "cards.json").write_text(json.dumps({"game": "t", "cards": cards}), encoding="utf-8")
    (root / "rules" / "t").mkdir(parents=True)
    (root / "rules" / "t" / "rules.toml").write_text(f'title = "Test rules"\nlang = "{lang}"\n', encoding="utf-8")
    ids = " ".join(c["id"] for c in cards)
    (root / "rules" / "t" / "01-cards.md").write_text(
        f"# Cards\n\nThe cards.\n\n```printer card {ids}\n```\n", encoding="utf-8"
    )
    return root


def card_boxes(page) -> list[tuple[float, float]]:
    """Top-left (mm) of each 63 x 88 mm red card background."""
    return sorted(
        {
            (round(r["x0"] / MM, 2), round(r["top"] / MM, 2))
            for r in page.rects
            if abs(r["width"] / MM - 63) < 0.1
            and abs(r["height"] / MM - 88) < 0.1
            and tuple(round(c, 3) for c in (r.get("non_stroking_color") or ())) == (0.784, 0.0, 0.0)
        }
    )


@pytest.fixture(scope="module")
def book(tmp_path_factory):
    from printer.cli import main

    root = write_project(
        tmp_path_factory.mktemp("rules-fit"),
        [
            {
                "id": "long",
                "title": "Long",
                "type": "A",
                "lines": [f"{i}. {LINE}" for i in range(1, 7)] + ["LASTWORD."],
            },
            {"id": "short", "title": "Short", "type": "A", "lines": ["Only one line."]},
        ],
    )
    try:
        main(["--project", str(root), "rules", "t", "--out", str(root / "out")])
    except SystemExit as exc:
        assert exc.code == 0
    return root / "out" / "t-rules.pdf"


def text_in(page, box: tuple[float, float]) -> list[dict]:
    x, y = box
    return [
        c for c in page.chars if c["text"].strip() and x <= c["x0"] / MM <= x + 63 and y + 19 <= c["top"] / MM <= y + 88
    ]


@pytest.mark.slow
def test_an_embedded_card_with_too_much_text_shrinks_it_into_its_box(book):
    with pdfplumber.open(book) as doc:
        page = next(p for p in doc.pages if card_boxes(p))
        boxes = card_boxes(page)
        long_box = min(boxes, key=lambda b: (b[1], b[0]))  # the first card of the block
        chars = text_in(page, long_box)
        words = "".join(c["text"] for c in chars)
    assert len(boxes) == 2
    top, bottom = long_box[1] + 20, long_box[1] + 50  # the template's 30 mm box
    assert "LASTWORD." in words  # the last line is there...
    assert all(top - 0.2 <= c["top"] / MM and c["bottom"] / MM <= bottom + 0.2 for c in chars)  # ...inside the box
    assert max(c["size"] for c in chars) < 8 - 0.1  # shrunk from 8pt
    assert min(c["size"] for c in chars) >= 4 - 0.01  # not under the template's minimum


def test_an_embedded_card_whose_text_fits_keeps_its_size(book):
    with pdfplumber.open(book) as doc:
        page = next(p for p in doc.pages if card_boxes(p))
        short_box = max(card_boxes(page), key=lambda b: (b[1], b[0]))
        chars = text_in(page, short_box)
    assert chars and all(abs(c["size"] - 8) < 0.05 for c in chars)


@pytest.mark.slow
def test_an_embedded_card_that_cannot_fit_is_reported(tmp_path, run):
    root = write_project(tmp_path, [{"id": "huge", "title": "Huge", "type": "A", "lines": [LINE] * 80}])
    result = run("--project", root, "rules", "t", "--out", root / "out")
    assert result.code == 0
    assert (
        f"{root / 'cards' / 't' / 'cards.json'}::$.cards[0]: warning: Huge: the text does not fit its box even at 4pt"
        in result.err
    )


@pytest.mark.slow
def test_the_japanese_turn_sequence_card_shows_every_phase_in_the_rules(repo, run, tmp_path):
    """rules/edelweiss/ja/02-turn.md embeds turn-sequence (Japanese, the source): its last phase (ブレイク) prints inside
    the steps box."""
    result = run("--project", repo, "rules", "edelweiss", "--edition", "ja", "--out", tmp_path)
    assert result.code == 0, result.err
    with pdfplumber.open(tmp_path / "edelweiss-rules-ja.pdf") as doc:
        for page in doc.pages:
            words = page.extract_words()
            heads = [w for w in words if w["text"].startswith("ターンシークエンス")]
            if heads and any("勝利" in w["text"] for w in words):
                break
        else:
            pytest.fail("no page with the embedded turn-sequence card")
        head = heads[0]
        foot = min((w for w in words if "勝利" in w["text"] and w["top"] > head["top"]), key=lambda w: w["top"])
        inside = [w for w in words if head["top"] < w["top"] < foot["top"] and abs(w["x0"] - head["x0"]) < 60 * MM]
        text = "".join(w["text"] for w in inside)
    assert "ブレイク" in text and "追撃" in text  # the last two phases are printed...
    last = max(w["bottom"] for w in inside)
    assert last <= foot["top"]  # ...above the foot band, not clipped under it
