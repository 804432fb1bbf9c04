"""Computed values worked out once per process for styles alike, not again in every document.

WeasyPrint 70 works a style's computed values out lazily, one property at a time, the first time something reads
it (``weasyprint.css.ComputedStyle.__missing__``). Within a document it gives elements styled alike one computed
style, but each document starts afresh, and every page gets new styles for itself and its margin boxes. printer
lays a build out as many documents of faces styled alike (chunks of a batch, text-fit rounds, the sheets' marks),
so the same values were worked out in each: a cold ``printer build --jobs 1`` of 900 real cards made 28,323
computed styles (24,200 of them its 1,210 pages') and worked 637,942 values out, a tenth of its time.

A computed value depends on the style's cascaded declarations and pseudo-element, the document's base URL and
font configuration, its parent's computed values (through them the root's), for viewport units the size of the
document's first page, and for units such as ``ex`` and ``ch`` the font's metrics. :func:`install` gives each new
computed style a :class:`Record`, shared by the styles of any document of the process with the same declarations
and pseudo-element under a parent with the same record (the root's: with the same declarations, base URL and font
configuration). A value a style works out goes into its record, with its specified value for ``position``,
``float`` and ``display``, which later values read; a style of the same record takes it from there. A style gets
no record, and so none of the styles below it does, when:

- it is a ``::first-line`` or ``::first-letter`` style (WeasyPrint copies the values of these worked out so far,
  so which are worked out must not change);
- a declaration of it names a viewport unit (WeasyPrint's ``VIEWPORT_UNITS``), or a font-relative unit other than
  ``em`` and ``rem``, which reads the font's metrics (a font a watched project changes keeps the same font
  configuration); a custom property written in them is inherited by the styles below, and turned into lengths
  there.

Declarations are compared by value (a shorthand's lists item by item; values Python holds equal, such as ``1``
and ``1.0`` or ``0`` and ``-0.0`` in two stylesheets, are one, and the second style gets the first's computed
value: the same length, which pydyf writes alike in the PDF), and by identity where WeasyPrint's parsed values
compare by identity (tinycss2's tokens: the stylesheets kept by :mod:`printer.sheets.stylesheets` keep
theirs), each value through the identity of one canonical form kept for it; their weights are compared only where
a logical property is declared, the one place WeasyPrint reads a weight once the cascade is done (to choose
between a logical property and its physical one). A value whose working out logged a warning is not recorded,
so each document logs it as before; a value layout writes into a style (the root's ``overflow`` given to the
viewport, a page's counters) is not recorded either: only what ``__missing__`` works out is. At most :data:`KEPT`
records and :data:`COMPARED` values are kept, then all are dropped and made anew.

In the cold build above, 498,752 values came from 691 records and 56,757 were worked out; the build took 0.93x
the time with ``--jobs 1`` and 0.95x with the default jobs (medians of 8 runs in turns), and its process's peak
memory grew by 2 MiB. The pages are the same byte for byte (``tests/unit/sheets/test_computedstyles.py``; the
example games' and those 900 cards' PDFs compared page by page). Any WeasyPrint other than :data:`WEASYPRINT` is
left alone.
"""

from __future__ import annotations

import logging
import re
import threading
from typing import Any

#: the WeasyPrint version whose ``StyleFor.set_computed_styles`` and ``ComputedStyle.__missing__`` this follows
WEASYPRINT = "70.0"
#: the most records kept at once (a cold build of 900 real cards makes 691; the example games' ten card sets
#: in one process, 11,562)
KEPT = 5_000
#: the most cascaded values kept with the identity of their canonical form at once (more, by one style's, until
#: the next style is given its record)
COMPARED = 20_000
#: pseudo-elements whose styles are never recorded: WeasyPrint copies the values worked out so far of these
NOT_RECORDED = frozenset({"first-line", "first-letter"})
#: the font-relative units that depend on the font size alone (the others read the font's metrics: ``ex``,
#: ``ch``, ``cap``, ``ic``, ``lh`` and their root forms)
SIZE_UNITS = frozenset({"em", "rem"})
#: the properties whose specified value WeasyPrint keeps beside the computed one (``ComputedStyle.specified``)
SPECIFIED = frozenset({"position", "float", "display"})

_NONE = object()
#: the logical properties WeasyPrint 70 weighs against their physical ones (``PHYSICAL_FUNCTIONS``), set by install
_logical: frozenset[str] = frozenset()
_ROOT = ("root",)
_LIST = ("list",)
_stats = {"records": 0, "found": 0, "worked out": 0}
_lock = threading.Lock()  # the records are shared by the threads of a process: a key is made and kept under it


class _Same:
    """A value that does not compare by value (neither hashable nor a tuple or a list), compared by identity; holds
    it, so that its identity is not reused while it is kept."""

    __slots__ = ("value",)

    def __init__(self, value: Any) -> None:
        self.value = value

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Same) and other.value is self.value

    def __hash__(self) -> int:
        return id(self.value)


def _identity(value: Any) -> Any:
    """``value`` (a cascaded value or weight, or part of one) made to compare: itself when it hashes, a tuple's or
    a list's items each made to compare (a list's marked as a list), anything else by identity."""
    try:
        hash(value)
    except TypeError:
        if type(value) is tuple:
            return tuple(_identity(item) for item in value)
        if type(value) is list:
            return (_LIST, *(_identity(item) for item in value))
        return _Same(value)
    return value


def _declared(cascaded: dict[str, tuple[Any, Any]], weights: bool) -> tuple[Any, ...]:
    """A style's cascaded declarations (property -> ``(value, weight)``) as one flat tuple of each property and the
    identity of its value's canonical form (:func:`_identity`, kept in :data:`_canonical`; found again by the
    value's own identity once seen), with each weight when ``weights``."""
    items: list[Any] = []
    for name, (value, weight) in cascaded.items():
        known = _comparable.get(id(value))
        if known is None or known[0] is not value:
            form = _identity(value)
            known = _comparable[id(value)] = (value, id(_canonical.setdefault(form, form)))
        items += (name, known[1], _identity(weight)) if weights else (name, known[1])
    return tuple(items)


def _forget() -> None:
    """Drop every record and every canonical form (together: the records' keys hold the forms' identities)."""
    _records.clear()
    _comparable.clear()
    _canonical.clear()


class Record:
    """The computed values worked out so far for the styles of one key (property -> value), and the specified
    values of those of :data:`SPECIFIED` among them."""

    __slots__ = ("values", "specified")

    def __init__(self) -> None:
        self.values: dict[str, Any] = {}
        self.specified: dict[str, Any] = {}


_records: dict[tuple[Any, ...], Record | None] = {}
#: the canonical form of each value seen (:func:`_identity`): a key names a value by its form's identity
_canonical: dict[Any, Any] = {}
#: id of a cascaded value seen -> (the value, the identity of its canonical form)
_comparable: dict[int, tuple[Any, int]] = {}


class _Warnings(logging.Filter):
    """Counts the warnings WeasyPrint logs (passing every record on)."""

    count = 0

    def filter(self, record: logging.LogRecord) -> bool:
        if record.levelno >= logging.WARNING:
            _Warnings.count += 1
        return True


def install() -> bool:
    """Have WeasyPrint's computed styles share their values through records (once a process). Returns whether it
    is in place: False, and nothing changed, on a WeasyPrint other than :data:`WEASYPRINT`."""
    import weasyprint
    import weasyprint.css as css
    from weasyprint.css.computed_values import PHYSICAL_FUNCTIONS
    from weasyprint.css.units import FONT_UNITS, VIEWPORT_UNITS
    from weasyprint.logger import LOGGER

    missing = css.ComputedStyle.__dict__.get("__missing__")
    if getattr(missing, "_printer_original", None) is not None:
        return True
    set_computed = css.StyleFor.__dict__.get("set_computed_styles")
    if weasyprint.__version__ != WEASYPRINT or missing is None or set_computed is None:
        return False
    global _logical
    _logical = frozenset(
        logical(block="ttb", inline=inline).replace("-", "_")
        for logical in PHYSICAL_FUNCTIONS.values()
        for inline in ("ltr", "rtl")
    )
    units = "|".join(sorted(VIEWPORT_UNITS | (FONT_UNITS - SIZE_UNITS), key=len, reverse=True))
    per_document = re.compile(rf"(?<![A-Za-z])(?:{units})\b")  # a unit whose length depends on the document
    LOGGER.addFilter(_Warnings())

    def set_computed_styles(self: Any, element: Any, parent: Any, root: Any = None, pseudo_type: Any = None,
                            base_url: Any = None, target_collector: Any = None) -> None:  # fmt: skip
        set_computed(self, element, parent, root, pseudo_type, base_url, target_collector)
        computed = self._computed_styles.get((element, pseudo_type))
        if computed is not None:
            computed._printer_record = _record_for(computed, per_document)

    def computed_value(self: Any, key: str) -> Any:
        record = self.__dict__.get("_printer_record")
        if record is None:
            return missing(self, key)
        if key == "float":
            self["position"]  # as WeasyPrint does: the specified position first
        elif key == "display":
            self["float"]
        value = record.values.get(key, _NONE)
        if value is not _NONE:
            if key in record.specified:
                self.specified[key] = record.specified[key]
            self[key] = value
            _stats["found"] += 1
            return value
        warned = _Warnings.count
        value = missing(self, key)
        if _Warnings.count == warned:
            record.values[key] = value
            if key in SPECIFIED and key in self.specified:
                record.specified[key] = self.specified[key]
        _stats["worked out"] += 1
        return value

    computed_value._printer_original = missing  # type: ignore[attr-defined]
    set_computed_styles._printer_original = set_computed  # type: ignore[attr-defined]
    css.ComputedStyle.__missing__ = computed_value
    css.StyleFor.set_computed_styles = set_computed_styles
    return True


def _record_for(computed: Any, per_document: re.Pattern[str]) -> Record | None:
    """The record ``computed`` (a fresh ``ComputedStyle``) shares with the styles alike, made when it is the first;
    ``None`` when it may not have one (``per_document`` finds the units whose lengths a document decides)."""
    if computed.pseudo_type in NOT_RECORDED:
        return None
    parent = computed.parent_style
    above = _ROOT if parent is None else parent.__dict__.get("_printer_record")
    if above is None:
        return None
    cascaded = computed.cascaded
    weights = not _logical.isdisjoint(cascaded)  # a weight decides between a logical and a physical property
    with _lock:  # no other thread drops the forms whose identities the key holds until it is kept
        if len(_records) >= KEPT or len(_comparable) >= COMPARED:
            _forget()
        key = (above, computed.pseudo_type, computed.base_url, computed.font_config, _declared(cascaded, weights))
        record = _records.get(key, _NONE)
        if record is not _NONE:
            return record  # type: ignore[return-value]
        made = None if per_document.search(repr([value for value, _ in cascaded.values()])) else Record()
        _records[key] = made
        _stats["records"] += 1
        return made
