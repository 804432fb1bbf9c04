"""Text that fits: find text boxes that overflow in a laid-out document and shrink their font.

WeasyPrint runs no scripts, so fitting happens between layouts. A template
marks a *fit box* with ``data-fit="<name>"`` (the card field it holds, e.g.
``text``) and its smallest allowed font size with ``data-fit-min`` (a CSS
length: ``4.5pt``, ``1.6mm``; default :data:`DEFAULT_MIN`). The box must
have a fixed size (``height`` or ``top`` + ``bottom``) and should clip
(``overflow: hidden``). Everything inside should be sized in ``em`` (inline
icons are ``1.05em``), so one font size scales the whole box.

`find_overflows` walks WeasyPrint's laid-out box tree (the internal
``Page._page_box``) and compares the bottom and right edge of the content
of every fit box with its padding box. :class:`FitSizes` keeps the chosen
font size of each fit box of each distinct face and writes it into the
face's HTML as an inline style on the fit box (:meth:`FitSizes.apply`)::

    <div class="text-box" data-fit="text" style="font-size: 5.40pt !important">

An inline style costs nothing to match; a CSS rule per face
(``.face[data-face="f3"] [data-fit="text"]``) is tested against every
element of the document, which made a 900-card build spend most of its time
matching selectors.

A box is shrunk to about ``size * sqrt(room / content)`` (text grows with
the square of its size: more lines, each taller), then checked again, the
next guesses halving the gap between the largest size seen to fit and the
smallest seen to overflow (a real 900-card build needs 3.3 layouts per shrunk
box on average, the first being the sheet itself); once it is at its
minimum and still overflows it is reported.
"""

from __future__ import annotations

import html as html_lib
import math
import re
from dataclasses import dataclass, field
from typing import Any

from markupsafe import Markup

PX_PER_PT = 4 / 3
PX_PER_MM = 96 / 25.4
DEFAULT_MIN = "4pt"
TOLERANCE_PX = 0.5
PRECISION = 0.15  # pt: how close the search gets to the largest size that fits
_LENGTH = re.compile(r"^\s*([0-9]*\.?[0-9]+)\s*(pt|px|mm|em)?\s*$")


@dataclass
class Overflow:
    """One fit box (``name``) of the face ``face`` whose content is larger than the box.

    ``ratio`` is content / room (> 1), over height or width whichever is
    worse; ``size_pt`` the font size it was laid out at; ``min_pt`` the
    smallest size the template allows.
    """

    face: str
    name: str
    ratio: float
    size_pt: float
    min_pt: float


def parse_min(text: str | None, size_pt: float) -> float:
    """``data-fit-min`` in pt (``em`` is relative to the box's own size); the default when absent or bad."""
    match = _LENGTH.match(text or DEFAULT_MIN) or _LENGTH.match(DEFAULT_MIN)
    assert match is not None  # DEFAULT_MIN matches
    value, unit = float(match.group(1)), match.group(2) or "pt"
    return {"pt": value, "px": value / PX_PER_PT, "mm": value * PX_PER_MM / PX_PER_PT, "em": value * size_pt}[unit]


def _extent(box: Any) -> tuple[float, float]:
    """The largest bottom and right edge (px) of the content inside ``box``."""
    bottom = right = -math.inf
    stack = list(getattr(box, "children", []) or [])
    while stack:
        child = stack.pop()
        try:
            b = child.border_box_y() + child.border_height()
            r = child.border_box_x() + child.border_width()
        except (AttributeError, TypeError):
            b = r = -math.inf
        if type(child).__name__ == "LineBox":
            # A line box is as wide as its block; its text is what counts.
            r = -math.inf
        bottom, right = max(bottom, b), max(right, r)
        stack.extend(getattr(child, "children", []) or [])
    return bottom, right


def find_overflows(document: Any) -> list[Overflow]:
    """Every overflowing fit box in a rendered WeasyPrint ``document``, once per (face, name)."""
    return page_overflows(document.pages)


def page_overflows(pages: Any) -> list[Overflow]:
    """Every overflowing fit box on the WeasyPrint ``pages`` (a list of laid-out pages), once per (face, name).

    Raises :class:`RuntimeError` when WeasyPrint does not expose its layout.
    """
    found: dict[tuple[str, str], Overflow] = {}
    for page in pages:
        root = getattr(page, "_page_box", None)
        if root is None:
            raise RuntimeError(
                "this WeasyPrint does not expose its layout (Page._page_box): text fitting is unavailable"
            )
        stack: list[tuple[Any, str | None]] = [(root, None)]
        while stack:
            box, face = stack.pop()
            element = getattr(box, "element", None)
            if element is not None and getattr(box, "element_tag", None) is not None and not _is_pseudo(box):
                face = element.get("data-face") or face
                name = element.get("data-fit")
                if name and face and (face, name) not in found:
                    over = _overflow(box, face, name)
                    if over is not None:
                        found[(face, name)] = over
                    continue
            stack.extend((child, face) for child in getattr(box, "children", []) or [])
    return list(found.values())


def _is_pseudo(box: Any) -> bool:
    return bool(getattr(box, "pseudo_type", None))


def _overflow(box: Any, face: str, name: str) -> Overflow | None:
    if not hasattr(box, "padding_box_y") or not isinstance(box.height, (int, float)):
        return None
    room_h = box.padding_height()
    room_w = box.padding_width()
    top, left = box.padding_box_y(), box.padding_box_x()
    bottom, right = _extent(box)
    ratio = 1.0
    if bottom > top + room_h + TOLERANCE_PX and room_h > 0:
        ratio = max(ratio, (bottom - top) / room_h)
    if right > left + room_w + TOLERANCE_PX and room_w > 0:
        ratio = max(ratio, (right - left) / room_w)
    if ratio <= 1.0:
        return None
    size_pt = box.style["font_size"] / PX_PER_PT
    return Overflow(face, name, ratio, size_pt, parse_min(box.element.get("data-fit-min"), size_pt))


@dataclass
class FitSizes:
    """Chosen font sizes (pt) per face key and fit box name, and the boxes that do not fit at their minimum.

    For each box it keeps the largest size known to fit (``lo``) and the
    smallest known to overflow (``hi``), and searches between them: a first
    guess from the overflow ratio, then halving, until they are within
    :data:`PRECISION` pt; the box then keeps ``lo``.
    """

    sizes: dict[tuple[str, str], float] = field(default_factory=dict)
    unfit: dict[tuple[str, str], Overflow] = field(default_factory=dict)
    #: per box, ``[lo, hi]`` (pt): ``lo`` a float or ``None`` until a size is known to fit, ``hi`` a float
    bounds: dict[tuple[str, str], list[Any]] = field(default_factory=dict)
    minimums: dict[tuple[str, str], float] = field(default_factory=dict)
    _applied: dict[str, tuple[tuple[str, str, tuple[tuple[str, float], ...]], Markup]] = field(
        default_factory=dict, repr=False
    )

    def shrink(self, overflows: list[Overflow], tried: set[str] | None = None) -> set[str]:
        """Record a layout's ``overflows`` (the faces ``tried`` were laid out at their current sizes).

        Returns the faces whose size changed, to lay out again.
        """
        changed: set[str] = set()
        over = {(o.face, o.name): o for o in overflows}
        for key, o in over.items():
            self.minimums[key] = o.min_pt
            bound = self.bounds.setdefault(key, [None, o.size_pt])
            bound[1] = min(bound[1], o.size_pt)
            if o.size_pt <= o.min_pt + 0.01:
                self.unfit[key] = o
                self.sizes[key] = o.min_pt
                continue
            self.unfit.pop(key, None)
            changed |= self._next(key, o.ratio)
        for key in list(self.bounds):
            if key in over or tried is None or key[0] not in tried or key not in self.sizes:
                continue
            bound = self.bounds[key]
            bound[0] = self.sizes[key] if bound[0] is None else max(bound[0], self.sizes[key])
            changed |= self._next(key, None)
        return changed

    def _next(self, key: tuple[str, str], ratio: float | None) -> set[str]:
        lo, hi = self.bounds[key]
        minimum = self.minimums.get(key, 0.0)
        if lo is not None and hi - lo <= PRECISION:
            self.sizes[key] = lo
            return set()
        if lo is None:
            guess = hi * (1 / ratio) ** 0.5 if ratio else hi - 0.5
            new = max(minimum, min(hi - PRECISION / 2, math.floor(guess * 20) / 20))
        else:
            new = round((lo + hi) / 2, 3)
        if key in self.sizes and abs(self.sizes[key] - new) < 0.001:
            return set()
        self.sizes[key] = new
        return {key[0]}

    def apply(self, face: str, html: Markup) -> Markup:
        """``html`` of the face ``face`` with the chosen size written on each of its fit boxes (inline style).

        The opening tag of each fit box gets ``font-size: <size>pt
        !important`` (added to its ``style`` attribute when it has one):
        above any stylesheet rule. Returns ``html`` itself when the face has
        no chosen size.
        """
        sizes = {name: size for (f, name), size in self.sizes.items() if f == face}
        if not sizes or "data-fit" not in html:
            return html
        key = (face, str(html), tuple(sorted(sizes.items())))
        cached = self._applied.get(face)
        if cached is not None and cached[0] == key:
            return cached[1]

        def tag(match: re.Match[str]) -> str:
            text = match.group(0)
            if "data-fit" not in text:
                return text
            attrs: dict[str, re.Match[str]] = {}
            for m in _ATTR.finditer(text, len(match.group(1)) + 1):
                attrs.setdefault(m.group(1).lower(), m)  # as HTML does, the first of a repeated attribute counts
            fit = attrs.get("data-fit")
            name = _unquote(fit.group(2)) if fit else None
            if name not in sizes:
                return text
            declaration = f"font-size: {sizes[name]:.2f}pt !important"
            style = attrs.get("style")
            if style is None:
                end = len(text) - (2 if text.endswith("/>") else 1)
                return f'{text[:end].rstrip()} style="{declaration}"{text[end:]}'
            value = (_unquote(style.group(2)) or "").strip().rstrip(";")
            value = f"{value}; {declaration}" if value else declaration
            return f'{text[: style.start()]} style="{value.replace(chr(34), "&quot;")}"{text[style.end() :]}'

        result = Markup(_TAG.sub(tag, str(html)))
        self._applied[face] = (key, result)
        return result


# An HTML start tag (group 1: its name) and its attributes (group 1: name, group 2: value as written).
_TAG = re.compile(r"""<([A-Za-z][^\s/>]*)(?:\s+[^\s"'>/=]+(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s"'=<>`]+))?)*\s*/?>""")
_ATTR = re.compile(r"""\s+([^\s"'>/=]+)(?:\s*=\s*("[^"]*"|'[^']*'|[^\s"'=<>`]+))?""")


def _unquote(value: str | None) -> str | None:
    if value is None:
        return None
    if value[:1] in "\"'" and value[-1:] == value[:1]:
        value = value[1:-1]
    return html_lib.unescape(value)
