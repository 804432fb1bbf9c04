"""Build budgets: --max-size and --min-dpi hold or the build names what does not fit (exit 1), and a template that
reaches for a remote font fails at once with the file that asked for it, never waiting on the network."""

from __future__ import annotations

import json
import re
import time
from pathlib import Path

from PIL import Image

CARD = '<div class="card"><img class="art" src="templates/t/a.png"><p class="t">{{ card.title }}</p></div>\n'


def project(root: Path, css: str = "", art_px: int = 100) -> Path:
    for folder in ("cards/t", "templates/t", "schema/t"):
        (root / folder).mkdir(parents=True, exist_ok=True)
    (root / "printer.toml").write_text('[project]\npaper = "A4"\n[games.t]\nname = "T"\ncard_size = "poker"\n')
    (root / "templates" / "t" / "card.html.j2").write_text(CARD, encoding="utf-8")
    (root / "templates" / "t" / "back.html.j2").write_text('<div class="card"></div>\n', encoding="utf-8")
    (root / "templates" / "t" / "card.css").write_text(
        ".card { position: absolute; inset: 0; }\n.art { width: 50mm; height: 50mm; }\n" + css, encoding="utf-8"
    )
    Image.new("RGB", (art_px, art_px), (30, 90, 160)).save(root / "templates" / "t" / "a.png")  # drawn as it is
    cards = [{"id": "a", "title": "Alpha", "type": "A"}]
    (root / "cards" / "t" / "cards.json").write_text(json.dumps({"cards": cards}), encoding="utf-8")
    (root / "schema" / "t" / "card.schema.json").write_text(
        json.dumps(
            {"allOf": [{"$ref": "../card.schema.json"}], "$id": "https://printer.invalid/schema/t/card.schema.json"}
        )
    )
    return root


def test_an_image_below_min_dpi_is_named_with_its_page(tmp_path, run):
    root = project(tmp_path / "p", art_px=200)  # 200 px over 50 mm: about 102 dpi
    result = run("--project", root, "build", "t", "--out", tmp_path / "o", "--min-dpi", "300", "--no-cache")
    assert result.code == 1, result.out + result.err
    assert "t.pdf:page 1 image" in result.err and "below 300 dpi (--min-dpi)" in result.err
    ok = run("--project", root, "build", "t", "--out", tmp_path / "o2", "--min-dpi", "90", "--no-cache")
    assert ok.code == 0, ok.err


def test_a_file_over_max_size_is_named(tmp_path, run):
    root = project(tmp_path / "p")
    result = run("--project", root, "build", "t", "--out", tmp_path / "o", "--max-size", "1KB", "--no-cache")
    assert result.code == 1
    assert (
        f"{tmp_path / 'o' / 't.pdf'}: error:" in result.err and "above the 1,000 bytes limit (--max-size)" in result.err
    )
    assert (tmp_path / "o" / "t.pdf").is_file()  # written: the budget says what does not fit
    assert run("--project", root, "build", "t", "--out", tmp_path / "o3", "--max-size", "100MB").code == 0
    bad = run("--project", root, "build", "t", "--max-size", "lots")
    assert bad.code == 2 and "not a file size" in bad.err


def test_a_remote_web_font_fails_at_once_naming_the_stylesheet(tmp_path, run):
    css = (
        "@import url(https://fonts.googleapis.com/css2?family=Roboto);\n"
        "@font-face { font-family: Remote; src: url(https://fonts.gstatic.com/s/roboto/v30/x.woff2); }\n"
        ".t { font-family: Remote, sans-serif; }\n"
    )
    root = project(tmp_path / "p", css)
    start = time.monotonic()
    result = run("--project", root, "build", "t", "--out", tmp_path / "o", "--no-cache", "--jobs", "1")
    assert time.monotonic() - start < 120
    assert result.code == 1
    assert "card.css" in result.err and "blocked https://fonts." in result.err
    assert not (tmp_path / "o" / "t.pdf").exists()


def test_art_below_min_dpi_is_an_error_at_the_card_even_though_the_pdf_holds_it_resampled(tmp_path, run):
    root = project(tmp_path / "p")
    (root / "templates" / "t" / "card.html.j2").write_text(
        '<div class="card">{% if art_url %}<img class="art" src="{{ art_url }}">{% endif %}</div>\n', encoding="utf-8"
    )
    (root / "cards" / "t" / "art").mkdir()
    Image.new("RGB", (120, 120), (30, 90, 160)).save(root / "cards" / "t" / "art" / "small.png")
    cards = [{"id": "a", "title": "Alpha", "type": "A", "art": "art/small.png"}]
    (root / "cards" / "t" / "cards.json").write_text(json.dumps({"cards": cards}), encoding="utf-8")
    plain = run("--project", root, "build", "t", "--out", tmp_path / "o1", "--no-cache")
    assert plain.code == 0 and "low-dpi" not in plain.err and "warning: art small.png" in plain.err
    result = run("--project", root, "build", "t", "--out", tmp_path / "o2", "--no-cache", "--min-dpi", "300")
    assert result.code == 1
    assert re.search(r"cards\.json:\d+:\d+ \(\$\.cards\[0\]\.art\):\ error:\ art\ small\.png\ is", result.err)
    assert "below --min-dpi 300" in result.err
    low = run("--project", root, "build", "t", "--out", tmp_path / "o3", "--no-cache", "--min-dpi", "10")
    assert low.code == 0, low.err
