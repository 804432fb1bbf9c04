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
attributes included) nor any stylesheet it links says ``footnote``, ``note(``, ``list-item``, ``@import`` or
``<base``, read after HTML character references and CSS escapes are decoded; every linked stylesheet is a
file under the document's allowed roots; and no stylesheet is passed to the layout besides. Any other
document, or a WeasyPrint whose stylesheet does not hold those six rules as written, gets WeasyPrint's own.
"""

from __future__ import annotations

import functools
import html
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urljoin, urlparse
from urllib.request import url2pathname

#: what, in a document or a stylesheet, may need the rules the lighter stylesheet leaves out (or hides text)
_NEEDS_FULL = re.compile(r"footnote|note\(|list-item|@import|<base\b", re.IGNORECASE)
_CSS_ESCAPE = re.compile(r"\\([0-9a-fA-F]{1,6})[ \t\n\r\f]?|\\(.)", re.DOTALL)
_LINK = re.compile(r"<link\b[^>]*>", re.IGNORECASE)
_HREF = re.compile(r"""\bhref\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))""", re.IGNORECASE)
_PSEUDO_RULES = ("footnote-call", "footnote-marker", "note-call", "note-marker", "note-callback")
#: verdicts on stylesheet files, by (path, mtime in ns, size)
_files: dict[tuple[str, int, int], bool] = {}
_MAX_FILES = 256


def _decoded(text: str) -> str:
    """``text`` with CSS escapes (``\\6e``, ``\\n``) replaced by the characters they stand for."""

    def one(match: re.Match) -> str:
        if match.group(2) is not None:
            return match.group(2)
        code = int(match.group(1), 16)
        return chr(code) if 0 < code <= 0x10FFFF else "\ufffd"

    return _CSS_ESCAPE.sub(one, text)


def _needs_full(text: str) -> bool:
    return _NEEDS_FULL.search(text) is not None or _NEEDS_FULL.search(_decoded(text)) is not None


def _file_needs_full(path: Path) -> bool:
    """Whether the stylesheet file at ``path`` may need WeasyPrint's full stylesheet (``True`` when unreadable)."""
    try:
        stat = path.stat()
        key = (str(path), stat.st_mtime_ns, stat.st_size)
        verdict = _files.get(key)
        if verdict is None:
            verdict = _needs_full(path.read_bytes().decode("utf-8", errors="replace"))
            if len(_files) >= _MAX_FILES:
                _files.clear()
            _files[key] = verdict  # shared by the threads of a process: each reads and writes whole entries
        return verdict
    except OSError:
        return True


def suits(document: str, base_url: str, roots: Sequence[Path], options: dict[str, Any] | None = None) -> bool:
    """Whether the HTML ``document`` (its links resolved against ``base_url``; linked files looked for under
    ``roots``) can be laid out with :func:`stylesheet` and look the same (see the module's docstring).
    ``options``: the keyword arguments the layout gets (a ``stylesheets`` argument means no)."""
    if options and options.get("stylesheets"):
        return False
    text = html.unescape(document)
    if _needs_full(text):
        return False
    resolved = [Path(r).resolve() for r in roots]
    for tag in _LINK.findall(text):
        found = _HREF.search(tag)
        if found is None or "stylesheet" not in tag.lower():
            continue
        url = urlparse(urljoin(base_url, next(g for g in found.groups() if g is not None)))
        if url.scheme != "file":
            return False  # a stylesheet this does not read (WeasyPrint reads or refuses it)
        path = Path(url2pathname(unquote(url.path))).resolve()
        if not any(path.is_relative_to(root) for root in resolved) or _file_needs_full(path):
            return False
    return True


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
