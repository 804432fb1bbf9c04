"""Exceptions of deck checking.

The reading and checking functions *return* problems; these exceptions are
for callers that want to stop at the first failure (``load_decklist``,
``find_card``, ``DeckReport.raise_for_status``). Each carries the
:class:`~printer.problems.Problem` records that explain it, so the CLI can
report them like any other problem.

- :class:`DeckSyntaxError`: the decklist cannot be read (missing file, not
  UTF-8, invalid JSON, no card line at all). Exit code 2.
- :class:`UnknownCardError`: a name matches no card. Exit code 1.
- :class:`AmbiguousCardError`: a name matches several cards; ``candidates``
  lists them. Exit code 1.
- :class:`~printer.decks.report.IllegalDeckError` (defined beside the report it
  carries): the deck breaks a rule of its format. Exit code 1.
- :class:`FormatError`: a format id is unknown or its file is invalid.
  Exit code 2 (a usage error).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from printer.problems import DataError, Problem, UsageError

if TYPE_CHECKING:  # pragma: no cover
    from printer.cards.model import Card


class DeckError(DataError):
    """Base of the deck-checking exceptions."""


class DeckSyntaxError(DeckError):
    """The decklist file cannot be read as a decklist (exit code 2)."""

    exit_code = 2


class UnknownCardError(DeckError):
    """A decklist name matches no card; ``suggestions`` are the closest names."""

    def __init__(self, message: str, problems: Sequence[Problem] = (), suggestions: Sequence[str] = ()):
        super().__init__(message, problems)
        self.suggestions = list(suggestions)


class AmbiguousCardError(DeckError):
    """A decklist name matches several cards, listed in ``candidates``."""

    def __init__(self, message: str, problems: Sequence[Problem] = (), candidates: Sequence[Card] = ()):
        super().__init__(message, problems)
        self.candidates = list(candidates)


class FormatError(UsageError):
    """A format cannot be found or its file is invalid (exit code 2)."""
