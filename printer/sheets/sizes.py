"""Bounds on the strings and lists a sandboxed template may build, so that no template can exhaust memory.

A template can make a string grow fast without printing it: ``s|replace('x', 'y' * 3000)``, or
``{% set ns.s = ns.s ~ ns.s %}`` in a loop (64 doublings is 2**64 characters). :class:`~printer.sheets.sandbox.
TemplateSandbox` sends every value a template makes through this module:

- :func:`produced` checks each string and list an expression gives (a ``~`` concatenation, a filter's or a
  method's result, ``+``, ``*``, ``%``, a slice): no string over :data:`MAX_STRING` characters, no list over
  :data:`MAX_ITEMS` items, and no more than :data:`MAX_PRODUCED` characters made by one render in all (strings
  made and dropped count too, so a loop that keeps many large strings, or many copies of one, is stopped as
  well). What makes no new string is not counted: a read of a dict (``card.get('cost')``) and the few filters
  that give an argument back or a number (``default``, ``length``...); each item ``map`` makes is counted;
- the operations whose result is much larger than their arguments (``replace``, ``join``, ``center``, ``indent``,
  ``wordwrap``, format widths such as ``'%999999999d'``, ``list.extend``...) are checked before they run, from
  their arguments, so that the large string is never allocated;
- a list, tuple, dict or ``namespace()`` written out as text (``{{ value }}``, ``~``, ``string``, ``tojson``,
  ``pprint``, a format's value...) is weighed first (:func:`text_size`, :func:`weighed`): 5,000 references to one
  long string take little memory, but not once written out;
- :class:`BoundedBuffer` is the list a template's ``{% set %}`` block, macro or call block collects its output in:
  it counts what is appended (the block's result is then counted as a string produced when it is used).

Every refusal is a :class:`RenderLimit` raised inside the template's code, so the problem is located at the
template's line (:func:`printer.sheets.sandbox.template_problem`).
"""

from __future__ import annotations

import functools
import re
import string
import threading
from collections.abc import Callable, Iterator
from typing import Any

from jinja2.exceptions import SecurityError
from jinja2.utils import Namespace

#: the longest string one template expression may produce, characters
MAX_STRING = 10_000_000
#: the longest list a template may build (``append``, ``extend``, ``+``), items
MAX_ITEMS = 1_000_000
#: the characters one render may produce in all, kept or not (strings made by expressions, output collected)
MAX_PRODUCED = 200_000_000


class RenderLimit(SecurityError):
    """A template went past a limit: too much output, too large a string, or too long."""


class _Budget(threading.local):
    used = 0


_BUDGET = _Budget()


class budget_scope:  # noqa: N801 (used as a function: ``with budget_scope():``)
    """One render's count of characters produced: starts at 0, and is added to an enclosing render's count when
    it ends (a template helper that renders another template cannot reset its caller's count)."""

    def __enter__(self) -> None:
        self._saved = _BUDGET.used
        _BUDGET.used = 0

    def __exit__(self, *exc: object) -> None:
        _BUDGET.used += self._saved


def _too_long(size: int) -> RenderLimit:
    return RenderLimit(f"the template produced a string over {MAX_STRING:,} characters ({size:,})")


def produced(value: Any) -> Any:
    """``value`` (anything an expression gave), after checking a string or list against the limits."""
    if isinstance(value, str):
        size = len(value)
        if size > MAX_STRING:
            raise _too_long(size)
        budget = _BUDGET  # the charge inlined: this runs for every ``~``, filter and call of a render
        budget.used += size
        if budget.used > MAX_PRODUCED:
            raise RenderLimit(f"the template produced more than {MAX_PRODUCED:,} characters in all")
    elif isinstance(value, list) and len(value) > MAX_ITEMS:
        raise RenderLimit(f"the template built a list of more than {MAX_ITEMS:,} items")
    return value


def expect(size: int) -> None:
    """Refuse, before it is made, a string of ``size`` characters over :data:`MAX_STRING`."""
    if size > MAX_STRING:
        raise _too_long(size)


class BoundedBuffer(list[str]):
    """The list a template block collects its output in, refusing more than :data:`MAX_STRING` characters."""

    __slots__ = ("size",)

    def __init__(self) -> None:
        super().__init__()
        self.size = 0

    def append(self, item: Any) -> None:
        self.size += len(item)  # a block's output is text only: strings and Markup
        if self.size > MAX_STRING:
            raise _too_long(self.size)
        list.append(self, item)

    def extend(self, items: Any) -> None:
        if type(items) is not tuple:  # Jinja2 writes a tuple of the block's outputs, already made
            for item in items:
                self.append(item)
            return
        size = self.size + sum(map(len, items))
        if size > MAX_STRING:
            raise _too_long(size)
        self.size = size
        list.extend(self, items)


# -- checks before the operation ----------------------------------------------------------------------------------

_PERCENT = re.compile(r"%(?:\([^)]*\))?[-#0 +]*(\*|\d+)?(?:\.(\*|\d+))?")
_DIGITS = re.compile(r"\d+")


def _ints(values: Any) -> list[int]:
    if isinstance(values, dict):
        values = list(values.values())
    elif not isinstance(values, (list, tuple)):
        values = [values]
    return [v for v in values if isinstance(v, int) and not isinstance(v, bool)]


#: one ``%`` conversion: its mapping key and its conversion letter (``%%`` included)
_CONVERSION = re.compile(r"%(?:\(([^)]*)\))?[-#0 +]*(\*|\d+)?(?:\.(\*|\d+))?[hlL]?(.)", re.DOTALL)
#: the containers whose text is weighed; a template's ``namespace()`` is written as the dict of its values
_CONTAINERS = (list, tuple, dict, set, frozenset, Namespace)
#: containers nested deeper than this are taken as over the limit when their text's length is estimated
_DEEPEST = 200


def text_size(value: Any, cap: int = MAX_STRING, indent: int = 0) -> int:
    """About how many characters ``str(value)`` has (a string's length; a list, tuple or dict: its items' sizes and
    2 for each container; anything else 24), counted up to just past ``cap``, so that a list of 5,000 references
    to one long string is weighed without being written out. ``indent``: JSON written with that indent, each item
    on its own line indented by its depth."""
    if isinstance(value, str):
        return len(value)
    if not indent and type(value) in (list, tuple) and len(value) <= 32:  # a few strings (a card's keywords)
        total = 2
        for item in value:
            if not isinstance(item, str):
                break
            total += len(item)
        else:
            return total
    total = 0
    stack: list[Any] = [iter((value,))]
    while stack:
        item = next(stack[-1], stack)
        if item is stack:  # that container is done
            stack.pop()
            continue
        total += (indent * len(stack) + 1) if indent else 0
        if isinstance(item, str):
            total += len(item)
        elif isinstance(item, _CONTAINERS):
            total += 2
            if len(stack) > _DEEPEST:
                return cap + 1
            if isinstance(item, Namespace):
                item = item._Namespace__attrs
            pairs = (x for kv in item.items() for x in kv) if isinstance(item, dict) else iter(item)
            stack.append(pairs)
        else:
            total += 24
        if total > cap:
            return total
    return total


def check_percent_size(fmt: Any, values: Any) -> None:
    """``fmt % values``: refuse a result over :data:`MAX_STRING` characters, estimated from the values each
    conversion writes (``('%(a)s' * 5000) % {'a': long}`` would repeat a long string 5,000 times)."""
    if not isinstance(fmt, str) or "%" not in fmt:
        return
    size, used = len(fmt), 0
    for match in _CONVERSION.finditer(fmt):
        key, width, precision, kind = match.groups()
        if kind == "%":
            continue
        for number in (width, precision):  # each conversion writes at least its width (and its precision's digits)
            if number == "*":  # taken from the values
                star = values[used] if isinstance(values, tuple) and used < len(values) else 0
                size += star if isinstance(star, int) and star > 0 else 0
                used += 1
            elif number:
                size += int(number) if len(number) <= 9 else MAX_STRING + 1
        if key is not None and isinstance(values, dict):
            size += text_size(values.get(key), MAX_STRING)
        elif isinstance(values, tuple):
            size += text_size(values[used], MAX_STRING) if used < len(values) else 0
            used += 1
        else:
            size += text_size(values, MAX_STRING)
        expect(size)


def check_braces_size(fmt: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
    """``fmt.format(*args, **kwargs)``: refuse a result over :data:`MAX_STRING` characters, estimated from the
    value each field writes (``('{0}' * 5000).format(long)``); a field naming an attribute or item of a value is
    weighed as that whole value."""
    if not isinstance(fmt, str) or "{" not in fmt:
        return
    try:
        fields = list(string.Formatter().parse(fmt))
    except ValueError:
        return  # the call itself reports the bad format string
    size, auto = 0, 0
    for literal, name, _, _ in fields:
        size += len(literal)
        if name is None:
            continue
        head = re.split(r"[.\[]", name, maxsplit=1)[0]
        if head == "":
            value = args[auto] if auto < len(args) else None
            auto += 1
        elif head.isdigit():
            value = args[int(head)] if int(head) < len(args) else None
        else:
            value = kwargs.get(head)
        size += text_size(value, MAX_STRING)
        expect(size)


def check_percent(fmt: Any, values: Any) -> None:
    """``fmt % values``: refuse a width or precision (``%999999999d``, ``%.*f``) over :data:`MAX_STRING`."""
    if not isinstance(fmt, str) or "%" not in fmt:
        return
    for match in _PERCENT.finditer(fmt):
        for group in match.groups():
            if group == "*":
                if any(v > MAX_STRING for v in _ints(values)):
                    raise _too_long(max(_ints(values)))
            elif group and len(group) > 7 and int(group) > MAX_STRING:
                raise _too_long(int(group))


def check_braces(fmt: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
    """``fmt.format(*args, **kwargs)``: refuse a width or precision (``{:>999999999}``, ``{:{}}``) over the limit."""
    if not isinstance(fmt, str) or "{" not in fmt:
        return
    try:
        fields = list(string.Formatter().parse(fmt))
    except ValueError:
        return  # the call itself reports the bad format string
    for _, _, spec, _ in fields:
        if not spec:
            continue
        for digits in _DIGITS.findall(spec):
            if len(digits) > 7 and int(digits) > MAX_STRING:
                raise _too_long(int(digits))
        if "{" in spec and any(v > MAX_STRING for v in _ints(list(args)) + _ints(kwargs)):
            raise _too_long(max(_ints(list(args)) + _ints(kwargs)))


def _replaced_size(s: object, old: object, new: object, count: object = None) -> int:
    s, old, new = str(s), str(old), str(new)
    found = s.count(old)
    if isinstance(count, int) and count >= 0:
        found = min(found, count)
    return len(s) + found * (len(new) - len(old))


def _joined_size(items: Any, sep: Any = "") -> int:
    return text_size(items) + len(str(sep)) * max(len(items) - 1, 0)


def weighed(value: Any) -> Any:
    """``value``, after refusing a list, tuple, dict or namespace whose text (``{{ value }}``, ``~``) would be over
    :data:`MAX_STRING` characters: 5,000 references to one long string are small in memory, not once written."""
    if isinstance(value, (str, int, float)) or value is None:
        return value
    if isinstance(value, _CONTAINERS):
        expect(text_size(value))
    return value


def _est_text(value: Any, *_: Any, **__: Any) -> None:
    expect(text_size(value))


def _est_json(value: Any, *args: Any, **kwargs: Any) -> None:
    indent = kwargs.get("indent", args[0] if args else None)
    indent = indent if isinstance(indent, int) and not isinstance(indent, bool) and indent > 0 else 0
    expect(6 * text_size(value, indent=indent))  # tojson writes <, >, & and ' as \u003c...: 6 characters each


def check_method(method: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
    """Refuse a call of a string or list method whose result would be over the limits, before it runs."""
    owner = getattr(method, "__self__", None)
    name = getattr(method, "__name__", "")
    if isinstance(owner, str):
        if name == "replace" and len(args) >= 2:
            expect(_replaced_size(owner, *args[:3]))
        elif name == "join" and args and isinstance(args[0], (list, tuple)):
            expect(_joined_size(args[0], owner))
        elif name == "translate" and args and isinstance(args[0], dict):
            longest = max((len(v) for v in args[0].values() if isinstance(v, str)), default=1)
            expect(len(owner) * max(longest, 1))
        elif name == "format":
            check_braces(owner, args, kwargs)
            check_braces_size(owner, args, kwargs)
        elif name == "format_map":
            check_braces(owner, args, kwargs)
            check_braces_size(owner, (), args[0] if args and isinstance(args[0], dict) else {})
        elif name == "expandtabs":
            size = args[0] if args else kwargs.get("tabsize", 8)
            if isinstance(size, int) and size > 0:
                expect(len(owner) + owner.count("\t") * size)
    elif isinstance(owner, list) and name in ("append", "extend", "insert"):
        added = len(args[0]) if name == "extend" and args and hasattr(args[0], "__len__") else 1
        if len(owner) + added > MAX_ITEMS:
            raise RenderLimit(f"the template built a list of more than {MAX_ITEMS:,} items")


def _checked(estimate: Callable[..., None], function: Callable[..., Any], skip: int) -> Callable[..., Any]:
    """``function`` (a Jinja2 filter) with ``estimate`` called on its arguments first (after ``skip`` leading
    arguments Jinja2 passes itself: the environment or evaluation context)."""

    @functools.wraps(function)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        if len(args) > skip and isinstance(args[skip], Iterator):
            args = (*args[:skip], list(args[skip]), *args[skip + 1 :])  # a generator (``map``): counted as a list
            produced(args[skip])
        estimate(*args[skip:], **kwargs)
        return function(*args, **kwargs)

    return wrapper


def _est_replace(s: Any, old: Any = "", new: Any = "", count: Any = None, **_: Any) -> None:
    expect(_replaced_size(s, old, new, count))


def _est_center(value: Any, width: Any = 80, **_: Any) -> None:
    if isinstance(width, int):
        expect(width)


def _est_indent(s: Any, width: Any = 4, *_: Any, **kwargs: Any) -> None:
    width = kwargs.get("width", width)
    step = len(width) if isinstance(width, str) else width if isinstance(width, int) else 0
    expect(step)
    expect(len(str(s)) + (str(s).count("\n") + 2) * step)


def _est_wordwrap(s: Any, width: Any = 79, *rest: Any, **kwargs: Any) -> None:
    wrap = kwargs.get("wrapstring", rest[1] if len(rest) > 1 else None)
    if isinstance(wrap, str) and len(wrap) > 1:
        expect(len(str(s)) * len(wrap))


#: the most characters ``%`` writes for one number beyond its width and precision: an int has at most 4,300 digits
#: (Python's ``sys.int_max_str_digits``: a longer one is refused), a float at most 309 before its point
_NUMBER_CHARS = 4400


#: the longest format string whose verdict :func:`_numbers_fit` keeps (a few hundred of them at most)
_SHORT_FORMAT = 200


@functools.lru_cache(maxsize=256)
def _numbers_fit(fmt: str) -> bool:
    """Whether ``fmt % values`` stays under :data:`MAX_STRING` characters whatever numbers the values are: no
    ``*`` width or precision (those come from the values), and its widths, precisions and text small enough."""
    size = len(fmt)
    for match in _PERCENT.finditer(fmt):
        width, precision = match.groups()
        if width == "*" or precision == "*" or len(width or "") > 7 or len(precision or "") > 7:
            return False
        size += _NUMBER_CHARS + int(width or 0) + int(precision or 0)
    return size <= MAX_STRING


def _est_format(value: Any, *args: Any, **kwargs: Any) -> None:
    values = kwargs.values() if kwargs else args
    if (
        type(value) is str
        and len(value) <= _SHORT_FORMAT
        and all(type(v) in (int, float, bool) for v in values)
        and _numbers_fit(value)
    ):
        return  # numbers only, into a short format that bounds them (a sheet's '%.4f'|format(x)): nothing to weigh
    check_percent(value, kwargs or args)
    check_percent_size(value, kwargs or args)


def _est_join(value: Any, d: Any = "", *_: Any, **__: Any) -> None:
    if isinstance(value, (list, tuple)):
        expect(_joined_size(value, d))


#: Jinja2's filters whose result can be much larger than their arguments, with the check each gets first
_ESTIMATES: dict[str, Callable[..., None]] = {
    "replace": _est_replace,
    "center": _est_center,
    "indent": _est_indent,
    "wordwrap": _est_wordwrap,
    "format": _est_format,
    "join": _est_join,
    # a list or dict written out as text
    "string": _est_text,
    "pprint": _est_text,
    "tojson": _est_json,
    "urlencode": _est_json,
    "xmlattr": _est_json,
    "escape": _est_text,
    "e": _est_text,
    "forceescape": _est_text,
    "safe": _est_text,
}


def _items_counted(function: Callable[..., Any]) -> Callable[..., Any]:
    """``function`` (``map``), its result's items each counted by :func:`produced` as they are made."""

    @functools.wraps(function)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        return map(produced, function(*args, **kwargs))

    return wrapper


def bounded_filters(filters: dict[str, Callable[..., Any]]) -> None:
    """Wrap the filters of :data:`_ESTIMATES` in ``filters`` (an environment's) with their checks, and ``map`` so
    that each string it makes (``items|map('upper')``) is counted."""
    if "map" in filters and not getattr(filters["map"], "_bounded", False):
        filters["map"] = _items_counted(filters["map"])
        filters["map"]._bounded = True  # type: ignore[attr-defined]  # a mark on a function object
    for name, estimate in _ESTIMATES.items():
        function = filters.get(name)
        if function is not None and not getattr(function, "_bounded", False):
            skip = 1 if getattr(function, "jinja_pass_arg", None) is not None else 0
            wrapped = _checked(estimate, function, skip)
            wrapped._bounded = True  # type: ignore[attr-defined]  # a mark on a function object
            filters[name] = wrapped
