"""Deck checking: read a decklist, resolve its names to cards, check it against a format.

Reading and checking never raise on bad input; they return problems::

    from printer.decks import read_decklist, resolve, load_format, check

    deck, problems = read_decklist(Path("storm.txt"))   # (Decklist, [Problem]); errors = unreadable
    resolution = resolve(deck, cards)                    # cards: printer.cards.model.CardSet
    report = check(deck, cards, load_format("mygame-standard"), problems)
    report.is_legal()        # the shortcut; report.status: legal/illegal/unresolved/unreadable
    report.violations        # every broken rule, each with lines, cards, counts
    report.unresolved        # unknown/ambiguous names, apart from the rules
    report.as_dict()         # the JSON shape of `printer deck check --json`

For code that prefers exceptions: :func:`load_decklist` raises
:class:`DeckSyntaxError`, :func:`find_card` raises :class:`UnknownCardError`
or :class:`AmbiguousCardError`, ``report.raise_for_status()`` raises
:class:`IllegalDeckError`, :func:`load_format` raises :class:`FormatError`.

Modules: :mod:`.readers.text`, :mod:`.readers.json_deck`, :mod:`.names`,
:mod:`.resolve`, :mod:`.formats`, :mod:`.checks`, :mod:`.report`.
"""

from __future__ import annotations

from pathlib import Path

from printer.decks.checks import check, check_file
from printer.decks.deck_errors import (
    AmbiguousCardError,
    DeckError,
    DeckSyntaxError,
    FormatError,
    UnknownCardError,
)
from printer.decks.formats import Ban, Format, Section, available_formats, load_format, load_format_file
from printer.decks.names import name_key, split_name
from printer.decks.readers.decklist import Decklist, Entry
from printer.decks.readers.text import read_decklist
from printer.decks.report import DeckReport, IllegalDeckError, SectionSummary, Violation
from printer.decks.resolve import Resolution, ResolvedEntry, find_card, resolve
from printer.problems import errors as _errors


def load_decklist(path: Path) -> Decklist:
    """Like :func:`read_decklist`, but raises :class:`DeckSyntaxError` when the file is not a readable decklist."""
    deck, problems = read_decklist(Path(path))
    if _errors(problems):
        raise DeckSyntaxError(f"{path}: not a readable decklist", _errors(problems))
    return deck


__all__ = [
    "AmbiguousCardError",
    "Ban",
    "DeckError",
    "DeckReport",
    "DeckSyntaxError",
    "Decklist",
    "Entry",
    "Format",
    "FormatError",
    "IllegalDeckError",
    "Resolution",
    "ResolvedEntry",
    "Section",
    "SectionSummary",
    "UnknownCardError",
    "Violation",
    "available_formats",
    "check",
    "check_file",
    "find_card",
    "load_decklist",
    "load_format",
    "load_format_file",
    "name_key",
    "read_decklist",
    "resolve",
    "split_name",
]
