"""A lighter user-agent stylesheet for documents that make no use of six of its pseudo-elements.

WeasyPrint 70's user-agent stylesheet (``weasyprint/css/html5_ua.css``) gives every element six
pseudo-elements: ``::marker``, ``::footnote-call``, ``::footnote-marker``, ``::note-call``,
``::note-marker`` and ``::note-callback``. WeasyPrint works out the style of each of them for every element
of a document, one by one (styles of pseudo-elements are never shared), though it makes a box of them only
for a list item (``::marker``), an element floated into a footnote (``float: footnote``) or one placed in a
note (``position: note(...)``). Counted on a cold build of 90 real cards of the largest example game:
21,996 of the 22,823 styles WeasyPrint worked out were these (3,839 in all without them). A cold build of
900 such cards with ``--jobs 1`` took 0.86x the time without them (median of 4 paired runs, 0.80-0.90x; peak
181 MiB against 195 MiB), the PDF the same byte for byte.

:func:`stylesheet` is WeasyPrint's own stylesheet with ``::marker`` kept to ``li`` (the only element it makes
a list item) and the five footnote and note rules left out; everything else is as WeasyPrint ships it.
:func:`suits` says whether a document can take it: neither its HTML (``<style>`` elements and ``style``
attributes included, read as written and with HTML character references and CSS escapes decoded) says
``footnote``, ``note(``, ``list-item``, ``@import`` or ``<base``, nor ``inherit`` when it has ``<li>`` elements
(a child can inherit ``display: list-item``); and no stylesheet is passed to the layout besides. Each stylesheet
file the document then reads is checked the same way as it is fetched (:func:`stylesheet_suits`, called by
:class:`printer.sheets.pdf.ProjectFetcher`): one that fails stops the layout, which starts again with
WeasyPrint's own stylesheet, as does a layout that fails for any other reason. A WeasyPrint whose stylesheet
does not hold those six rules as written always gets its own.
"""

from __future__ import annotations

import functools
import html
import re
from typing import Any

#: what, in a document or a stylesheet, may need the rules the lighter stylesheet leaves out (or hides text); looked
#: for in the text lower-cased (CSS keywords and HTML tag names are ASCII case-insensitive), which is three times
#: as fast as a case-insensitive search
_NEEDS_FULL = re.compile(r"footnote|note\(|list-item|@import|<base\b")
_LIST_ITEMS = re.compile(r"<li[\s/>]", re.IGNORECASE)
_CSS_ESCAPE = re.compile(r"\\([0-9a-fA-F]{1,6})[ \t\n\r\f]?|\\(.)", re.DOTALL)
#: the encodings a stylesheet may declare and still be read here as written (ASCII-compatible)
_CHARSET = re.compile(rb'@charset\s*"(utf-8|us-ascii|iso-8859-1|latin-?1|windows-1252)"', re.IGNORECASE)
_PSEUDO_RULES = ("footnote-call", "footnote-marker", "note-call", "note-marker", "note-callback")


def _decoded(text: str) -> str:
    """``text`` with CSS escapes (``\\6e``, ``\\n``) replaced by the characters they stand for."""

    def one(match: re.Match[str]) -> str:
        escaped: str | None = match.group(2)
        if escaped is not None:
            return escaped
        code = int(match.group(1), 16)
        return chr(code) if 0 < code <= 0x10FFFF else "\ufffd"

    return _CSS_ESCAPE.sub(one, text)


def _needs_full(text: str, list_items: bool) -> bool:
    for form in dict.fromkeys((text, _decoded(text))):  # once when nothing is escaped
        lowered = form.lower()
        if _NEEDS_FULL.search(lowered) is not None or (list_items and "inherit" in lowered):
            return True
    return False


#: a document's HTML with its character references decoded (:func:`suits` and :func:`has_list_items` both read it)
_unescaped = functools.lru_cache(maxsize=2)(html.unescape)


def suits(document: str, options: dict[str, Any] | None = None) -> bool:
    """Whether the HTML ``document`` may be laid out with :func:`stylesheet` (see the module's docstring);
    ``options``: the keyword arguments the layout gets (a ``stylesheets`` argument means no)."""
    if options and options.get("stylesheets"):
        return False
    list_items = has_list_items(document)
    unescaped = _unescaped(document)  # the document itself when it has no character reference
    return not (_needs_full(document, list_items) or (unescaped != document and _needs_full(unescaped, list_items)))


def has_list_items(document: str) -> bool:
    """Whether the HTML ``document`` has ``<li>`` elements (its stylesheets must then not say ``inherit``)."""
    return _LIST_ITEMS.search(_unescaped(document)) is not None


@functools.lru_cache(maxsize=64)  # the same few stylesheets are read for every document of a build
def stylesheet_suits(body: bytes, list_items: bool) -> bool:
    """Whether the stylesheet file ``body`` leaves a document laid out with :func:`stylesheet` as it would be
    with WeasyPrint's own (``list_items``: the document has ``<li>`` elements). A body that is not in an
    ASCII-compatible encoding (a byte-order mark, a NUL byte, another ``@charset``) does not."""
    if b"\x00" in body or body.startswith((b"\xfe\xff", b"\xff\xfe")):
        return False
    if b"@charset" in body.lower() and _CHARSET.search(body) is None:
        return False
    return not _needs_full(body.decode("utf-8", errors="replace"), list_items)


@functools.cache
def stylesheet() -> Any:
    """The lighter user-agent stylesheet (a ``weasyprint.CSS``, parsed once per process), or ``None`` when the
    installed WeasyPrint's stylesheet does not hold the six rules as this module expects them."""
    import weasyprint
    from weasyprint import html as weasy_html
    from weasyprint.css.counters import CounterStyle

    text = getattr(weasy_html, "UA", None)
    if not isinstance(text, str):
        return None
    lighter, markers = re.subn(r"(?m)^::marker \{", "li::marker {", text)
    removed = 0
    for name in _PSEUDO_RULES:
        lighter, n = re.subn(rf"(?m)^::{name} \{{[^}}]*\}}\n", "", lighter)
        removed += n
    if markers != 1 or removed != len(_PSEUDO_RULES) or re.search(r"(?m)^::", lighter):
        return None
    # its @counter-style rules go to a dictionary of their own: WeasyPrint lays out with its own copy of them
    # (``HTML._ua_counter_style``), and refuses to define disc and decimal twice in one
    return weasyprint.CSS(string=lighter, counter_style=CounterStyle())
