"""What every face page shares, worked out and drawn once: an SVG background at one place and size painted from one
transparency group (printer.sheets.svgforms), and no empty margin boxes made for a page whose stylesheets style
none (printer.sheets.marginboxes); with them, computed values shared by styles alike across documents
(printer.sheets.computedstyles) and plain boxes told apart once per style (printer.sheets.backgrounds). The pages
look the same with and without them: a batch of faces, the five example games and 100 imported L5R cards, compared
at 100 dpi with no tolerance (not one pixel differs)."""

from __future__ import annotations

import io
import json
import shutil
import subprocess
from pathlib import Path

import pikepdf
import pytest
from helpers import REPO
from PIL import Image, ImageChops

from printer.sheets import marginboxes, svgforms
from printer.sheets.pdf import pdf_bytes, render_documents

needs_poppler = pytest.mark.skipif(shutil.which("pdftoppm") is None, reason="pdftoppm (poppler-utils) is not installed")

STRIPES = (
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 40 30" width="40" height="30">'
    '<path d="M0 30 L30 0 L40 0 L10 30 Z" fill="#b03a2e" opacity="0.6"/><circle cx="20" cy="15" r="6" fill="blue"/></svg>'
)

FACE = """<style>@page {{ size: 63mm 88mm; margin: 0 }} body {{ margin: 0 }} {extra}
.art {{ position: absolute; left: 2mm; top: 9mm; width: 40mm; height: 30mm; background: #d8ccad url(stripes.svg) 0 0 / auto no-repeat }}
.moved {{ top: 45mm }} .tiled {{ background-repeat: repeat; background-size: 5mm }} .faded {{ opacity: 0.5 }}</style>
<section style="break-after: page"><p>{title}</p><div class="art"></div><div class="art moved"></div>
<div class="art tiled" style="top: 60mm"></div><div class="faded"><div class="art" style="left: 30mm"></div></div></section>"""


@pytest.fixture
def stripes(tmp_path: Path) -> Path:
    (tmp_path / "stripes.svg").write_text(STRIPES, encoding="utf-8")
    return tmp_path


def batch_pdf(folder: Path, extra: str = "") -> bytes:
    """Three documents of two faces each, joined into one PDF as printer joins a batch of faces."""
    chunks = ["".join(FACE.format(title=f"card {d}-{f}", extra=extra) for f in range(2)) for d in range(3)]
    documents, problems = render_documents(chunks, [folder], folder)
    assert not problems
    return pdf_bytes(documents)[0]


def without_adapters(monkeypatch: pytest.MonkeyPatch) -> None:
    """WeasyPrint's own background drawing, margin boxes, computed values and walk of the backgrounds back in place
    for the rest of the test."""
    import weasyprint.css
    import weasyprint.draw
    import weasyprint.layout
    import weasyprint.layout.background

    draw = weasyprint.draw.draw_background_image
    monkeypatch.setattr(weasyprint.draw, "draw_background_image", draw._printer_original)
    boxes = weasyprint.layout.make_margin_boxes
    monkeypatch.setattr(weasyprint.layout, "make_margin_boxes", boxes._printer_original)
    style, style_for = weasyprint.css.ComputedStyle, weasyprint.css.StyleFor
    monkeypatch.setattr(style, "__missing__", style.__missing__._printer_original)
    monkeypatch.setattr(style_for, "set_computed_styles", style_for.set_computed_styles._printer_original)
    walk = weasyprint.layout.background.layout_box_backgrounds
    monkeypatch.setattr(weasyprint.layout.background, "layout_box_backgrounds", walk._printer_original)


def pixels(pdf: bytes, folder: Path) -> list[Image.Image]:
    folder.mkdir(parents=True)
    (folder / "x.pdf").write_bytes(pdf)
    subprocess.run(["pdftoppm", "-r", "100", "-png", str(folder / "x.pdf"), str(folder / "p")], check=True)
    return [Image.open(p).convert("RGB") for p in sorted(folder.glob("p*.png"))]


def assert_same_pixels(one: list[Image.Image], other: list[Image.Image]) -> None:
    assert len(one) == len(other) > 0
    for number, (a, b) in enumerate(zip(one, other, strict=True), 1):
        assert ImageChops.difference(a, b).getbbox() is None, f"page {number} differs"  # not one pixel


def content(page: pikepdf.Page) -> bytes:
    contents = page.obj.Contents
    return b"".join(c.read_bytes() for c in contents) if isinstance(contents, pikepdf.Array) else contents.read_bytes()


def test_the_adapters_are_in_place_for_this_weasyprint():
    import weasyprint
    import weasyprint.draw
    import weasyprint.layout

    assert weasyprint.__version__ == svgforms.WEASYPRINT == marginboxes.WEASYPRINT
    assert weasyprint.draw.draw_background_image._printer_original is not None
    assert weasyprint.layout.make_margin_boxes._printer_original is not None
    assert svgforms.install() and marginboxes.install()  # a second call changes nothing and says it is in place


@pytest.mark.slow
def test_an_svg_background_at_one_place_is_one_group_on_every_face(stripes):
    pdf = pikepdf.open(io.BytesIO(batch_pdf(stripes)))
    assert len(pdf.pages) == 6
    painted = [set(content(page).split(b" Do")[0:-1]) for page in pdf.pages]
    names = [{line.rsplit(b"/", 1)[-1] for line in one} for one in painted]
    common = set.intersection(*names)
    # the two plain uses (two places) are the same two groups on all six faces; the tiled one is a pattern and the
    # faded one is drawn inside an opacity group: WeasyPrint makes those anew on each face
    assert len(common) == 2, names
    resources = pdf.pages[0].Resources.XObject
    for name in common:
        group = resources["/" + name.decode()]
        assert group.Subtype == "/Form" and group.Group.S == "/Transparency"  # WeasyPrint's group, as it makes it
        assert all(page.Resources.XObject["/" + name.decode()].objgen == group.objgen for page in pdf.pages)


@pytest.mark.slow
@needs_poppler
def test_a_batch_looks_the_same_with_and_without_the_adapters(stripes, tmp_path, monkeypatch):
    reused = pixels(batch_pdf(stripes), tmp_path / "reused")
    without_adapters(monkeypatch)
    assert_same_pixels(reused, pixels(batch_pdf(stripes), tmp_path / "drawn"))


def test_a_page_that_styles_no_margin_box_gets_none_and_one_that_does_keeps_it(stripes):
    before = marginboxes.stats()
    plain = pikepdf.open(io.BytesIO(batch_pdf(stripes)))
    after = marginboxes.stats()
    assert after["skipped"] == before["skipped"] + 6 and after["made"] == before["made"]
    assert content(plain.pages[0]).count(b"BT") == 1  # the title's text only
    footer = "@page { margin-bottom: 10mm; @bottom-center { content: 'face ' counter(page) } }"
    styled = pikepdf.open(io.BytesIO(batch_pdf(stripes, footer)))
    assert marginboxes.stats()["made"] == after["made"] + 6
    assert all(content(page).count(b"BT") == 2 for page in styled.pages)  # the title and the footer


@pytest.mark.slow
@needs_poppler
def test_margin_boxes_look_the_same_with_and_without_the_adapters(stripes, tmp_path, monkeypatch):
    footer = "@page { margin-top: 8mm; @top-right { content: 'face ' counter(page); font-size: 8pt } }"
    reused = pixels(batch_pdf(stripes, footer), tmp_path / "reused")
    without_adapters(monkeypatch)
    assert_same_pixels(reused, pixels(batch_pdf(stripes, footer), tmp_path / "drawn"))


def _build_twice(run, args: list[str], pdfs: list[str], tmp_path: Path, monkeypatch) -> None:
    """Build with the adapters and without them; every page of each PDF in ``pdfs`` (under the output folder)
    has the same pixels."""
    first = run(*args, "--out", tmp_path / "with", "--no-cache", "--jobs", "1")
    assert first.code == 0, first.err
    without_adapters(monkeypatch)
    second = run(*args, "--out", tmp_path / "without", "--no-cache", "--jobs", "1")
    assert second.code == 0, second.err
    for name in pdfs:
        one = pixels((tmp_path / "with" / name).read_bytes(), tmp_path / "png-with" / name)
        other = pixels((tmp_path / "without" / name).read_bytes(), tmp_path / "png-without" / name)
        assert_same_pixels(one, other)


GAMES = ("l5r", "res-arcana", "via-magica", "arcanductor", "edelweiss")


@pytest.mark.slow
@needs_poppler
@pytest.mark.parametrize("game", GAMES)
def test_an_example_game_looks_the_same_with_and_without_the_adapters(game, run, tmp_path, monkeypatch):
    _build_twice(run, ["--project", REPO, "build", game], [f"{game}.pdf"], tmp_path, monkeypatch)


@pytest.mark.slow
@needs_poppler
def test_imported_l5r_cards_look_the_same_with_and_without_the_adapters(shared_data, project, run, tmp_path, monkeypatch):  # fmt: skip
    oracle = sorted((shared_data / "l5r" / "oracle").glob("*.json"))
    if not oracle:
        pytest.skip("../shared/data/l5r/oracle has no export")
    imported = tmp_path / "imported"
    assert run("import", "oracle", *oracle, "--out", imported, "--force").code == 0
    files = [json.loads(f.read_text(encoding="utf-8")) for f in sorted(imported.glob("*.json"))]
    cards = [card for file in files for card in file["cards"]]
    step = max(1, len(cards) // 100)  # 100 cards from across the export: every type, deck and clan it has
    chosen = {**files[0], "cards": cards[::step][:100]}
    (project / "cards" / "l5r" / "chosen.json").write_text(json.dumps(chosen), encoding="utf-8")
    _build_twice(run, ["--project", project, "build", "l5r"], ["l5r.pdf"], tmp_path, monkeypatch)
