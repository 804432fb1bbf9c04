"""The template filter ``spaceless`` drops the white space between two tags when one of them is a block-level tag,
and only there."""

from __future__ import annotations

import re

from hypothesis import given
from hypothesis import strategies as st

from printer.sheets.render import _BLOCK_TAGS, spaceless

#: the rule as one pattern tried at every character: a block-level tag and the white space after it, before a tag;
#: or white space after a ``>``, before a block-level tag
RULE = re.compile(rf"(</?{_BLOCK_TAGS}\b[^>]*>)\s+(?=<)|(?<=>)\s+(?=</?{_BLOCK_TAGS}\b)", re.IGNORECASE)

#: pieces of a face's HTML: block-level and inline tags, tags that only start like a block-level one, white space of
#: every kind, a stray ``<`` or ``>``, text
_HTML = st.lists(
    st.sampled_from(
        ["<div>", "</div>", "<p class='x'>", "</p>", "<DIV>", "<span>", "</span>", "<strong>", "<pre>", "<h1>",
         "<hr/>", "<divx>", "<li data-a='<'>", "<div <b>", "<img src='a.svg'>", " ", "  ", "\n", "\t", "\u00a0",
         "\u3000", "a", "b c", "<", ">", "&gt;"]
    ),
    max_size=16,
).map("".join)  # fmt: skip


def test_white_space_beside_a_block_tag_goes_and_between_inline_tags_stays():
    html = '<div class="card">\n  <header>\n    <span class="a">A</span> <em>b</em>\n  </header>\n</div> text'
    assert spaceless(html) == '<div class="card"><header><span class="a">A</span> <em>b</em></header></div> text'


@given(_HTML)
def test_spaceless_drops_what_the_rule_drops(html: str):
    assert str(spaceless(html)) == RULE.sub(lambda m: m.group(1) or "", html)
