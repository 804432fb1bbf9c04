"""Computed values are shared through records by styles alike in any document of a process
(printer.sheets.computedstyles): documents laid out one after another, some of whose values come from records made
by the documents before, give the same PDF bytes as WeasyPrint working every value out, including where a record
must not be used (viewport units on pages of another size, inherited sizes that differ, ::first-line, the same
declarations of a logical and a physical property weighed differently)."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest

from printer.sheets import computedstyles
from printer.sheets.pdf import render_documents

ROOTS = [Path(__file__).resolve().parents[2]]

DOCUMENT = """<html lang="{lang}"><style>@page {{ size: {page}; margin: 0 }}</style>
<style>body {{ margin: 0; font: 9pt 'DejaVu Sans' }}
.plain {{ position: relative; width: 40mm; padding: 2mm; border: 1px solid #345; background: #eee }}
.plain p {{ margin: 0.5em 0; font-size: 1.2em; line-height: 1.3 }} .plain em {{ font-size: 0.8rem }}
.plain p::before {{ content: "> "; color: #a00 }} .plain li {{ margin-left: 1em }}
.wide {{ width: 50vw; height: 20vh; border: 1px solid }} .wide span {{ display: inline-block; width: calc(10vw + 2mm) }}
.gap {{ padding: var(--gap) }} .gap b {{ margin-left: var(--gap) }} .x {{ width: 10ex }}
.lines p::first-line {{ font-size: 1.5em; color: #060 }}
.p1 {{ margin-left: 2mm !important }} .p1 {{ margin-inline-start: 6mm }} .p2 {{ margin-left: 2mm }}
.p2 {{ margin-inline-start: 6mm !important }}</style><style>.gap {{ --gap: {gap} }}</style>
<div class="plain"><p>Card <em>one</em> text</p><ul><li>a point</li></ul></div>
<div class="plain lines" style="font-size: {size}"><p>Its text, inherited at the size of its box, over lines
that wrap, with <em>words</em></p></div>
<div class="wide"><span>wide</span> text</div><div class="gap"><b>gap</b></div><div class="x">ex</div>
<div class="p1">the physical margin weighs more</div><div class="p2">the logical one does</div>"""

#: documents that differ in what a record must not carry over: page size (viewport units), a custom property in
#: viewport units or not, an inline font size its children inherit, the language
VARIANTS = [
    DOCUMENT.format(page=page, gap=gap, size=size, lang=lang)
    for page, gap, size, lang in itertools.product(("63mm 88mm", "A6"), ("2mm", "3vw"), ("8pt", "11pt"), ("en", "fr"))
]


@pytest.fixture(autouse=True)
def no_records():
    """Each test starts with no record (those of earlier tests would serve its documents)."""
    computedstyles._forget()


def worked_out(monkeypatch: pytest.MonkeyPatch) -> None:
    """WeasyPrint's own computed styles, with no record."""
    import weasyprint.css as css

    monkeypatch.setattr(css.ComputedStyle, "__missing__", css.ComputedStyle.__missing__._printer_original)
    monkeypatch.setattr(css.StyleFor, "set_computed_styles", css.StyleFor.set_computed_styles._printer_original)


def pdfs(htmls: list[str]) -> list[bytes]:
    documents, problems = render_documents(htmls, ROOTS, ROOTS[0])
    assert not problems
    return [document.write_pdf() for document in documents]


def test_the_adapter_is_in_place_for_this_weasyprint():
    import weasyprint
    import weasyprint.css as css

    assert weasyprint.__version__ == computedstyles.WEASYPRINT
    assert computedstyles.install()  # a second call changes nothing and says it is in place
    assert css.ComputedStyle.__missing__._printer_original is not None
    assert css.StyleFor.set_computed_styles._printer_original is not None


def test_documents_are_the_same_byte_for_byte_with_values_from_records_or_worked_out(monkeypatch):
    before = dict(computedstyles._stats)
    shared = pdfs(VARIANTS + VARIANTS[:2])  # each variant after others, and the first two again
    assert computedstyles._stats["found"] > before["found"]  # later documents took values from records
    assert computedstyles._stats["records"] > before["records"]
    worked_out(monkeypatch)
    assert [pdfs([html])[0] for html in VARIANTS + VARIANTS[:2]] == shared


def test_a_style_in_viewport_units_and_what_is_below_it_get_no_record(monkeypatch):
    import weasyprint.css as css

    kept: list[object] = []
    real = css.StyleFor.set_computed_styles

    def keep(self, element, parent, root=None, pseudo_type=None, base_url=None, target_collector=None):
        real(self, element, parent, root, pseudo_type, base_url, target_collector)
        if hasattr(element, "tag"):  # an element, not a page
            kept.append((element.tag, element.get("class"), pseudo_type, self._computed_styles[element, pseudo_type]))

    monkeypatch.setattr(css.StyleFor, "set_computed_styles", keep)
    pdfs([VARIANTS[0]])
    records = {(tag, name, pseudo): style.__dict__.get("_printer_record") for tag, name, pseudo, style in kept}
    assert records["div", "plain", None] is not None
    assert records["p", None, "before"] is not None
    assert records["p", None, "first-line"] is None  # WeasyPrint copies the values worked out so far
    assert records["div", "wide", None] is None  # 50vw: the size of this document's page
    assert records["span", None, None] is None  # below it
    assert records["div", "x", None] is None  # 10ex: the font's metrics


def test_with_few_records_and_values_kept_they_are_dropped_and_the_pages_are_the_same(monkeypatch):
    monkeypatch.setattr(computedstyles, "KEPT", 5)
    monkeypatch.setattr(computedstyles, "COMPARED", 40)
    shared = pdfs(VARIANTS[:3])
    assert len(computedstyles._records) <= 5
    assert len(computedstyles._comparable) <= 40
    assert len(computedstyles._canonical) <= 40
    worked_out(monkeypatch)
    assert pdfs(VARIANTS[:3]) == shared


def test_a_value_whose_working_out_logs_a_warning_is_worked_out_again_in_each_document():
    html = VARIANTS[0].replace(".plain em {", ".plain em { margin-top: min(2em, 1 / 0);")
    for _ in range(2):  # the second document's style has the record the first one's had
        _, problems = render_documents([html], ROOTS, ROOTS[0])
        assert any("Invalid math function" in problem.message for problem in problems)


def test_a_value_worked_out_after_others_came_from_the_record_reads_their_specified_values():
    """``display`` is worked out from the specified ``position`` and ``float`` (an absolutely positioned inline box
    is a block): a style that took those two from the record still has them to read."""
    import weasyprint.css as css

    from printer.sheets.pdf import font_config

    weight = (3, float("inf"), (0, 0, 1))
    cascaded = {"display": (("inline", "flow"), weight), "position": ("absolute", weight)}

    def style(record):
        made = css.ComputedStyle(None, cascaded, None, css.InitialStyle(font_config()), None, font_config(), {})
        made._printer_record = record
        return made

    record = computedstyles.Record()
    assert style(record)["float"] == "none"  # the record now has position and float, not display
    later = style(record)
    assert later["float"] == "none"
    assert later["display"] == style(None)["display"] == ("block", "flow")
    assert record.values["display"] == ("block", "flow")
