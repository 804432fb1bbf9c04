"""An .xls workbook (not compressed) is checked against the workbook byte limit before calamine reads it."""

from __future__ import annotations

from printer.cards import sheet_size
from printer.cards.sheet_size import oversized_sheets


def test_an_xls_over_the_byte_limit_is_refused_before_it_is_loaded(tmp_path, monkeypatch):
    monkeypatch.setattr(sheet_size, "MAX_UNPACKED_BYTES", 1000)
    big = tmp_path / "crew.xls"
    big.write_bytes(b"\0" * 1001)
    (problem,) = oversized_sheets(big, lambda name: f"{name}!")
    assert problem.where == str(big) and problem.code == "too-large"
    assert "1,001 bytes, over the limit of 1,000 bytes" in problem.message


def test_an_xls_within_the_limit_is_left_to_the_reader(tmp_path, monkeypatch):
    monkeypatch.setattr(sheet_size, "MAX_UNPACKED_BYTES", 1000)
    small = tmp_path / "crew.xls"
    small.write_bytes(b"\0" * 1000)
    assert oversized_sheets(small, lambda name: f"{name}!") == []
    assert oversized_sheets(tmp_path / "missing.xls", lambda name: f"{name}!") == []
