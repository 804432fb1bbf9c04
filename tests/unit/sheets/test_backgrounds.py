"""Plain boxes (square corners, no border or mask border image, no background, no shadow) are decided once per
style by printer.sheets.backgrounds: the same PDF bytes as WeasyPrint's own walk of each page's backgrounds, for
boxes of every kind that walk tells apart."""

from __future__ import annotations

from pathlib import Path

import pytest

from printer.sheets import backgrounds
from printer.sheets.pdf import render_documents

ROOTS = [Path(__file__).resolve().parents[2]]

DOCUMENT = """<style>@page { size: 63mm 88mm; margin: 0 } body { margin: 0; font: 9pt 'DejaVu Sans' }
div { margin: 1mm; padding: 1mm; border: 1px solid #345 } .hidden { visibility: hidden }
.fill { background: #eef } .round { border-radius: 2mm } .half { border-radius: 0 20% }
.current { color: #a00; background-color: currentcolor } .clear { background-color: transparent; color: #0a0 }
.shadow { box-shadow: 1mm 1mm #999 } .gradient { background-image: linear-gradient(#fff, #000) }
.image { background: url(missing.png) } .frame { border: 3mm solid; border-image: linear-gradient(red, blue) 10 }
</style>
<div>plain <span>text</span></div><div class="fill">filled</div><div class="round">round</div>
<div class="half">half round</div><div class="current">current color</div><div class="clear">clear</div>
<div class="shadow">shadow</div><div class="gradient">gradient</div><div class="frame">border image</div>
<div class="hidden fill">hidden <div class="fill">a child shown? no: hidden too</div></div>
<div class="hidden shadow round">hidden with a shadow</div><div class="fill"><p>nested <em>plain</em></p></div>"""


def test_the_adapter_is_in_place_for_this_weasyprint():
    import weasyprint
    import weasyprint.layout.background as background

    assert weasyprint.__version__ == backgrounds.WEASYPRINT
    assert backgrounds.install()  # a second call changes nothing and says it is in place
    assert background.layout_box_backgrounds._printer_original is not None


@pytest.mark.parametrize(
    ("css", "expected"),
    [
        ("", True),
        ("visibility: hidden; background: #eef", True),
        ("background: #eef", False),
        ("background-color: rgba(0, 0, 0, 0)", True),
        ("color: #a00; background-color: currentcolor", False),
        ("color: transparent; background-color: currentcolor", True),
        ("border-radius: 2mm", False),
        ("border-radius: 0 2mm", False),
        ("box-shadow: 1mm 1mm #999", False),
        ("visibility: hidden; box-shadow: 1mm 1mm #999", False),
        ("background-image: linear-gradient(#fff, #000)", False),
        ("border: 1mm solid; border-image: linear-gradient(red, blue) 10", False),
    ],
)
def test_a_style_is_plain_when_weasyprint_gives_its_boxes_no_background(css, expected):
    documents, _ = render_documents(
        [f'<style>@page {{ size: 40mm 20mm }}</style><div id="it" style="{css}">x</div>'], ROOTS, ROOTS[0]
    )
    found = [box for box in documents[0].pages[0]._page_box.descendants() if box.element_tag == "div"]
    assert backgrounds.plain(found[0].style) is expected


def test_a_document_is_the_same_byte_for_byte_with_plain_boxes_decided_once_or_each_time(monkeypatch):
    import weasyprint.layout.background as background

    def pdf() -> bytes:
        documents, _ = render_documents([DOCUMENT, DOCUMENT], ROOTS, ROOTS[0])
        return b"".join(document.write_pdf() for document in documents)

    decided = pdf()
    monkeypatch.setattr(background, "layout_box_backgrounds", background.layout_box_backgrounds._printer_original)
    assert pdf() == decided
