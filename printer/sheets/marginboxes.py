"""A page none of whose margin boxes has content gets none, without sixteen empty ones being worked out first.

After laying a document out, WeasyPrint 70 makes the sixteen margin boxes of every page (``@top-left`` to
``@bottom-right-corner``, ``weasyprint.layout.page.make_margin_boxes``): each gets its style, its percentages
resolved and its size worked out, and only those whose ``content`` is other than ``normal``, ``inhibit`` or
``none`` are kept (generated). A card face sets no margin-box content, so every face page keeps none of them, yet
making them cost their styles' computed values and percentages: in a cold ``printer build --jobs 1`` of 900 real
cards (1,209 pages: the faces laid out and again after text fit, and the sheets' marks), profiled with cProfile,
that was 6 % of the build, for no box.

:func:`install` makes WeasyPrint's layout first read the one value that decides, each margin box's computed
``content`` (its style looked up as WeasyPrint's own code looks it up: the document's rule for that box, else the
page's anonymous style), and, when no box would be generated, give the page no margin boxes, which is what
WeasyPrint would have kept. A page with any margin box to generate (a rule such as ``@page { @top-center {
content: "..." } }``) is made by WeasyPrint as before. Any WeasyPrint other than :data:`WEASYPRINT` is left alone.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

#: the WeasyPrint version whose ``layout_document`` and ``make_margin_boxes`` this follows
WEASYPRINT = "70.0"
#: the at-keywords of the margin boxes WeasyPrint 70 makes for each page (CSS Paged Media 3, 5.1)
AT_KEYWORDS = tuple(
    f"@{side}-{place}"
    for side, places in (
        ("top", ("left", "center", "right")),
        ("bottom", ("left", "center", "right")),
        ("left", ("top", "middle", "bottom")),
        ("right", ("top", "middle", "bottom")),
    )
    for place in places
) + ("@top-left-corner", "@top-right-corner", "@bottom-left-corner", "@bottom-right-corner")

#: the computed values of ``content`` for which WeasyPrint 70 generates no margin box
_NOT_GENERATED = ("normal", "inhibit", "none")

_stats = {"skipped": 0, "made": 0}


def install() -> bool:
    """Make WeasyPrint's layout skip the margin boxes of a page that styles none (once a process).

    Returns whether the adapter is in place: False, and nothing changed, on a WeasyPrint other than
    :data:`WEASYPRINT` or one whose layout does not call ``make_margin_boxes`` as this expects.
    """
    import weasyprint
    import weasyprint.layout

    current = getattr(weasyprint.layout, "make_margin_boxes", None)
    if getattr(current, "_printer_original", None) is not None:
        return True
    if weasyprint.__version__ != WEASYPRINT or not callable(current):
        return False

    def make_margin_boxes(context: Any, page: Any, state: Any) -> Iterable[Any]:
        if not any_generated(context, page):
            _stats["skipped"] += 1
            return ()
        _stats["made"] += 1
        return current(context, page, state)  # type: ignore[no-any-return]

    make_margin_boxes._printer_original = current  # type: ignore[attr-defined]
    weasyprint.layout.make_margin_boxes = make_margin_boxes
    return True


def any_generated(context: Any, page: Any) -> bool:
    """Whether WeasyPrint would generate any margin box of ``page``: one whose computed ``content`` is other than
    ``normal``, ``inhibit`` or ``none``, its style looked up as WeasyPrint looks it up (True when that cannot be
    told)."""
    try:
        page_type = page.page_type
        for keyword in AT_KEYWORDS:
            style = context.style_for(page_type, keyword)
            if style is None:
                style = page.style.anonymous_style
            if style["content"] not in _NOT_GENERATED:
                return True
        return False
    except Exception:  # noqa: BLE001 (a page this adapter does not know: WeasyPrint makes its margin boxes)
        return True


def stats() -> dict[str, int]:
    """How many pages got no margin boxes without making them, and how many had them made (this process)."""
    return dict(_stats)
