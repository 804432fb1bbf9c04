"""The template filter ``spaceless``, and the part of its work done once when a template is compiled.

``{% filter spaceless %}...{% endfilter %}`` drops the white space between two tags when one of them is a
block-level tag (:func:`spaceless`). Most of that white space is the template's own text, the same on every face:
:func:`drop_static_gaps` drops it from the compiled template, where the filter would drop it anyway, so that the
filter finds little left to look at when each face renders (a card front's render spent 12 % of its time in the
filter before).
"""

from __future__ import annotations

import re

from jinja2 import nodes
from markupsafe import Markup

_BLOCK_TAGS = r"(?:div|p|header|footer|section|article|aside|main|nav|figure|figcaption|ol|ul|li|dl|dt|dd|table|thead|tbody|tfoot|tr|td|th|h[1-6]|hr|blockquote)"
#: a block-level tag's start (``<div``, ``</p``)
_BLOCK_TAG = re.compile(rf"</?{_BLOCK_TAGS}\b", re.IGNORECASE)
#: white space between a ``>`` and a ``<``
_GAP = re.compile(r">(\s+)(?=<)")


def spaceless(html: object) -> Markup:
    """The template filter ``spaceless``: ``{% filter spaceless %}...{% endfilter %}``.

    Drops the white space between two tags when one of them is a
    block-level tag (``div``, ``p``, ``header``, ``footer``, ``li``...):
    the layout drops such white space anyway, but WeasyPrint pays for every
    text node it holds (8 % of the time of a text-heavy card front). Space between
    inline tags (``</strong> <em>``) stays. Use it only where those tags are
    blocks: where CSS makes a ``p`` or ``div`` inline, the space beside it
    would be lost.

    The white space dropped is a whole run between a ``>`` and a ``<``: the next tag is a block-level one, or the
    ``>`` ends one (a block-level tag's start between the ``>`` before it and this one). Each such run is found
    by itself, not by trying a pattern at every character (a fifth of a card front's render, before).
    """
    return Markup(_gaps_dropped(str(html), whole=False))


def _ends_block_tag(text: str, close: int) -> bool:
    """Whether the ``>`` at ``close`` ends a block-level tag: a ``<`` that starts one lies between the ``>`` before
    it (or the text's start) and it."""
    opening = text.find("<", text.rfind(">", 0, close) + 1, close)
    while opening >= 0:
        if _BLOCK_TAG.match(text, opening):
            return True
        opening = text.find("<", opening + 1, close)
    return False


def static_gaps_dropped(text: str) -> str:
    """``text`` (a template's own text inside ``{% filter spaceless %}``) without the white space runs that
    :func:`spaceless` drops whatever the template writes around ``text``: those whose deciding tag lies whole
    within ``text`` (the next tag's name and the character after it; or the block-level tag's start the ``>``
    before the run ends). The other runs are left for the filter, which decides them on the whole output as
    before."""
    return _gaps_dropped(text, whole=True)


def _gaps_dropped(text: str, whole: bool) -> str:
    """``text`` without each white space run between a ``>`` and a ``<`` whose next tag is a block-level one (with
    ``whole``: only when that tag's name and the character after it lie within ``text``) or whose ``>`` ends one."""
    parts: list[str] = []
    at = 0
    for gap in _GAP.finditer(text):
        start, end = gap.span(1)
        block = _BLOCK_TAG.match(text, end)
        if (block is not None and (not whole or block.end() < len(text))) or _ends_block_tag(text, start - 1):
            parts.append(text[at:start])
            at = end
    parts.append(text[at:])
    return "".join(parts)


#: the statements whose output stays where they are inside a filter block: their template text is dropped from
#: too. Not macros, call blocks, ``{% set %}`` blocks, nested filters or ``{% block %}`` (whose output may go
#: elsewhere, or through another filter first)
_IN_PLACE = (nodes.If, nodes.For, nodes.With, nodes.Scope, nodes.ScopedEvalContextModifier)


def drop_static_gaps(tree: nodes.Template) -> None:
    """Drop, in ``tree`` (a parsed template), the white space that every ``{% filter spaceless %}`` block would
    drop from its own template text at each render (:func:`static_gaps_dropped`)."""
    for block in tree.find_all(nodes.FilterBlock):
        if block.filter.name == "spaceless" and not block.filter.args and not block.filter.kwargs:
            _drop_in(block.body)


def _drop_in(body: list[nodes.Node]) -> None:
    for node in body:
        if isinstance(node, nodes.Output):
            for child in node.nodes:
                if isinstance(child, nodes.TemplateData):
                    child.data = static_gaps_dropped(child.data)
        elif isinstance(node, _IN_PLACE):
            for field in ("body", "else_", "elif_"):
                _drop_in(getattr(node, field, None) or [])
