"""Problems and exceptions shared by every stage.

Every stage *returns* the problems it finds as :class:`Problem` records, so
that one run can report all of them; only the CLI decides the exit code.
Exceptions are kept for the cases where a stage cannot go on at all.

Exit codes used by the CLI: 0 ok, 1 invalid data or illegal deck,
2 usage error.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from enum import StrEnum


class Severity(StrEnum):
    """How bad a problem is: an ``ERROR`` fails the command (exit 1), a ``WARNING`` only with ``--strict``."""

    ERROR = "error"
    WARNING = "warning"


ERROR = Severity.ERROR
WARNING = Severity.WARNING


@dataclass(frozen=True)
class Problem:
    """One thing wrong with the input.

    ``where`` says where it is, in one of three shapes:

    - ``file:line:col`` for syntax errors (1-based line and column);
    - ``file::$.json.path`` for schema and cross-file errors;
    - ``file:line`` for decklist lines.

    ``message`` says what is wrong; ``hint``, when set, how to fix it (most
    often the closest valid name). ``code`` is a short stable identifier of
    the kind of problem (``json-syntax``, ``schema``, ``duplicate-id``...),
    used in JSON output and tests.
    """

    where: str
    message: str
    hint: str | None = None
    severity: Severity = Severity.ERROR
    code: str = "error"

    def __post_init__(self) -> None:
        if not isinstance(self.severity, Severity):
            object.__setattr__(self, "severity", Severity(self.severity))

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

    def as_dict(self) -> dict[str, str | None]:
        return {
            "where": self.where,
            "severity": self.severity,
            "code": self.code,
            "message": self.message,
            "hint": self.hint,
        }


def errors(problems: Iterable[Problem]) -> list[Problem]:
    return [p for p in problems if p.is_error]


def warnings(problems: Iterable[Problem]) -> list[Problem]:
    return [p for p in problems if not p.is_error]


def closest(word: str, candidates: Sequence[str], n: int = 3, cutoff: float = 0.6) -> list[str]:
    """Return up to ``n`` of ``candidates`` closest to ``word`` (case-insensitive)."""
    lowered = {c.lower(): c for c in candidates}
    found = difflib.get_close_matches(word.lower(), list(lowered), n=n, cutoff=cutoff)
    return [lowered[f] for f in found]


def did_you_mean(word: str, candidates: Sequence[str]) -> str | None:
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


class DataError(PrinterError):
    """Input data is invalid (exit code 1)."""


class RenderError(PrinterError):
    """A template or the PDF engine failed on otherwise valid data (exit code 1)."""
