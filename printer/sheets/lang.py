"""The language of a face: a ``lang`` attribute on the root element of its HTML.

A build in one language (``printer build GAME --lang ja``) marks every face it renders with that language, so that
WeasyPrint picks the language's glyph forms for characters several scripts share (Japanese rather than Chinese
forms of the same Han character) and its line-breaking rules (no line starting with 。 or ）, the Japanese
*kinsoku* rules), and so that a game's stylesheet can choose fonts per language with ``:lang(ja)``. The attribute
is part of the face's HTML, so a face in one language never shares a cache entry with the same face in another
(:mod:`printer.sheets.cache` keys faces by their HTML).
"""

from __future__ import annotations

import re

from markupsafe import Markup, escape

#: what may come before a face's root element: white space, comments, and elements that print nothing
_LEAD = re.compile(
    r"(?:\s+|<!--.*?-->|<(style|script)\b[^>]*>.*?</\1\s*>|<(?:link|meta)\b[^>]*>)*",
    re.DOTALL | re.IGNORECASE,
)
_TAG = re.compile(r"<([A-Za-z][A-Za-z0-9:-]*)([^>]*)>")
_HAS_LANG = re.compile(r"(?:^|\s)(?:xml:)?lang\s*=", re.IGNORECASE)


def with_lang(html: str, lang: str) -> Markup:
    """``html`` (one face's markup) with ``lang="<lang>"`` on its root element: the first element after white space,
    comments and ``style``/``script``/``link``/``meta`` elements. A root element that already names its language
    keeps it; markup without any element is wrapped in a ``<div lang>``. ``lang`` is a language tag (``ja``,
    ``pt-BR``), escaped all the same."""
    lead = _LEAD.match(html)
    start = lead.end() if lead else 0
    tag = _TAG.match(html, start)
    value = str(escape(lang))
    if tag is None:
        return Markup(f'<div lang="{value}">{html}</div>')
    if _HAS_LANG.search(tag.group(2)):
        return Markup(html)
    at = tag.start() + 1 + len(tag.group(1))
    return Markup(f'{html[:at]} lang="{value}"{html[at:]}')
