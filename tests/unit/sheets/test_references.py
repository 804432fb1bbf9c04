"""The quick search for the files a face's HTML names finds exactly what the pattern finds everywhere."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from printer.sheets.cache import _REFERENCE, _references

PIECES = ["src", "SRC", "Href", "data", "url(", "URL(", "=", '"', "'", ")", " ", "a.png", "x y", "İ", "ß", "K", "-"]


@given(st.lists(st.sampled_from(PIECES) | st.text(max_size=3), max_size=30).map("".join))
def test_the_quick_search_finds_what_the_pattern_finds(text):
    assert _references(text) == _REFERENCE.findall(text)


def test_references_in_a_face():
    html = '<img SRC="icons/a.svg"><div data-fit="1" style="background: url(art/b.png)"><a href="#x">'
    assert _references(html) == [("icons/a.svg", ""), ("", "art/b.png"), ("#x", "")] == _REFERENCE.findall(html)
