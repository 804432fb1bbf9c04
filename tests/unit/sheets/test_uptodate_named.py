"""The up-to-date check's named files (printer.sheets.uptodate): a build is up to date only while every file its
faces named is as it was before the build read it."""

from __future__ import annotations

import os
from pathlib import Path

from printer.sheets.uptodate import named_before, recall, remember


class Store(dict):
    def set(self, key: str, value: str) -> None:
        self[key] = value


def _write(path: Path, text: str, tick: int) -> None:
    path.write_text(text, encoding="utf-8")
    os.utime(path, ns=(tick * 10**9, tick * 10**9))


def test_a_file_saved_while_the_build_ran_is_not_taken_for_the_one_it_printed(tmp_path):
    art, out = tmp_path / "art.png", tmp_path / "out.pdf"
    _write(art, "red", 1)
    _write(out, "pdf", 1)
    store = Store()
    remember(store, "k", "d", {"r": 1}, [out], [art])  # a first build: the art as it is after it
    assert recall(store, "k", "d") == {"r": 1}
    before = named_before(store, "k")  # the next build starts: the art as it is now
    _write(art, "blue", 2)  # saved while that build runs (it may have read either)
    remember(store, "k", "d", {"r": 2}, [out], [art], before)
    assert recall(store, "k", "d") is None  # the art is not as it was before that build: build again


def test_a_file_named_for_the_first_time_is_taken_as_it_is_after_the_build_and_a_missing_one_stays_missing(tmp_path):
    art, logo, out = tmp_path / "art.png", tmp_path / "gone.png", tmp_path / "out.pdf"
    _write(art, "red", 1)
    _write(out, "pdf", 1)
    store = Store()
    remember(store, "k", "d", {}, [out], [art, logo], named_before(store, "k"))
    assert recall(store, "k", "d") == {}  # the missing logo is still missing: up to date
    _write(logo, "now here", 2)
    assert recall(store, "k", "d") is None
    remember(store, "k", "d", {}, [out], [art, logo], named_before(store, "k"))
    assert recall(store, "k", "d") == {}
    _write(art, "blue", 3)
    assert recall(store, "k", "d") is None
    assert recall(store, "k", "other digest") is None
