"""The lighter user-agent stylesheet (printer.sheets.useragent): fewer styles worked out, the same pages, and
WeasyPrint's own stylesheet for documents with footnotes, notes or list items of their own."""

from __future__ import annotations

import io
import shutil
import subprocess
from collections import Counter
from pathlib import Path

import pdfplumber
import pytest
from helpers import REPO
from PIL import Image, ImageChops

from printer.sheets import pdf, useragent

GOOD_CARDS = (REPO / "tests/bad/good-cards.json").read_text(encoding="utf-8")
NOTES = ("marker", "footnote-call", "footnote-marker", "note-call", "note-marker", "note-callback")


def _laid_out(html: str, root: Path, monkeypatch) -> tuple[bytes, Counter]:
    """``html`` laid out and written; with the pseudo-elements whose styles WeasyPrint worked out, counted."""
    import weasyprint.css as css

    counted: Counter = Counter()
    real = css.StyleFor.set_computed_styles

    def counting(self, element, parent, root=None, pseudo_type=None, **kwargs):
        counted[pseudo_type] += 1
        return real(self, element, parent, root=root, pseudo_type=pseudo_type, **kwargs)

    monkeypatch.setattr(css.StyleFor, "set_computed_styles", counting)
    documents, problems = pdf.render_documents([html], [root], root, "test")
    assert problems == []
    return documents[0].write_pdf(), counted


def _text(data: bytes) -> str:
    with pdfplumber.open(io.BytesIO(data)) as doc:
        return "\n".join(page.extract_text() for page in doc.pages)


def test_a_plain_document_works_out_no_footnote_note_or_marker_styles_but_its_list_items_keep_their_markers(
    tmp_path, monkeypatch
):
    body = "".join(f"<div class='face'><p>Card {i}</p><p>Text</p></div>" for i in range(20))
    html = f"<html><body>{body}<ul><li>First</li><li>Second</li></ul><ol><li>One</li></ol></body></html>"
    assert useragent.stylesheet() is not None
    assert useragent.suits(html, tmp_path.as_uri() + "/", [tmp_path])
    data, counted = _laid_out(html, tmp_path, monkeypatch)
    assert counted["marker"] == 3 and not any(counted[name] for name in NOTES[1:])  # the three li only
    text = _text(data)
    assert "• First" in text and "• Second" in text and "1. One" in text

    monkeypatch.setattr(useragent, "suits", lambda *args, **kwargs: False)
    full, counted = _laid_out(html, tmp_path, monkeypatch)
    assert counted["footnote-call"] > 40  # WeasyPrint's own stylesheet: one for every element
    assert _text(full) == text


@pytest.mark.parametrize(
    "style",
    [
        "<p style='float: footnote'>A note</p>",
        "<style>.n { float: FOOTNOTE }</style><p class='n'>A note</p>",
        "<p style='float: f&#111;otnote'>A note</p>",  # an HTML character reference
        "<style>.n { float: f\\6f otnote }</style><p class='n'>A note</p>",  # a CSS escape
        "<style>.n { position: note(side) }</style><p class='n'>A note</p>",
        "<p style='display: list-item'>An item</p>",
        "<style>@import url(other.css);</style><p>Text</p>",
        "<base href='file:///elsewhere/'><p>Text</p>",
    ],
)
def test_a_document_that_may_need_the_left_out_rules_gets_weasyprints_own(style, tmp_path):
    assert not useragent.suits(f"<html><body>{style}</body></html>", tmp_path.as_uri() + "/", [tmp_path])


def test_linked_stylesheets_are_read_for_the_same_words_and_must_be_files_under_the_roots(tmp_path):
    base = tmp_path.as_uri() + "/"
    page = "<html><head><link rel='stylesheet' href='{}'></head><body><p>Text</p></body></html>"
    (tmp_path / "plain.css").write_text("p { color: red }", encoding="utf-8")
    (tmp_path / "notes.css").write_text("p { float: footnote }", encoding="utf-8")
    (tmp_path / "escaped.css").write_text("p { display: list\\-item }", encoding="utf-8")
    assert useragent.suits(page.format("plain.css"), base, [tmp_path])
    assert not useragent.suits(page.format("notes.css"), base, [tmp_path])
    assert not useragent.suits(page.format("escaped.css"), base, [tmp_path])
    assert not useragent.suits(page.format("missing.css"), base, [tmp_path])
    assert not useragent.suits(page.format("plain.css"), base, [tmp_path / "elsewhere"])  # outside the roots
    assert not useragent.suits(page.format("http://example.org/a.css"), base, [tmp_path])
    assert not useragent.suits(page.format("plain.css"), base, [tmp_path], {"stylesheets": ["x.css"]})
    (tmp_path / "plain.css").write_text("p { float: footnote }", encoding="utf-8")  # edited: read again
    assert not useragent.suits(page.format("plain.css"), base, [tmp_path])


def test_footnotes_still_print_their_calls_and_markers(tmp_path, monkeypatch):
    html = "<html><body><p>Rule<span style='float: footnote'>See the glossary.</span> text.</p></body></html>"
    data, counted = _laid_out(html, tmp_path, monkeypatch)
    assert counted["footnote-call"] > 0
    text = _text(data)
    assert text.splitlines() == ["1", "Rule text.", "1. See the glossary."]  # the call raised above its line


def _pages(pdf_path: Path, out: Path) -> list[Image.Image]:
    subprocess.run(["pdftoppm", "-r", "40", "-png", str(pdf_path), str(out)], check=True)
    return [Image.open(p).convert("RGB") for p in sorted(out.parent.glob(out.name + "*.png"))]


@pytest.mark.skipif(shutil.which("pdftoppm") is None, reason="pdftoppm (poppler-utils) is not installed")
def test_a_build_prints_the_same_pages_with_either_stylesheet(project, run, monkeypatch, tmp_path):
    (project / "cards/l5r/cards.json").write_text(GOOD_CARDS, encoding="utf-8")
    lighter = run("build", "l5r", "--no-cache", "--jobs", "1", cwd=project)
    assert lighter.code == 0, lighter.err
    (project / "build/l5r.pdf").rename(tmp_path / "lighter.pdf")
    monkeypatch.setattr(useragent, "suits", lambda *args, **kwargs: False)
    full = run("build", "l5r", "--no-cache", "--jobs", "1", cwd=project)
    assert full.code == 0, full.err
    assert lighter.err == full.err
    (tmp_path / "a").mkdir(), (tmp_path / "b").mkdir()
    before, after = (
        _pages(project / "build/l5r.pdf", tmp_path / "a/p"),
        _pages(tmp_path / "lighter.pdf", tmp_path / "b/p"),
    )
    assert len(before) == len(after) >= 2
    assert all(ImageChops.difference(a, b).getbbox() is None for a, b in zip(before, after))
    with pdfplumber.open(project / "build/l5r.pdf") as a, pdfplumber.open(tmp_path / "lighter.pdf") as b:
        for one, other in zip(a.pages, b.pages):
            chars = [(c["text"], round(c["x0"], 2), round(c["top"], 2), c["size"]) for c in one.chars]
            assert chars == [(c["text"], round(c["x0"], 2), round(c["top"], 2), c["size"]) for c in other.chars]
