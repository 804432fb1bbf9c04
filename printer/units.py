"""Lengths and sizes as printer reads them: named card and paper sizes, ``63x88mm``, ``3mm``, ``0.125in``.

Every value comes out in millimetres. A length may carry a unit (``mm``,
``cm``, ``in``, ``pt`` at 72 pt to the inch); a bare number is mm. A size
over :attr:`printer.limits.Limits.size_mm` is refused (``max_mm``: a project's own
limit, printer's default when not given), and so are nan and infinity (the
pattern only admits digits).
"""

from __future__ import annotations

import math
import re

from printer.limits import DEFAULT as DEFAULT_LIMITS
from printer.limits import over as limit_over
from printer.problems import Problem, UsageError, did_you_mean

MM_PER_IN = 25.4
EPS = 1e-6

#: Named card trim sizes, (width, height) in mm.
CARD_SIZES: dict[str, tuple[float, float]] = {
    "poker": (63.0, 88.0),  # standard CCG (2.5 x 3.5 in)
    "bridge": (57.0, 89.0),
    "tarot": (70.0, 120.0),
    "small": (59.0, 86.0),  # Japanese small size
    "mini": (44.0, 68.0),
    "square": (70.0, 70.0),
}

#: Named paper sizes, portrait (width, height) in mm.
PAPER_SIZES: dict[str, tuple[float, float]] = {
    "A4": (210.0, 297.0),
    "A3": (297.0, 420.0),
    "A5": (148.0, 210.0),
    "Letter": (215.9, 279.4),
    "Legal": (215.9, 355.6),
}

ORIENTATIONS = ("auto", "portrait", "landscape")
FLIPS = ("long-edge", "short-edge")

_SIZE = re.compile(r"^\s*([0-9]+(?:\.[0-9]+)?)\s*[xX×]\s*([0-9]+(?:\.[0-9]+)?)\s*(mm|in|cm)?\s*$")
_LENGTH = re.compile(r"^\s*(-?[0-9]+(?:\.[0-9]+)?|-?\.[0-9]+)\s*(mm|in|cm|pt)?\s*$")
_UNITS = {"mm": 1.0, "cm": 10.0, "in": MM_PER_IN, "pt": MM_PER_IN / 72, None: 1.0}


def _usage(message: str, hint: str | None, where: str = "command line") -> UsageError:
    return UsageError(message, [Problem(where, message, hint, code="usage")])


def parse_size(
    text: str, named: dict[str, tuple[float, float]], what: str, max_mm: float | None = None
) -> tuple[float, float]:
    """A size as ``(width, height)`` in mm from a name (``poker``, ``A4``) or ``WxH[mm|cm|in]``.

    Names are matched case-insensitively. Raises :class:`UsageError` with the
    closest name as a hint, or for a side over ``max_mm`` (default: the ``size_mm`` limit's default).
    """
    for name, size in named.items():
        if name.lower() == str(text).strip().lower():
            return size
    match = _SIZE.match(str(text))
    if match:
        factor = _UNITS[match.group(3)]
        width, height = float(match.group(1)) * factor, float(match.group(2)) * factor
        if width > 0 and height > 0:
            _check_size(max(width, height), what, str(text), max_mm=max_mm)
            return (width, height)
        raise _usage(f"{what} {text!r}: both sides must be over 0", "e.g. 63x88mm")
    hint = did_you_mean(str(text), list(named)) or f"one of {', '.join(named)}, or WxH in mm or in, e.g. 63x88mm"
    raise _usage(f"unknown {what} {text!r}", hint)


def parse_length(
    text: str | float | int,
    what: str,
    where: str = "command line",
    minimum: float | None = 0.0,
    max_mm: float | None = None,
) -> float:
    """A length in mm from a number (mm) or a string with a unit: ``3``, ``3mm``, ``0.125in``, ``9pt``.

    Raises :class:`UsageError` for text that is not a length, one below ``minimum``, or one over ``max_mm``
    (default: the ``size_mm`` limit's default).
    """
    if isinstance(text, (int, float)) and not isinstance(text, bool):
        value = float(text)
    else:
        match = _LENGTH.match(str(text))
        if not match:
            raise _usage(
                f"{what}: {text!r} is not a length", "a number in mm, or with a unit: 3mm, 0.125in, 9pt", where
            )
        value = float(match.group(1)) * _UNITS[match.group(2)]
    if not math.isfinite(value):
        raise _usage(f"{what}: {text!r} is not a length", "a finite number in mm", where)
    if minimum is not None and value < minimum - EPS:
        raise _usage(f"{what}: {text!r} is less than {minimum:g} mm", None, where)
    _check_size(abs(value), what, str(text), where, max_mm)
    return value


def _check_size(mm: float, what: str, text: str, where: str = "command line", max_mm: float | None = None) -> None:
    """Refuse a length over ``max_mm``, the ``size_mm`` limit (a 1-km sheet would exhaust memory)."""
    limit = DEFAULT_LIMITS.size_mm if max_mm is None else max_mm
    if mm > limit:
        problem = limit_over("size_mm", round(mm, 1), limit, where, f"{what} {text}")
        raise UsageError(problem.message, [problem])


def parse_offset(
    text: str, what: str = "--back-offset", where: str = "command line", max_mm: float | None = None
) -> tuple[float, float]:
    """``"X,Y"`` in mm (each may carry a unit) as ``(x, y)``; e.g. ``"0.8,-0.5"``."""
    parts = [p for p in str(text).split(",")]
    if len(parts) != 2:
        raise _usage(f"{what}: {text!r} is not X,Y", "two lengths in mm separated by a comma, e.g. 0.8,-0.5", where)
    return (
        parse_length(parts[0], what, where, minimum=None, max_mm=max_mm),
        parse_length(parts[1], what, where, minimum=None, max_mm=max_mm),
    )
