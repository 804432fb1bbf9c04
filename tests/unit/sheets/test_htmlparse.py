"""tinyhtml5 with the table of expressions :mod:`printer.sheets.htmlparse` gives it parses every document into the
same tree as with its own, and makes each expression once."""

from __future__ import annotations

import xml.etree.ElementTree as ElementTree
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from hypothesis import given
from hypothesis import strategies as st

tinyhtml5 = pytest.importorskip("tinyhtml5")
import tinyhtml5.inputstream as stream  # noqa: E402

import printer.sheets.pdf  # noqa: E402, F401  installs the adapters, this one among them
from printer.sheets import htmlparse  # noqa: E402

pytestmark = pytest.mark.skipif(
    getattr(tinyhtml5, "__version__", None) != htmlparse.TINYHTML5, reason="the adapter follows tinyhtml5 2.1.0"
)

#: a sheet's document as printer makes them, with what sends the tokenizer through its other states
DOCUMENT = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>A &amp; B</title>
<style>printer-face { display: block } p > b { color: red }</style></head>
<body>
<printer-sheet class="printer-sheet printer-front" data-sheet="1">\r\n
  <printer-face class='printer-face printer-g0' data-card=f1>
    <div class="card l5r"><header class="title-bar"><span class="title">Hida&nbsp;Kisada &mdash; &#8220;Crab&#x201D;</span></header>
    <!-- a comment -- with dashes -->
    <div class="text-box" data-fit="text"><p>Open: &quot;Gain 2&quot; &lt;Honor&gt;<br>Battle: <b>bow</b> a target.</p>
    <textarea>&lt;kept&gt; <b>as text</b></textarea><script>if (a < b && c > d) {}</script>
    <svg viewBox="0 0 10 10"><![CDATA[ raw ]]><line x1="1" y1="2"/></svg>
    <img src="art.png" alt="An &#x27;image&#x27;"><table><tr><td>cell</table>
  </printer-face>
</printer-sheet>
</body></html>"""


@contextmanager
def own_table() -> Iterator[None]:
    """tinyhtml5's own table (a plain dict) while inside."""
    adapted = stream.characters_until_regex
    stream.characters_until_regex = {}
    try:
        yield
    finally:
        stream.characters_until_regex = adapted


def tree(html: str) -> str:
    return ElementTree.tostring(tinyhtml5.parse(html, namespace_html_elements=False), encoding="unicode")


def test_it_is_in_place_once_printer_lays_out():
    assert isinstance(stream.characters_until_regex, htmlparse._Expressions)
    assert htmlparse.install()  # a second call keeps the table, with what it holds


def test_a_sheets_document_parses_into_the_same_tree():
    adapted = tree(DOCUMENT)
    with own_table():
        own = tree(DOCUMENT)
    assert adapted == own
    assert "Hida\u00a0Kisada \u2014 \u201cCrab\u201d" in adapted  # the entities were read


def test_each_expression_is_made_once():
    tree(DOCUMENT)
    made = dict(stream.characters_until_regex)
    assert made and all(not hasattr(characters, "pattern") for characters, _ in made)  # keyed by the characters
    tree(DOCUMENT)
    assert stream.characters_until_regex == made
    assert all(stream.characters_until_regex[key] is made[key] for key in made)


@given(st.text(alphabet="<>/=&;#'\"!-?abp x\r\n\t\x00\x0c&amp;", max_size=80))
def test_any_text_parses_into_the_same_tree(html: str):
    adapted = tree(html)
    with own_table():
        own = tree(html)
    assert adapted == own
