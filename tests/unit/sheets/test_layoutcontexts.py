"""A chunk's WeasyPrint layout is freed by reference counting once its pages are painted
(printer.sheets.layoutcontexts), without changing a byte of the PDF; and the collector's settings while faces are
laid out (printer.process.collector_for_layout)."""

from __future__ import annotations

import gc
import weakref
from pathlib import Path

import pytest

from printer import process
from printer.sheets import layoutcontexts
from printer.sheets.pdf import render_one, stream_pdf

ROOTS = [Path(__file__).resolve().parents[2]]
#: an SVG image: WeasyPrint's image keeps the layout context it was loaded in
ICON = (
    "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' width='10' height='10'%3E"
    "%3Crect width='10' height='10' fill='%23c33'/%3E%3C/svg%3E"
)


def page_html(i: int) -> str:
    return (
        f"<html><body style=\"font: 12pt 'DejaVu Sans'\"><p>Part {i}</p>"
        f'<img src="{ICON}" style="width: 10mm"><div style="background: url(&quot;{ICON}&quot;); height: 5mm">'
        "</div></body></html>"
    )


def parts_recording(boxes: list) -> list:
    """Three one-page parts; each, as it is laid out, keeps a weak reference to its page's box tree in ``boxes``
    and notes which earlier ones are still alive (the collector is off: only reference counting frees them)."""
    alive: list[list[bool]] = []

    def make(i: int):
        def run():
            alive.append([ref() is not None for ref in boxes])
            document, _ = render_one(page_html(i), ROOTS, ROOTS[0])
            boxes.append(weakref.ref(document.pages[0]._page_box))
            return document

        return run

    parts = [(1, make(i)) for i in range(3)]
    parts.append((0, lambda: alive))  # not a part: how the test reads what the parts saw
    return parts


def test_the_recorder_is_in_place_for_this_weasyprint():
    from weasyprint.document import Document

    assert layoutcontexts.install()
    assert getattr(Document._build_layout_context.__func__, "_printer_original", None) is not None
    assert layoutcontexts.install()  # once: not wrapped twice


def test_a_block_records_the_contexts_made_inside_it_and_release_empties_them():
    outer: list = []
    with layoutcontexts.recorded(outer):
        render_one(page_html(0), ROOTS, ROOTS[0])
        inner: list = []
        with layoutcontexts.recorded(inner):
            document, _ = render_one(page_html(1), ROOTS, ROOTS[0])
    assert len(outer) == 1 and len(inner) == 1  # a nested block records into its own list only
    render_one(page_html(2), ROOTS, ROOTS[0])
    assert len(outer) == 1  # nothing recorded outside a block
    context = inner[0]
    assert vars(context)
    layoutcontexts.release(inner)
    assert inner == [] and vars(context) == {}


@pytest.mark.slow
def test_a_chunk_s_boxes_are_freed_once_its_page_is_painted_without_the_collector():
    boxes: list = []
    *parts, (_, seen) = parts_recording(boxes)
    enabled = gc.isenabled()
    gc.collect()
    gc.disable()
    try:
        data, problems = stream_pdf(parts, "test")
        alive = seen()
    finally:
        if enabled:
            gc.enable()
    assert problems == [] and data.startswith(b"%PDF")
    # the first part is laid out before writing starts; when the third is laid out, the first two are painted
    assert alive[2] == [False, False]


@pytest.mark.slow
def test_the_pdf_is_the_same_byte_for_byte_with_the_layouts_released_or_left(monkeypatch):
    released, _ = stream_pdf(parts_recording([])[:3], "test")
    monkeypatch.setattr(layoutcontexts, "release", lambda contexts: None)
    left, _ = stream_pdf(parts_recording([])[:3], "test")
    assert released == left


def test_the_collector_is_set_for_layout_and_put_back_after():
    before = gc.get_threshold()
    assert gc.get_freeze_count() == 0
    with process.collector_for_layout():
        assert gc.get_threshold()[0] == 0  # no collection made by allocations
        assert gc.get_freeze_count() > 0  # what was alive before the batch is not walked again
        with process.collector_for_layout():  # a second batch on another thread
            assert gc.get_threshold()[0] == 0
        assert gc.get_threshold()[0] == 0  # the first is still laying out
    assert gc.get_threshold() == before
    assert gc.get_freeze_count() == 0


class Cycle:
    def __init__(self, alive: list) -> None:
        self.me = self
        alive.append(weakref.ref(self))


def test_a_painted_chunk_s_cycles_are_collected_while_a_batch_is_laid_out():
    refs: list = []
    with process.collector_for_layout():
        Cycle(refs)
        assert refs[0]() is not None  # no collection made by allocations
        process.chunk_painted()
        assert refs[0]() is None
    Cycle(refs)
    gc.disable()
    try:
        process.chunk_painted()  # outside a batch: nothing collected
        assert refs[1]() is not None
    finally:
        gc.enable()
        gc.collect()


@pytest.mark.slow
def test_a_batch_s_chunks_are_collected_as_they_are_painted(monkeypatch):
    painted: list[int] = []
    monkeypatch.setattr("printer.sheets.pdf.chunk_painted", lambda: painted.append(1))
    stream_pdf(parts_recording([])[:3], "test")
    assert len(painted) == 3
