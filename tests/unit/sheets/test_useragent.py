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
    assert useragent.suits(html)
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
        "<ul><li><div style='display: inherit'>An item by inheritance</div></li></ul>",
        "<p>&#64;import url(x.css)</p>",
    ],
)
def test_a_document_that_may_need_the_left_out_rules_gets_weasyprints_own(style):
    assert not useragent.suits(f"<html><body>{style}</body></html>")
    assert useragent.suits("<html><body><p style='display: inherit'>Not a list</p></body></html>")


def test_a_stylesheet_file_is_checked_as_it_is_read():
    assert useragent.stylesheet_suits(b"p { color: red }", list_items=False)
    assert not useragent.stylesheet_suits(b"p { float: footnote }", list_items=False)
    assert not useragent.stylesheet_suits(b"p { display: list\\-item }", list_items=False)  # a CSS escape
    assert useragent.stylesheet_suits(b"div { display: inherit }", list_items=False)
    assert not useragent.stylesheet_suits(b"div { display: inherit }", list_items=True)
    assert not useragent.stylesheet_suits("p { float: footnote }".encode("utf-16"), list_items=False)  # a BOM
    assert not useragent.stylesheet_suits(b'@charset "utf-7"; p { color: red }', list_items=False)
    assert useragent.stylesheet_suits(b'@charset "utf-8"; p { color: red }', list_items=False)


@pytest.mark.parametrize(
    "link",
    [
        "<link rel='stylesheet' href='notes.css'>",
        "<link title='>' rel='stylesheet' href='notes.css'>",  # a quoted > in the tag
        "<link data-href='plain.css' rel='stylesheet' href='notes.css'>",
        "<link rel=stylesheet href=notes.css>",
    ],
)
def test_a_linked_stylesheet_that_needs_the_left_out_rules_is_laid_out_with_weasyprints_own(link, tmp_path):
    (tmp_path / "plain.css").write_text("p { color: red }", encoding="utf-8")
    (tmp_path / "notes.css").write_text(".n { float: footnote }", encoding="utf-8")
    html = f"<html><head>{link}</head><body><p>Rule<span class='n'>See the glossary.</span> text.</p></body></html>"
    documents, problems = pdf.render_documents([html], [tmp_path], tmp_path, "test")
    assert problems == [] and "1. See the glossary." in _text(documents[0].write_pdf())


def test_a_utf16_stylesheet_that_needs_the_left_out_rules_is_laid_out_with_weasyprints_own(tmp_path):
    (tmp_path / "notes.css").write_bytes(".n { float: footnote }".encode("utf-16"))
    html = "<html><head><link rel='stylesheet' href='notes.css'></head><body><p>Rule<span class='n'>Note.</span></p>"
    documents, _ = pdf.render_documents([html], [tmp_path], tmp_path, "test")
    assert "1. Note." in _text(documents[0].write_pdf())


def test_a_layout_that_fails_with_the_lighter_stylesheet_is_done_again_with_weasyprints_own(tmp_path, monkeypatch):
    (tmp_path / "notes.css").write_text(".n { float: footnote }", encoding="utf-8")
    monkeypatch.setattr(useragent, "stylesheet_suits", lambda body, list_items: True)  # a check that misses it
    html = "<html><head><link rel='stylesheet' href='notes.css'></head><body><p>Rule<span class='n'>Note.</span></p>"
    documents, _ = pdf.render_documents([html], [tmp_path], tmp_path, "test")
    assert "1. Note." in _text(documents[0].write_pdf())


def test_a_link_to_an_impossible_file_name_is_a_located_problem(tmp_path):
    from printer.problems import RenderError

    html = "<html><head><link rel='stylesheet' href='a%00.css'></head><body><p>Text</p></body></html>"
    with pytest.raises(RenderError) as raised:
        pdf.render_documents([html], [tmp_path], tmp_path, "test")
    assert [p.where for p in raised.value.problems] == ["test"] and "embedded null byte" in str(raised.value)


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
