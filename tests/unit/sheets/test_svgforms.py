"""SVG images drawn once per PDF and size (printer.sheets.svgforms): one form XObject for an icon on many faces,
and the same pixels as WeasyPrint's own drawing, in a batch of faces and in a whole build."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pikepdf
import pytest
from helpers import REPO
from PIL import Image, ImageChops

from printer.sheets import svgforms
from printer.sheets.pdf import pdf_bytes, render_documents

needs_poppler = pytest.mark.skipif(shutil.which("pdftoppm") is None, reason="pdftoppm (poppler-utils) is not installed")

ICON = (
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100" width="100" height="100">'
    '<path d="M50 92 L6 36 A60 60 0 0 1 94 36 Z" fill="#b03a2e" stroke="#5a1a12" stroke-width="6"/>'
    '<circle cx="50" cy="88" r="7" fill="#5a1a12" opacity="0.5"/><path d="M-20 -20 L120 10" stroke="blue"/></svg>'
)  # half-transparent circle (a group of its own inside the form), a stroke reaching outside its viewBox
GRADIENT = (
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><defs><linearGradient id="g">'
    '<stop offset="0" stop-color="red"/><stop offset="1" stop-color="blue"/></linearGradient></defs>'
    '<rect width="10" height="10" fill="url(#g)"/></svg>'
)

FACE = """<style>@page {{ size: 63mm 88mm; margin: 0 }} body {{ margin: 0 }} img {{ display: block }}
.small {{ width: 5mm }} .turned {{ transform: rotate(30deg) }} .faded {{ opacity: 0.5 }}</style>
<section style="break-after: page"><p>{title}</p>
<img src="icon.svg" class="small"><img src="icon.svg" class="small turned"><img src="icon.svg" style="width: 9mm">
<div class="faded"><img src="icon.svg" class="small"></div><img src="gradient.svg" style="width: 8mm"></section>"""


@pytest.fixture
def icons(tmp_path: Path) -> Path:
    (tmp_path / "icon.svg").write_text(ICON, encoding="utf-8")
    (tmp_path / "gradient.svg").write_text(GRADIENT, encoding="utf-8")
    return tmp_path


def batch_pdf(folder: Path) -> bytes:
    """Three documents of two faces each, joined into one PDF as printer joins a batch of faces."""
    chunks = ["".join(FACE.format(title=f"card {d}-{f}") for f in range(2)) for d in range(3)]
    documents, problems = render_documents(chunks, [folder], folder)
    assert not problems
    return pdf_bytes(documents)[0]


def without_adapter(monkeypatch: pytest.MonkeyPatch) -> None:
    """WeasyPrint's own SVG image class back in place for the rest of the test."""
    import weasyprint.images

    monkeypatch.setattr(weasyprint.images, "SVGImage", weasyprint.images.SVGImage.__mro__[1])


def pixels(pdf: bytes, folder: Path) -> list[Image.Image]:
    folder.mkdir()
    (folder / "x.pdf").write_bytes(pdf)
    subprocess.run(["pdftoppm", "-r", "100", "-png", str(folder / "x.pdf"), str(folder / "p")], check=True)
    return [Image.open(p).convert("RGB") for p in sorted(folder.glob("p*.png"))]


def test_the_adapter_is_in_place_for_this_weasyprint():
    import weasyprint
    import weasyprint.images

    assert weasyprint.__version__ == svgforms.WEASYPRINT
    assert weasyprint.images.SVGImage.__name__ == "ReusedSVGImage"
    assert svgforms.install()  # a second call changes nothing and says it is in place


@pytest.mark.slow
def test_an_icon_drawn_on_many_faces_of_a_batch_is_one_form_xobject(icons):
    pdf = pikepdf.open(__import__("io").BytesIO(batch_pdf(icons)))
    assert len(pdf.pages) == 6
    resources = pdf.pages[0].Resources.XObject
    forms = {str(name): resources[name] for name in resources.keys() if str(name).startswith("/svgform")}
    # one form per size: 5 mm (plain and turned: the rotation is outside the form) and 9 mm; the faded icon is in
    # an opacity group and the gradient is placed from the page's matrix, so WeasyPrint draws those itself
    assert len(forms) == 2, forms
    for form in forms.values():
        assert form.Subtype == "/Form" and "/Group" not in form  # no transparency group: paints as if inline
    for page in pdf.pages:
        assert all(page.Resources.XObject[name].objgen == form.objgen for name, form in forms.items())
        content = b"".join(c.read_bytes() for c in page.Contents) if isinstance(page.Contents, pikepdf.Array) else page.Contents.read_bytes()  # fmt: skip
        assert content.count(b"/svgform0 Do") == 2 and content.count(b"/svgform1 Do") == 1
        assert content.count(b" re") >= 1  # the gradient's rectangle, drawn in the page


@pytest.mark.slow
@needs_poppler
def test_a_batch_looks_the_same_with_and_without_the_adapter(icons, tmp_path, monkeypatch):
    reused = pixels(batch_pdf(icons), tmp_path / "reused")
    without_adapter(monkeypatch)
    plain = batch_pdf(icons)
    assert b"/svgform" not in plain
    drawn = pixels(plain, tmp_path / "drawn")
    assert len(reused) == len(drawn) == 6
    for a, b in zip(reused, drawn, strict=True):
        assert ImageChops.difference(a, b).getbbox() is None  # not one pixel differs


@pytest.mark.slow
@needs_poppler
def test_a_build_looks_the_same_with_and_without_the_adapter(project, run, tmp_path, monkeypatch):
    for name in ("dynasty.json", "fate.json", "pre-game.json"):
        shutil.copy(REPO / "cards/l5r" / name, project / "cards/l5r" / name)
    before = svgforms.stats()
    first = run("build", "l5r", "--no-cache", "--jobs", "1", cwd=project)
    assert first.code == 0, first.err
    after = svgforms.stats()
    assert after["drawn"] > before["drawn"] and after["reused"] > before["reused"]
    reused = pixels((project / "build/l5r.pdf").read_bytes(), tmp_path / "reused")
    without_adapter(monkeypatch)
    second = run("build", "l5r", "--no-cache", "--jobs", "1", cwd=project)
    assert second.code == 0, second.err
    assert svgforms.stats()["drawn"] == after["drawn"]
    drawn = pixels((project / "build/l5r.pdf").read_bytes(), tmp_path / "drawn")
    assert len(reused) == len(drawn) > 0
    for a, b in zip(reused, drawn, strict=True):
        assert ImageChops.difference(a, b).getbbox() is None


def test_an_svg_naming_another_file_is_drawn_by_weasyprint(tmp_path):
    import weasyprint.images

    from printer.sheets.pdf import ProjectFetcher

    (tmp_path / "inner.svg").write_text(ICON, encoding="utf-8")
    outer = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><image href="inner.svg" width="10" height="10"/></svg>'  # fmt: skip
    (tmp_path / "outer.svg").write_text(outer, encoding="utf-8")
    fetcher = ProjectFetcher([tmp_path])
    image = weasyprint.images.get_image_from_uri(
        cache={}, url_fetcher=fetcher, options={}, url=(tmp_path / "outer.svg").as_uri()
    )
    assert type(image).__name__ == "ReusedSVGImage"
    assert svgforms.reuse_key(image) is None


def test_a_form_lists_fonts_only_when_its_drawing_sets_text(tmp_path):
    """A form of shapes holds no font (WeasyPrint would list every font of the PDF there); a form of an SVG with
    text keeps them, and its text prints."""
    import io

    (tmp_path / "shape.svg").write_text(
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><rect width="10" height="10"/></svg>',
        encoding="utf-8",
    )
    (tmp_path / "word.svg").write_text(
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 60 20" width="60" height="20">'
        '<text x="2" y="15" font-family="DejaVu Sans" font-size="12">Kyuden</text></svg>',
        encoding="utf-8",
    )
    face = '<p>card</p><img src="shape.svg" style="width: 5mm"><img src="word.svg" style="width: 30mm">'
    documents, problems = render_documents([face + face], [tmp_path], tmp_path)
    assert not problems
    data = pdf_bytes(documents)[0]
    with pikepdf.open(io.BytesIO(data)) as pdf:
        forms = [x for x in pdf.pages[0].Resources.XObject.values() if x.get("/Subtype") == "/Form"]
        fonts = sorted("/Font" in form.Resources for form in forms)
    assert fonts == [False, True]  # the shape's form, the word's form
    import pdfplumber

    with pdfplumber.open(io.BytesIO(data)) as pdf:
        assert "Kyuden" in (pdf.pages[0].extract_text() or "")
