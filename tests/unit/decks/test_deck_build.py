"""``printer build --deck``: double-faced cards print their other side behind them, and loosely matched names are
reported. Read back from the PDF."""

from __future__ import annotations

import json
from pathlib import Path

import pdfplumber
import pytest

MM = 72 / 25.4
CARD_HTML = '<div class="card"><div class="safe"><div class="title">{{ card.title }}</div></div></div>\n'
BACK_HTML = '<div class="card"><div class="safe"><div class="title">SHARED{{ back|upper }}</div></div></div>\n'
CSS = '.card { position: absolute; inset: 0; background: #fff; font: 9pt "DejaVu Sans", sans-serif; }\n'
CARDS = [
    {"id": "moon-day", "title": "Moonday", "type": "Land", "back_card": "moon-night"},
    {"id": "moon-night", "title": "Moonnight", "type": "Land"},
    {"id": "fall-back", "title": "Fall Back!", "type": "Order"},
    {"id": "plain", "title": "Plainfield", "type": "Land"},
]
DECK = "2 Moonday\n1 Fall Back\n1 Plainfield\n"


def write_project(root: Path) -> Path:
    (root / "printer.toml").write_text(
        '[project]\npaper = "A4"\n[games.t]\nname = "Test"\ncard_size = "poker"\n', encoding="utf-8"
    )
    (root / "templates" / "t").mkdir(parents=True)
    (root / "templates" / "t" / "card.html.j2").write_text(CARD_HTML, encoding="utf-8")
    (root / "templates" / "t" / "back.html.j2").write_text(BACK_HTML, encoding="utf-8")
    (root / "templates" / "t" / "card.css").write_text(CSS, encoding="utf-8")
    (root / "schema" / "t").mkdir(parents=True)
    (root / "schema" / "t" / "card.schema.json").write_text(
        json.dumps(
            {
                "$schema": "https://json-schema.org/draft/2020-12/schema",
                "$id": "https://printer.invalid/schema/t/card.schema.json",
                "allOf": [{"$ref": "../card.schema.json"}],
                "unevaluatedProperties": False,
            }
        ),
        encoding="utf-8",
    )
    (root / "cards" / "t").mkdir(parents=True)
    (root / "cards" / "t" / "cards.json").write_text(json.dumps({"game": "t", "cards": CARDS}), encoding="utf-8")
    (root / "my deck.txt").write_text(DECK, encoding="utf-8")
    return root


@pytest.fixture(scope="module")
def deck_build(tmp_path_factory):
    from printer.cli import main

    root = write_project(tmp_path_factory.mktemp("deck"))
    import contextlib
    import io

    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        try:
            main(
                ["--project", str(root), "build", "t", "--deck", str(root / "my deck.txt"), "--out", str(root / "out")]
            )
            code = 0
        except SystemExit as exc:
            code = exc.code
    return root, code, err.getvalue(), root / "out" / "t-my-deck.pdf"


def slots(page, word: str) -> list[tuple[int, int]]:
    """(column, row) of each card showing ``word`` on a centred 3x3 grid of 63 x 88 mm cards."""
    left, top = (page.width / MM - 3 * 63) / 2, (page.height / MM - 3 * 88) / 2
    return sorted(
        (int((w["x0"] / MM - left) // 63), int((w["top"] / MM - top) // 88))
        for w in page.extract_words()
        if w["text"] == word
    )


@pytest.mark.slow
def test_a_double_faced_card_prints_its_other_side_behind_it(deck_build):
    _, code, err, pdf = deck_build
    assert code == 0, err
    with pdfplumber.open(pdf) as doc:
        assert len(doc.pages) == 2
        front, back = doc.pages
        days, nights = slots(front, "Moonday"), slots(back, "Moonnight")
        shared = slots(back, "SHAREDDEFAULT")
        others = slots(front, "Fall") + slots(front, "Plainfield")
    assert days == [(0, 0), (1, 0)]
    # long-edge duplex: the back of column c lies in column 2 - c of the same row; it is the other side
    assert nights == sorted((2 - c, r) for c, r in days)
    assert shared == sorted((2 - c, r) for c, r in others)  # the others have the game's shared back


def test_a_loosely_matched_name_is_reported(deck_build):
    root, code, err, _ = deck_build
    assert f"{root / 'my deck.txt'}:2: warning: 'Fall Back' read as 'Fall Back!'" in err


def test_strict_makes_a_loose_name_an_error(tmp_path, run):
    root = write_project(tmp_path)
    result = run("--project", root, "build", "t", "--deck", root / "my deck.txt", "--out", root / "out", "--strict")
    assert result.code == 1
    assert "'Fall Back' read as 'Fall Back!'" in result.err
    assert not (root / "out" / "t-my-deck.pdf").exists()
