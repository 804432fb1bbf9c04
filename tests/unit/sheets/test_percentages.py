"""A box's used margins, paddings, sizes, borders and offsets are remembered by their computed values and containing
block (printer.sheets.percentages): the same attributes as WeasyPrint's own functions set, the first time and
from memory, and the same PDF bytes."""

from __future__ import annotations

from math import inf
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from printer.sheets import percentages
from printer.sheets.pdf import render_documents

ROOTS = [Path(__file__).resolve().parents[2]]


def originals():
    import weasyprint.layout.percent as percent

    return {name: getattr(percent, name)._printer_original for name in percentages.CALLERS}


def test_the_adapters_are_in_place_for_this_weasyprint():
    import importlib

    import weasyprint
    import weasyprint.layout.percent as percent

    assert weasyprint.__version__ == percentages.WEASYPRINT
    assert percentages.install()  # a second call changes nothing and says it is in place
    for name, modules in percentages.CALLERS.items():
        function = getattr(percent, name)
        assert function._printer_original is not None
        for module in modules:
            assert getattr(importlib.import_module(f"weasyprint.layout.{module}"), name) is function


def lengths(auto: bool = True, none: bool = False, least: float = -50):
    """Computed lengths: a length or a percentage, ``auto`` where the property takes it, ``none`` (infinite) for a
    maximum."""
    from weasyprint.css.properties import Dimension

    plain = st.builds(Dimension, st.floats(least, 200, allow_nan=False), st.sampled_from(["px", "%"]))
    return st.one_of(plain, *([st.just("auto")] if auto else []), *([st.just(Dimension(inf, "px"))] if none else []))


#: what each property computes to: auto or not, none or not, and its least value
TAKES = {
    **{f"margin_{side}": {} for side in ("left", "right", "top", "bottom")},
    **{f"padding_{side}": {"auto": False, "least": 0} for side in ("left", "right", "top", "bottom")},
    "width": {"least": 0},
    "height": {"least": 0},
    "min_width": {"least": 0},
    "min_height": {"least": 0},
    "max_width": {"auto": False, "none": True, "least": 0},
    "max_height": {"auto": False, "none": True, "least": 0},
}


@st.composite
def styled_box(draw):
    """A box (a block or a page) with computed values as WeasyPrint's cascade gives them, and a containing block."""
    from weasyprint.formatting_structure import boxes

    kind = draw(st.sampled_from([boxes.BlockBox, boxes.PageBox, boxes.InlineBlockBox]))
    style = {name: draw(lengths(**takes)) for name, takes in TAKES.items()}
    for side in ("top", "right", "bottom", "left"):
        style[f"border_{side}_width"] = draw(st.sampled_from([0, 1, 2.5]))
    for name in percentages.SET["resolve_position_percentages"]:
        style[name] = draw(lengths())
    style["box_sizing"] = draw(st.sampled_from(["content-box", "border-box", "padding-box"]))
    style["border_collapse"] = "separate"
    heights = st.floats(0, 300) if kind is boxes.PageBox else st.one_of(st.just("auto"), st.floats(0, 300))
    block = (draw(st.floats(0, 300, allow_nan=False)), draw(heights))  # a page's is the page's size
    return kind, style, block


def fresh(kind, style):
    box = object.__new__(kind)
    box.style = style
    return box


def used(box, names):
    """The used values, as text (0% of an unknown height is NaN, which is not equal to itself), a zero's sign left
    out: a negative zero finds what a plain zero set (printer.sheets.percentages)."""
    values = {name: getattr(box, name) for name in names}
    return repr({name: 0.0 if isinstance(value, float) and value == 0 else value for name, value in values.items()})


@settings(max_examples=200, deadline=None)
@given(styled_box())
def test_the_same_attributes_as_weasyprint_sets_the_first_time_and_from_memory(case):
    import weasyprint.layout.percent as percent

    kind, style, block = case
    for name, original in originals().items():
        if name == "resolve_position_percentages" and block[1] == "auto":
            continue  # WeasyPrint places a positioned box in a block of known size only
        names = percentages.SET[name]
        expected = fresh(kind, style)
        original(expected, block)
        remembering = getattr(percent, name)
        first, again = fresh(kind, style), fresh(kind, dict(style))
        remembering(first, block)
        remembering(again, block)
        assert used(first, names) == used(again, names) == used(expected, names)


def test_a_negative_zero_finds_what_a_plain_zero_set():
    """The one difference from WeasyPrint the module's notes name: values are looked up as Python compares them."""
    import weasyprint.layout.percent as percent
    from weasyprint.css.properties import Dimension
    from weasyprint.formatting_structure import boxes

    style = {name: Dimension(0.0, "px") for name in TAKES}
    style.update({f"border_{side}_width": 0 for side in ("top", "right", "bottom", "left")})
    style.update(box_sizing="content-box", border_collapse="separate")
    block = (123.25, 456.5)  # a containing block no other test uses
    plain, signed = fresh(boxes.BlockBox, style), fresh(boxes.BlockBox, {**style, "margin_top": Dimension(-0.0, "px")})
    percent.resolve_percentages(plain, block)
    percent.resolve_percentages(signed, block)
    assert repr(signed.margin_top) == "0.0"  # WeasyPrint's own: -0.0
    percent.resolve_percentages._printer_original(signed, block)
    assert repr(signed.margin_top) == "-0.0" and signed.margin_top == plain.margin_top


def test_calc_values_and_collapsing_borders_are_left_to_weasyprint(monkeypatch):
    import weasyprint.layout.percent as percent
    from weasyprint.css.properties import Dimension
    from weasyprint.formatting_structure import boxes

    style = {name: Dimension(1, "px") for name in percentages.SET["resolve_percentages"]}
    style |= {"box_sizing": "content-box", "border_collapse": "collapse"}
    before = percentages._stats["left"]
    percent.resolve_percentages(fresh(boxes.BlockBox, style), (100, 100))
    assert percentages._stats["left"] == before + 1
    style |= {"border_collapse": "separate", "width": ("calc()", "not a plain value")}
    monkeypatch.setattr(percent.resolve_percentages, "_printer_original", lambda box, block: None)
    percent.resolve_percentages(fresh(boxes.BlockBox, style), (100, 100))
    assert percentages._stats["left"] == before + 2


CHUNK = """<style>@page {{ size: 63mm 88mm; margin: 0 }} body {{ margin: 0; font: 9pt 'DejaVu Sans' }}
.card {{ position: relative; width: 100%; height: 100%; box-sizing: border-box; padding: 3% 2mm; border: 1px solid }}
.box {{ position: absolute; left: 10%; right: 2mm; top: 20%; height: 30mm; padding: 1mm 5%; margin: 2%;
  min-width: 10mm; max-height: 40% }} p {{ margin: 0.5em 0; width: calc(100% - 3mm) }}</style>
{faces}"""


@pytest.mark.slow
def test_a_document_is_the_same_byte_for_byte_with_the_values_remembered_or_worked_out(monkeypatch):
    import importlib

    import weasyprint.layout.percent as percent

    faces = "".join(
        f'<section class="card" style="break-after: page"><div class="box"><p>Card {i}</p>'
        f"<p>{'text ' * (i * 7)}</p></div></section>"
        for i in range(6)
    )
    html = CHUNK.format(faces=faces)

    def pdf() -> bytes:
        documents, problems = render_documents([html], ROOTS, ROOTS[0])
        assert not problems
        return documents[0].write_pdf()

    remembered = pdf()
    for name, original in originals().items():
        monkeypatch.setattr(percent, name, original)
        for module in percentages.CALLERS[name]:
            monkeypatch.setattr(importlib.import_module(f"weasyprint.layout.{module}"), name, original)
    assert pdf() == remembered
