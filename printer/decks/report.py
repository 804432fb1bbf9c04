"""The result of a deck check: :class:`DeckReport`, its text and JSON forms.

Like python-chess's ``Board.status()``/``is_valid()``, one check lists
*every* problem and :meth:`DeckReport.is_legal` is the shortcut. Problems
come in three kinds, kept apart:

- ``violations``: rules of the format the resolved cards break
  (:class:`Violation`, ``rule`` names the rule);
- ``unresolved``: names that match no card or several (the card data may
  just lack them);
- ``warnings``: skipped decklist lines, unknown headers, section sizes that
  depend on unresolved cards.

``status`` is ``"legal"``, ``"illegal"`` (a rule is broken), ``"unresolved"``
(no rule broken by the cards found, but some names were not found) or
``"unreadable"`` (the decklist could not be read).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from printer.decks.deck_errors import DeckError
from printer.jsonvalue import JSONObject
from printer.problems import WARNING, Problem, counted

if TYPE_CHECKING:  # pragma: no cover
    from printer.decks.formats import Format
    from printer.decks.readers.decklist import Decklist
    from printer.decks.resolve import Resolution

REPORT_VERSION = 1


@dataclass(frozen=True)
class Violation:
    """One broken rule.

    ``rule`` is its id (``section-size``, ``wrong-section``, ``no-section``,
    ``copy-limit``, ``unique-limit``, ``not-legal``, ``banned`` or a named
    check such as ``one-captain``); ``lines`` the decklist lines involved
    (empty when the rule is about a missing card); ``cards`` the card names;
    ``count``/``limit`` the numbers compared, when there are numbers.
    """

    rule: str
    message: str
    lines: tuple[int, ...] = ()
    cards: tuple[str, ...] = ()
    count: int | None = None
    limit: int | None = None
    hint: str | None = None

    def problem(self, deck: Decklist) -> Problem:
        return Problem(deck.where(self.lines[0] if self.lines else None), self.message, self.hint, code=self.rule)

    def as_dict(self, deck: Decklist) -> JSONObject:
        return {
            "rule": self.rule,
            "where": str(deck.where(self.lines[0] if self.lines else None)),
            "lines": list(self.lines),
            "cards": list(self.cards),
            "count": self.count,
            "limit": self.limit,
            "message": self.message,
            "hint": self.hint,
        }


@dataclass(frozen=True)
class SectionSummary:
    """A section's size: ``count`` cards found, ``unresolved`` more that may belong to it."""

    name: str
    count: int
    min: int | None
    max: int | None
    unresolved: int = 0

    @property
    def ok(self) -> bool:
        return (self.min is None or self.count >= self.min) and (self.max is None or self.count <= self.max)

    def as_dict(self) -> JSONObject:
        return {
            "name": self.name,
            "count": self.count,
            "min": self.min,
            "max": self.max,
            "unresolved": self.unresolved,
            "ok": self.ok,
        }

    def __str__(self) -> str:
        bounds = []
        if self.min is not None and self.min == self.max:
            bounds.append(f"exactly {self.min}")
        else:
            if self.min:
                bounds.append(f"min {self.min}")
            if self.max is not None:
                bounds.append(f"max {self.max}")
        text = f"{self.name} {self.count}"
        if self.unresolved:
            text += f" (+{self.unresolved} unresolved)"
        if bounds:
            text += f" [{', '.join(bounds)}]"
        if self.max is not None and self.count > self.max:
            text += " too many"
        elif self.min is not None and self.count < self.min:
            text += " undecided" if self.count + self.unresolved >= self.min else " too few"
        return text


@dataclass
class DeckReport:
    """Everything one check found about one deck in one format (see the module docstring)."""

    deck: Decklist
    format: Format
    resolution: Resolution
    sections: list[SectionSummary] = field(default_factory=list)
    violations: list[Violation] = field(default_factory=list)
    warnings: list[Problem] = field(default_factory=list)
    read_errors: list[Problem] = field(default_factory=list)
    placement: list[str | None] = field(default_factory=list)

    @property
    def unresolved(self) -> list[Problem]:
        """``unknown-card`` and ``ambiguous-card`` problems, in decklist order."""
        return list(self.resolution.problems)

    @property
    def status(self) -> str:
        if self.read_errors:
            return "unreadable"
        if self.violations:
            return "illegal"
        if self.unresolved:
            return "unresolved"
        return "legal"

    @property
    def rules_broken(self) -> list[str]:
        """The ids of the broken rules, each once, in report order."""
        return list(dict.fromkeys(v.rule for v in self.violations))

    def is_legal(self) -> bool:
        """True when every card was found and no rule is broken."""
        return self.status == "legal"

    def is_valid(self) -> bool:
        """Alias of :meth:`is_legal` (python-chess's name)."""
        return self.is_legal()

    def raise_for_status(self) -> None:
        """Raise :class:`IllegalDeckError` unless the deck is legal."""
        if not self.is_legal():
            raise IllegalDeckError(f"{self.deck.source}: {self.verdict()}", self)

    def problems(self) -> list[Problem]:
        """Every problem as :class:`~printer.problems.Problem`: read errors, violations, unresolved names, warnings."""
        return [*self.read_errors, *(v.problem(self.deck) for v in self.violations), *self.unresolved, *self.warnings]

    def verdict(self) -> str:
        """One line: ``legal``, or what keeps the deck from being legal."""
        status = self.status
        if status == "unreadable":
            return "unreadable: the decklist could not be read"
        n_cards = len({p.where for p in self.unresolved})
        missing = f"{n_cards} card name{'s' * (n_cards != 1)} not found in the card data"
        if status == "legal":
            return "legal"
        if status == "unresolved":
            return f"no rule broken by the cards found, but {missing}: cannot tell whether the deck is legal"
        n = len(self.violations)
        text = f"illegal: {counted(n, 'problem')} ({', '.join(self.rules_broken)})"
        return text + (f"; also {missing}" if self.unresolved else "")

    def as_dict(self) -> JSONObject:
        """The stable JSON shape documented in the README section "Checking a deck" (``version`` 1)."""
        resolution = self.resolution
        unresolved = []
        for item, problem in zip(resolution.unresolved, resolution.problems):
            unresolved.append(
                {
                    "code": problem.code,
                    "where": str(problem.where),
                    "line": item.entry.line,
                    "name": item.entry.name,
                    "count": item.entry.count,
                    "message": problem.message,
                    "hint": problem.hint,
                    "suggestions": list(item.suggestions),
                    "candidates": [{"id": c.id, "name": c.name} for c in item.candidates],
                }
            )
        cards = []
        for i, item in enumerate(resolution.entries):
            cards.append(
                {
                    "line": item.entry.line,
                    "count": item.entry.count,
                    "name": item.entry.name,
                    "header": item.entry.section,
                    "section": self.placement[i] if i < len(self.placement) else None,
                    "card": {"id": item.card.id, "name": item.card.name, "type": item.card.type} if item.card else None,
                }
            )
        return {
            "version": REPORT_VERSION,
            "deck": str(self.deck.source),
            "syntax": self.deck.syntax,
            "format": {"id": self.format.id, "name": self.format.name, "file": str(self.format.file)},
            "status": self.status,
            "legal": self.is_legal(),
            "verdict": self.verdict(),
            "total": self.deck.total,
            "sections": [s.as_dict() for s in self.sections],
            "violations": [v.as_dict(self.deck) for v in self.violations],
            "unresolved": unresolved,
            "errors": [p.as_dict() for p in self.read_errors],
            "warnings": [p.as_dict() for p in self.warnings],
            "cards": cards,
        }

    def summary_lines(self) -> list[str]:
        """The text summary: deck and format, section sizes, verdict."""
        lines = [f"{self.deck.source}: {self.format.name} ({self.format.id})"]
        if self.sections:
            lines.append("sections: " + ", ".join(str(s) for s in self.sections) + f"; {self.deck.total} cards")
        lines.append("verdict: " + self.verdict())
        return lines


def note(deck: Decklist, line: int | None, message: str, hint: str | None = None, code: str = "note") -> Problem:
    """A warning located in the decklist."""
    return Problem(deck.where(line), message, hint, severity=WARNING, code=code)


class IllegalDeckError(DeckError):
    """The deck is not legal in its format; ``report`` says every reason."""

    def __init__(self, message: str, report: DeckReport):
        super().__init__(message, report.problems())
        self.report = report
