"""Long builds: pages laid out one part at a time while the PDF is written (printer.sheets.pdf.stream_pdf), text-fit sizes
written inline (printer.sheets.fit.FitSizes.apply), and only the sheets holding a shrunk face laid out again. Read back from
the PDFs."""

from __future__ import annotations

import gc
import json
import weakref
from pathlib import Path

import pdfplumber
import pytest
from markupsafe import Markup
from pypdf import PdfReader

from printer.sheets.fit import FitSizes
from printer.sheets.pdf import render_one, stream_pdf

ROOTS = [Path(__file__).resolve().parents[2]]


def part(html: str, made: list, alive: list):
    """A ``make()`` laying out ``html``; it records, when called, which earlier parts' pages are still in memory."""

    def make():
        gc.collect()
        alive.append([ref() is not None for ref in made])
        document, _ = render_one(
            f"<html><body style=\"font: 12pt 'DejaVu Sans'\">{html}</body></html>", ROOTS, ROOTS[0]
        )
        made.append(weakref.ref(document.pages[0]))
        return document

    return make


def fonts_of(data: bytes) -> list[str]:
    from io import BytesIO

    reader = PdfReader(BytesIO(data))
    fonts = {}
    for page in reader.pages:
        for ref in (page["/Resources"].get("/Font") or {}).values():
            fonts[ref.idnum] = str(ref.get_object()["/BaseFont"])
    return sorted(fonts.values())


@pytest.mark.slow
def test_parts_are_laid_out_one_at_a_time_and_share_their_fonts(tmp_path):
    made, alive = [], []
    parts = [(1, part(f"<p>Part {i} text</p>", made, alive)) for i in range(4)]
    data, problems = stream_pdf(parts, "test")
    assert problems == []
    # when part 3 (index 2) is laid out, part 1's page has been painted and dropped
    assert alive[2][0] is False and alive[3][:2] == [False, False]
    (tmp_path / "out.pdf").write_bytes(data)
    with pdfplumber.open(tmp_path / "out.pdf") as doc:
        assert [p.extract_text() for p in doc.pages] == [f"Part {i} text" for i in range(4)]
    assert len(fonts_of(data)) == 1  # one embedded subset for all the parts


@pytest.mark.slow
def test_a_part_with_links_is_written_the_ordinary_way_with_its_links(tmp_path):
    made, alive = [], []
    parts = [
        (1, part("<p>First</p>", made, alive)),
        (1, part('<p id="here">Second <a href="https://example.invalid/card">site</a></p>', made, alive)),
        (1, part('<p>Third <a href="#here">back</a></p>', made, alive)),
    ]
    data, _ = stream_pdf(parts, "test")
    (tmp_path / "out.pdf").write_bytes(data)
    reader = PdfReader(tmp_path / "out.pdf")
    assert len(reader.pages) == 3
    annots = [[a.get_object() for a in (p.get("/Annots") or [])] for p in reader.pages]
    assert annots[0] == []
    assert annots[1][0]["/A"]["/URI"] == "https://example.invalid/card"
    assert "/Dest" in annots[2][0] or "/A" in annots[2][0]  # the internal link to page 2 is kept


@pytest.mark.slow
def test_a_part_that_is_not_as_announced_is_written_the_ordinary_way(tmp_path):
    made, alive = [], []
    two_pages = '<p>A</p><p style="break-before: page">B</p>'
    data, _ = stream_pdf([(1, part("<p>Start</p>", made, alive)), (1, part(two_pages, made, alive))], "test")
    (tmp_path / "out.pdf").write_bytes(data)
    with pdfplumber.open(tmp_path / "out.pdf") as doc:
        assert [p.extract_text() for p in doc.pages] == ["Start", "A", "B"]


# -- text-fit sizes written into the face's HTML ------------------------------------------------------------------


@pytest.mark.parametrize(
    "html, expected",
    [
        (
            '<div class="t" data-fit="text">x</div>',
            '<div class="t" data-fit="text" style="font-size: 5.40pt !important">x</div>',
        ),
        (
            "<div data-fit='text' style='color: red;'>x</div>",
            "<div data-fit='text' style=\"color: red; font-size: 5.40pt !important\">x</div>",
        ),
        ("<ol data-fit=text />", '<ol data-fit=text style="font-size: 5.40pt !important"/>'),
        (
            '<p title="a > b" data-fit="text">x</p>',
            '<p title="a > b" data-fit="text" style="font-size: 5.40pt !important">x</p>',
        ),
        (
            '<div data-fit="tip">x</div><span data-fit-min="4pt">y</span>',
            '<div data-fit="tip">x</div><span data-fit-min="4pt">y</span>',
        ),
    ],
)
def test_the_chosen_size_is_written_on_the_fit_box(html, expected):
    fitter = FitSizes()
    fitter.sizes[("f1", "text")] = 5.4
    assert str(fitter.apply("f1", Markup(html))) == expected
    assert fitter.apply("f2", Markup(html)) == Markup(html)  # another face keeps its HTML


def test_an_inline_size_beats_the_stylesheet(tmp_path):
    fitter = FitSizes()
    fitter.sizes[("f1", "text")] = 5.0
    html = fitter.apply("f1", Markup('<div class="box" data-fit="text">Shrunk</div>'))
    document, _ = render_one(f"<style>.box {{ font: 9pt 'DejaVu Sans' !important }}</style>{html}", ROOTS, ROOTS[0])
    (tmp_path / "out.pdf").write_bytes(document.write_pdf())
    with pdfplumber.open(tmp_path / "out.pdf") as doc:
        assert {round(c["size"], 2) for c in doc.pages[0].chars} == {5.0}


# -- a build: each face is laid out once, only a shrunk face again ---------------------------------------------------

CARD_HTML = '<div class="card"><div class="title">{{ card.title }}</div><div class="box" data-fit="text" data-fit-min="4pt">{{ text }}</div></div>\n'
CSS = """.card { position: absolute; inset: 0; background: #fff; font: 8pt "DejaVu Sans", sans-serif; line-height: 1.2; }
.box { position: absolute; left: 3mm; right: 3mm; top: 15mm; height: 30mm; overflow: hidden; }
.box p { margin: 0; }
"""
LONG = " ".join(["Warriors hold the line while the tide turns."] * 16)


@pytest.mark.slow
def test_each_face_is_laid_out_once_and_only_a_shrunk_face_again(tmp_path, monkeypatch):
    import printer.sheets.assemble as build
    from printer.cli import main

    (tmp_path / "printer.toml").write_text('[games.t]\nname = "T"\ncard_size = "poker"\n', encoding="utf-8")
    (tmp_path / "templates" / "t").mkdir(parents=True)
    (tmp_path / "templates" / "t" / "card.html.j2").write_text(CARD_HTML, encoding="utf-8")
    (tmp_path / "templates" / "t" / "back.html.j2").write_text('<div class="card">BACK</div>', encoding="utf-8")
    (tmp_path / "templates" / "t" / "card.css").write_text(CSS, encoding="utf-8")
    (tmp_path / "schema" / "t").mkdir(parents=True)
    (tmp_path / "schema" / "t" / "card.schema.json").write_text(
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
    cards = [{"id": f"c{i:02d}", "title": f"Card{i:02d}", "type": "A", "text": "Short text."} for i in range(27)]
    cards[12]["text"] = LONG  # on the second of three sheets
    (tmp_path / "cards" / "t").mkdir(parents=True)
    (tmp_path / "cards" / "t" / "cards.json").write_text(json.dumps({"game": "t", "cards": cards}), encoding="utf-8")
    jobs = []
    original = build.build_sheets
    monkeypatch.setattr(build, "build_sheets", lambda job, *a, **k: jobs.append(job) or original(job, *a, **k))
    import printer.sheets.export.faces as faces

    monkeypatch.setattr(faces, "FACES_PER_CHUNK", 10)  # three parts: faces 1-10, 11-20, 21-28
    with pytest.raises(SystemExit) as exit_:
        main(["--project", str(tmp_path), "build", "t", "--out", str(tmp_path / "out"), "--strict"])
    assert exit_.value.code == 0
    stats = jobs[0].engine.stats
    # 27 fronts and one back design laid out once each, then only the face whose text shrank again
    assert stats["pages"] == 28 and stats["pages again"] == 1
    with pdfplumber.open(tmp_path / "out" / "t.pdf") as doc:
        assert len(doc.pages) == 6
        sizes = [{round(c["size"], 1) for c in page.chars if c["text"] == "W"} for page in doc.pages]
        texts = [page.extract_text() for page in doc.pages]
    assert sizes[2] and max(sizes[2]) < 8 - 0.1  # the long text shrank, on sheet 2's front page
    assert all("Card" in texts[i] for i in (0, 2, 4)) and all("BACK" in texts[i] for i in (1, 3, 5))
