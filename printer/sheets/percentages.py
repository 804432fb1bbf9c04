"""A box's used margins, paddings, sizes, borders and offsets worked out once for each set of computed values and
containing block, not again for every box that has them.

Before it lays a box out, WeasyPrint 70 turns the box's computed margins, paddings, width, height, their minimums
and maximums and its border widths into used values against its containing block
(``weasyprint.layout.percent.resolve_percentages``): eighteen values read from the style, each through two Python
calls, set on the box one by one, then adjusted for ``box-sizing``; a positioned box's ``left``, ``right``,
``top`` and ``bottom`` likewise (``resolve_position_percentages``). Faces of one card type have the same boxes with
the same styles in containing blocks of the same size, so the same values are worked out again on every face and
each time a box is laid out: a cold ``printer build --jobs 1`` of 900 real cards called the two 98,289 times for
150 distinct sets of values and containing blocks, in 11 % of py-spy's samples. With :func:`install`, the build
took 3.5 % less time.

What each function sets depends only on the computed values it reads, the size of the containing block and
whether the box is a page. :func:`install` puts in their place functions that read those values in one call and,
when each is a plain length or percentage, a keyword, a number or ``auto`` (not ``calc()``, whose result can
depend on other properties), look up what WeasyPrint set last time for the same values and containing block, and
set that; the first time, they let WeasyPrint work it out and keep what it set. A collapsing table's borders,
resolved by the table first, are left to WeasyPrint. What is kept is plain numbers and keywords, at most
:data:`KEPT` sets of them (then dropped and kept anew). The pages are the same byte for byte. Values are looked up
as Python compares them, so a zero written with a minus sign (``margin: -0.0mm``) finds what
a plain zero set, and the box gets ``0.0`` where WeasyPrint would keep ``-0.0``. The lengths are equal, and
pydyf, which writes WeasyPrint's PDFs, writes both as ``0``. Telling the two apart would cost every lookup a pass
over its values. Any WeasyPrint other than :data:`WEASYPRINT` is left alone.
"""

from __future__ import annotations

import operator
from collections.abc import Callable
from typing import Any

#: the WeasyPrint version whose ``resolve_percentages`` and ``resolve_position_percentages`` this follows
WEASYPRINT = "70.0"
#: the modules of WeasyPrint 70 that call them by the names they imported, and the names
CALLERS = {
    "resolve_percentages": ("absolute", "block", "column", "float", "grid", "inline", "page", "table"),
    "resolve_position_percentages": ("absolute", "block", "float"),
}
_SIDES = ("left", "right", "top", "bottom")
#: the attributes each function sets on a box (its used values), from the computed values of the same names
SET = {
    "resolve_percentages": (
        *(f"margin_{side}" for side in _SIDES),
        *(f"padding_{side}" for side in _SIDES),
        *("width", "min_width", "max_width", "height", "min_height", "max_height"),
        *(f"border_{side}_width" for side in ("top", "right", "bottom", "left")),
    ),
    "resolve_position_percentages": _SIDES,
}
#: the computed values each reads besides those: what decides how borders and sizes are used
ALSO_READ = {"resolve_percentages": ("box_sizing", "border_collapse"), "resolve_position_percentages": ()}
#: the most sets of values kept at once, for each function (150 in all in a build of 900 cards of one game; each
#: set about 1.5 kB)
KEPT = 4_000

_stats = {"kept": 0, "found": 0, "left": 0}


def install() -> bool:
    """Put the remembering functions in WeasyPrint's place (once a process). Returns whether they are in place:
    False, and nothing changed, on a WeasyPrint other than :data:`WEASYPRINT` or one whose layout modules do not
    call the two functions as this expects."""
    import importlib

    import weasyprint
    import weasyprint.layout.percent as percent

    if getattr(percent.resolve_percentages, "_printer_original", None) is not None:
        return True
    if weasyprint.__version__ != WEASYPRINT:
        return False
    callers = {name: [importlib.import_module(f"weasyprint.layout.{m}") for m in CALLERS[name]] for name in CALLERS}
    if any(getattr(m, name, None) is not getattr(percent, name) for name in CALLERS for m in callers[name]):
        return False
    for name, modules in callers.items():
        remembering = _remembering(getattr(percent, name), SET[name], ALSO_READ[name])
        setattr(percent, name, remembering)
        for module in modules:
            setattr(module, name, remembering)
    return True


def _remembering(
    current: Callable[[Any, Any], None], sets: tuple[str, ...], also: tuple[str, ...]
) -> Callable[[Any, Any], None]:
    """``current(box, containing_block)``, remembered: what it ``sets`` on a box, by the computed values of those
    names and of ``also``, the containing block's size and whether the box is a page."""
    from weasyprint.css.properties import Dimension
    from weasyprint.formatting_structure.boxes import Box, PageBox

    read = operator.itemgetter(*sets, *also)
    plain = frozenset((Dimension, str, int, float))  # a length or a percentage, a keyword, a number
    kept: dict[tuple[Any, ...], dict[str, Any]] = {}

    def remembering(box: Any, containing_block: Any) -> None:
        values = read(box.style)
        if "collapse" in values[len(sets) :] or not plain.issuperset(map(type, values)):
            _stats["left"] += 1
            current(box, containing_block)
            return
        if isinstance(containing_block, Box):
            size = (containing_block.width, containing_block.height)
        else:
            size = tuple(containing_block)
        key = (isinstance(box, PageBox), *size, *values)
        found = kept.get(key)
        if found is None:
            current(box, containing_block)
            if len(kept) >= KEPT:
                kept.clear()
            kept[key] = {name: getattr(box, name) for name in sets}
            _stats["kept"] += 1
        else:
            vars(box).update(found)
            _stats["found"] += 1

    remembering._printer_original = current  # type: ignore[attr-defined]
    return remembering
