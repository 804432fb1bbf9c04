"""Problems and exceptions shared by every stage.

Every stage *returns* the problems it finds as :class:`Problem` records, so
that one run can report all of them; only the CLI decides the exit code.
Exceptions are kept for the cases where a stage cannot go on at all.

Exit codes used by the CLI: 0 ok, 1 invalid data or illegal deck,
2 usage error.
"""

from __future__ import annotations

import difflib
import heapq
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from enum import StrEnum
from os import PathLike
from typing import Any, TypeVar

from printer.location import Location, as_location

__all__ = ["Location", "Problem", "Severity"]

_T = TypeVar("_T")


class Severity(StrEnum):
    """How bad a problem is: an ``ERROR`` fails the command (exit 1), a ``WARNING`` only with ``--strict``."""

    ERROR = "error"
    WARNING = "warning"


ERROR = Severity.ERROR
WARNING = Severity.WARNING


@dataclass(frozen=True, init=False)
class Problem:
    """One thing wrong with the input.

    ``where`` says where it is: a :class:`~printer.location.Location` (file, line and column, JSON path,
    spreadsheet cell, language), written one way by :func:`printer.location.render` (``cards/crab.json:10:7
    ($.cards[2].cost)``, ``cards/crab.json::$.cards[2]``, ``crew.xlsx:Sheet1!C7 ($.cost)``, ``decks/crab.txt:12``).
    A string given as ``where`` is read once into a Location (:meth:`~printer.location.Location.parse`); the
    stages that check cards, decklists and printer.toml give Locations.

    ``message`` says what is wrong; ``hint``, when set, how to fix it (most
    often the closest valid name). ``code`` is a short stable identifier of
    the kind of problem (``json-syntax``, ``schema``, ``duplicate-id``...),
    used in JSON output and tests.
    """

    where: Location
    message: str
    hint: str | None = None
    severity: Severity = Severity.ERROR
    code: str = "error"

    def __init__(
        self,
        where: Location | str | PathLike[str],
        message: str,
        hint: str | None = None,
        severity: Severity | str = Severity.ERROR,
        code: str = "error",
    ) -> None:
        # one update of the instance's dict, not a frozen dataclass's five object.__setattr__ calls: problems are
        # made in loops (100,000 unknown fields of one card)
        self.__dict__.update(
            where=where if type(where) is Location else as_location(where),
            message=message,
            hint=hint,
            severity=severity if type(severity) is Severity else Severity(severity),
            code=code,
        )

    def with_severity(self, severity: Severity) -> Problem:
        """This problem at another severity (a warning made an error by ``--strict``, or the reverse)."""
        return replace(self, severity=severity)

    def __str__(self) -> str:
        text = f"{self.where}: {self.severity}: {self.message}"
        if self.hint:
            text += f" (hint: {self.hint})"
        return text

    @property
    def is_error(self) -> bool:
        return self.severity == ERROR

    def as_dict(self) -> dict[str, object]:
        """The problem as JSON data: ``where`` rendered, ``location`` its parts (:meth:`Location.as_dict`)."""
        return {
            "where": str(self.where),
            "location": self.where.as_dict(),
            "severity": self.severity,
            "code": self.code,
            "message": self.message,
            "hint": self.hint,
        }


def errors(problems: Iterable[Problem]) -> list[Problem]:
    return [p for p in problems if p.is_error]


def warnings(problems: Iterable[Problem]) -> list[Problem]:
    return [p for p in problems if not p.is_error]


class Candidates:
    """Names prepared once for many :func:`closest` look-ups (their lower-case forms)."""

    def __init__(self, names: Iterable[str]):
        self.lowered = {c.lower(): c for c in names}
        self.keys = list(self.lowered)


def closest(word: str, candidates: Sequence[str] | Candidates, n: int = 3, cutoff: float = 0.6) -> list[str]:
    """Return up to ``n`` of ``candidates`` closest to ``word`` (case-insensitive).

    Closeness is :func:`difflib.get_close_matches`'s (Ratcliff/Obershelp
    ratio, at least ``cutoff``). Among many candidates those that cannot
    reach ``cutoff`` are first set aside by rapidfuzz's Indel ratio,
    ``2 * LCS / (len(a) + len(b))``, which is never below difflib's (its
    matching blocks are a common subsequence): the same names, found in
    about a millisecond among 3,500 instead of a tenth of a second.
    """
    prepared = candidates if isinstance(candidates, Candidates) else Candidates(candidates)
    lowered, keys = prepared.lowered, prepared.keys
    word = word.lower()
    if len(keys) > _PREFILTER_FROM:
        try:
            from rapidfuzz import fuzz, process
        except ImportError:  # pragma: no cover - a core dependency; difflib alone gives the same answer, slower
            pass
        else:
            kept = process.extract(word, keys, scorer=fuzz.ratio, score_cutoff=cutoff * 100 - 1e-6, limit=None)
            return [lowered[f] for f in _best_of(word, kept, n, cutoff)]
    found = difflib.get_close_matches(word, keys, n=n, cutoff=cutoff)
    return [lowered[f] for f in found]


def _best_of(word: str, kept: list[tuple[str, float, int]], n: int, cutoff: float) -> list[str]:
    """:func:`difflib.get_close_matches` over ``kept`` (names with their Indel ratio, highest first).

    The same tests and order as difflib's; a name whose Indel ratio is below
    the ``n``-th best ratio found so far cannot enter (nor can any after it),
    so the search stops there.
    """
    matcher = difflib.SequenceMatcher()
    matcher.set_seq2(word)
    best: list[tuple[float, str]] = []
    for name, upper, _ in kept:
        if len(best) >= n and upper / 100 < heapq.nsmallest(1, best)[0][0] - 1e-9:
            break
        matcher.set_seq1(name)
        if matcher.real_quick_ratio() >= cutoff and matcher.quick_ratio() >= cutoff:
            ratio = matcher.ratio()
            if ratio >= cutoff:
                best.append((ratio, name))
                best = heapq.nlargest(n, best)
    return [name for _, name in heapq.nlargest(n, best)]


#: below this many candidates difflib alone is quick enough
_PREFILTER_FROM = 200


def did_you_mean(word: str, candidates: Sequence[str] | Candidates) -> str | None:
    """A hint naming the closest candidates, or ``None`` when none is close."""
    found = closest(word, candidates)
    if not found:
        return None
    return "did you mean " + " or ".join(repr(f) for f in found) + "?"


def counted(n: int, word: str, plural: str | None = None) -> str:
    """``"1 card"``, ``"3 cards"``: ``n`` and ``word``, in the plural (``plural``, default ``word + "s"``) unless 1."""
    return f"{n} {word if n == 1 else (plural or word + 's')}"


class PrinterError(Exception):
    """Base of printer's own exceptions. ``problems`` lists what went wrong."""

    exit_code = 1

    def __init__(self, message: str, problems: Sequence[Problem] = ()):
        super().__init__(message)
        self.problems = list(problems)


class UsageError(PrinterError):
    """The command line or project settings are wrong (exit code 2)."""

    exit_code = 2


def lookup(table: Mapping[str, _T], name: str, message: str, where: str | Location) -> _T:
    """``table[name]``; raises :class:`UsageError` (``message``, located at ``where``, e.g. ``"--preset"``) when
    ``name`` is not a key, its hint naming the closest keys, or else all of them."""
    found = table.get(name)
    if found is None:
        hint = did_you_mean(name, list(table)) or "one of " + ", ".join(table)
        raise UsageError(message, [Problem(where, message, hint, code="usage")])
    return found


class DataError(PrinterError):
    """Input data is invalid (exit code 1)."""


class RenderError(PrinterError):
    """A template or the PDF engine failed on otherwise valid data (exit code 1)."""


def merge_repeats(problems: list[Problem]) -> list[Problem]:
    """The same template error met by many cards, once, with the number of other cards it hits (as ``validate``)."""
    seen: dict[tuple[Location, str], list[Any]] = {}  # [problem, number of other cards]
    for problem in problems:
        key = (problem.where, problem.message)
        if key in seen:
            seen[key][1] += 1
        else:
            seen[key] = [problem, 0]
    out = []
    for problem, more in seen.values():
        if more:
            problem = Problem(
                problem.where,
                f"{problem.message} (and {more} more card{'s' * (more != 1)})",
                problem.hint,
                problem.severity,
                problem.code,
            )
        out.append(problem)
    return out
