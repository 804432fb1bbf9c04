"""Right-to-left paragraphs and emoji: Arabic or Hebrew text split by markup runs right to left; emoji print."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from printer.book.markdown import rules_markdown
from printer.cards.markup import text_direction, to_html

ARABIC = "مرحبا **بالعالم** هنا."
HEBREW = "שלום **עולם** זה"


def test_direction_comes_from_the_first_strong_character() -> None:
    assert text_direction(ARABIC) == "rtl" and text_direction(HEBREW) == "rtl"
    assert text_direction("Gain 2 gold. مرحبا") == "ltr"
    assert text_direction("123 !") is None


def test_card_text_paragraphs_carry_their_direction() -> None:
    html = str(to_html(f"{ARABIC}\n\nPlain **English**."))
    assert html.startswith('<p dir="rtl">مرحبا <strong>بالعالم</strong>')
    assert "<p>Plain <strong>English</strong>.</p>" in html


def test_rules_paragraphs_and_headings_carry_their_direction() -> None:
    html = rules_markdown().render(f"# {HEBREW}\n\n{ARABIC}\n\nEnglish.\n")
    assert '<h1 dir="rtl">' in html and '<p dir="rtl">' in html and "<p>English.</p>" in html


@pytest.mark.slow
@pytest.mark.skipif(not shutil.which("pdffonts"), reason="poppler-utils not installed")
def test_emoji_and_rtl_text_print_on_a_card(project: Path, run) -> None:
    card = {"id": "r", "title": "Dragon 🐉", "type": "Strategy", "deck": "Fate", "focus": 1, "text": ARABIC + " 🔥"}
    (project / "cards" / "l5r" / "r.json").write_text(json.dumps({"game": "l5r", "cards": [card]}), encoding="utf-8")
    result = run("--project", project, "build", "l5r", "--out", project / "build")
    assert result.code == 0, result.err
    fonts = subprocess.run(["pdffonts", str(project / "build" / "l5r.pdf")], capture_output=True, text=True).stdout
    if "Noto Color Emoji" not in subprocess.run(["fc-list"], capture_output=True, text=True).stdout:
        pytest.skip("fonts-noto-color-emoji is not installed (scripts/setup installs it)")
    assert "Color-Emoji" in fonts
