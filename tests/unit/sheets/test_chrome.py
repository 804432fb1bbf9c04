"""The sheets' chrome (marks, guides, labels: the sheets without their faces), laid out a document at a time."""

from __future__ import annotations

import gc
import weakref
from pathlib import Path
from types import SimpleNamespace

import pytest

REPO = Path(__file__).resolve().parents[3]


def test_each_chrome_document_is_freed_before_the_next_is_laid_out(tmp_path, monkeypatch):
    import printer.sheets.output.chrome as chrome_step
    import printer.sheets.pdf as pdf
    from printer.cli import main

    monkeypatch.setattr(chrome_step, "CHROME_PER_CHUNK", 1)  # one document a sheet of the bundled L5R cards
    boxes: list[weakref.ref] = []
    alive: list[int] = []  # how many earlier documents' boxes were alive as each document was asked for
    render, chrome_pdf = pdf.render_documents, chrome_step.chrome_pdf

    def counted(*args, **kwargs):
        alive.append(sum(ref() is not None for ref in boxes))
        documents, warnings = render(*args, **kwargs)
        boxes.append(weakref.ref(documents[0].pages[0]._page_box))  # a page's boxes refer to each other
        return documents, warnings

    def chrome(*args, **kwargs):
        with monkeypatch.context() as patch:
            patch.setattr(pdf, "render_documents", counted)
            return chrome_pdf(*args, **kwargs)

    monkeypatch.setattr(chrome_step, "chrome_pdf", chrome)
    frozen, enabled = gc.get_freeze_count(), gc.isenabled()
    gc.disable()  # only the build's own collections free them
    try:
        with pytest.raises(SystemExit) as done:
            main(["--project", str(REPO), "build", "l5r", "--out", str(tmp_path), "--no-cache", "--jobs", "1"])
    finally:
        if enabled:
            gc.enable()
    assert done.value.code == 0
    assert len(boxes) >= 4 and alive == [0] * len(boxes)
    assert all(ref() is None for ref in boxes)
    assert gc.get_freeze_count() == frozen  # what was frozen while the documents were laid out is unfrozen


class Cycle:
    def __init__(self) -> None:
        self.me = self


def test_garbage_is_collected_not_frozen_and_the_collector_unfrozen_when_a_chrome_document_fails(monkeypatch):
    import printer.sheets.output.chrome as chrome_step
    import printer.sheets.pdf as pdf

    def fails(*args, **kwargs):
        assert gc.get_freeze_count() > 0  # the objects alive before are not walked by each collection
        assert left() is None  # garbage made before was collected, not frozen with them
        raise RuntimeError("layout failed")

    monkeypatch.setattr(pdf, "render_documents", fails)
    from printer.sheets.engine.documents import Engine

    job = SimpleNamespace(engine=Engine([], REPO))
    frozen, enabled = gc.get_freeze_count(), gc.isenabled()
    gc.disable()  # only the chrome's own collections free it
    try:
        left = weakref.ref(Cycle())  # garbage only the cyclic collector frees
        assert left() is not None
        with pytest.raises(RuntimeError, match="layout failed"):
            chrome_step.chrome_pdf(job, ["<p>sheet</p>"], "build")
    finally:
        if enabled:
            gc.enable()
    assert gc.get_freeze_count() == frozen


def test_a_freeze_made_before_is_left_and_builds_at_once_share_one(monkeypatch):
    import printer.process as process

    gc.freeze()  # a program using printer froze its objects (before forking, say)
    try:
        before = gc.get_freeze_count()
        with process.objects_frozen():
            assert gc.get_freeze_count() == before  # nothing more frozen
        assert gc.get_freeze_count() == before  # and theirs not unfrozen
    finally:
        gc.unfreeze()
    with process.objects_frozen():
        frozen = gc.get_freeze_count()
        assert frozen > 0
        with process.objects_frozen():  # a second build on another thread
            assert gc.get_freeze_count() == frozen
        assert gc.get_freeze_count() == frozen  # the first is still laying out: still frozen
    assert gc.get_freeze_count() == 0
