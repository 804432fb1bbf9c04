"""What a build prints: print items (a card, its copies, its back), in which order, and which cards ``--only`` picks.

:func:`items_for_cards` / :func:`items_for_counts` say what and how many, :func:`sort_items` in which order; the
faces of the items are rendered and keyed by :class:`printer.sheets.faces.registry.FaceRegistry`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from markupsafe import Markup

from printer.cards.model import Card, CardSet
from printer.problems import Problem, UsageError
from printer.project import Project, bundled_root


@dataclass(slots=True)  # no dict of its own: one a printed card
class PrintItem:
    """One printed card: a real ``card``, or a placeholder for ``name`` (``card`` is ``None``)."""

    card: Card | None
    name: str
    reason: str = ""
    back_card: Card | None = None
    front_html: Markup | None = None  # a ready-made face (e.g. a player aid, printer.book.aids) printed as it is
    back_html: Markup | None = None


def items_for_cards(cards: Iterable[Card], all_cards: CardSet | None = None) -> list[PrintItem]:
    """Each card as many times as its ``copies`` field says (default 1).

    A card that is another card's ``back_card`` prints only as that card's
    back (looked up in ``all_cards``), never as a front of its own.
    """
    cards = list(cards)
    lookup = all_cards if all_cards is not None else CardSet(cards[0].game if cards else "", cards)
    backs = {c["back_card"] for c in lookup if c.get("back_card")}
    return [item_for_card(card, lookup) for card in cards if card.id not in backs for _ in range(card.copies)]


def item_for_card(card: Card, all_cards: CardSet | None = None) -> PrintItem:
    """One copy of ``card`` as it prints: its ``back_card`` (looked up in ``all_cards``) on its back."""
    back = all_cards.by_id(card["back_card"]) if all_cards is not None and card.get("back_card") else None
    return PrintItem(card, card.name, back_card=back)


def items_for_counts(
    entries: Iterable[tuple[int, Card | None, str]], all_cards: CardSet | None = None
) -> list[PrintItem]:
    """``(count, card or None, name)`` triples, e.g. from a decklist, as print items (in that order).

    A card with a ``back_card`` prints that card (found in ``all_cards``) on its back.
    """
    items: list[PrintItem] = []
    for count, card, name in entries:
        reason = "" if card else "not in the card database"
        back = None
        if card is not None and card.get("back_card") and all_cards is not None:
            back = all_cards.by_id(card["back_card"])
        items += [PrintItem(card, name, reason, back_card=back) for _ in range(max(count, 0))]
    return items


def _sort_value(item: PrintItem, name: str) -> tuple[int, float, str] | tuple[int, str]:
    if item.card is None:
        return (3, "")
    value = item.card.name if name == "name" else item.card.get(name)
    if isinstance(value, bool):
        value = int(value)
    if isinstance(value, (int, float)):
        return (0, float(value), "")
    if isinstance(value, list):
        value = ", ".join(str(v) for v in value)
    if value is None or value == "":
        return (2, "")
    text = str(value)
    number = re.match(r"^\s*(\d+)", text)
    return (1, float(number.group(1)) if number else float("inf"), text.casefold())


def sort_items(items: Sequence[PrintItem], fields: Sequence[str]) -> list[PrintItem]:
    """``items`` ordered by card ``fields`` (e.g. ``["set", "type", "title"]``); empty keeps them as listed.

    Numbers sort by value and before text, text case-insensitively (with a
    leading number by its value, so set number 9 comes before 10); a card
    without the field comes after those with it; placeholders come last.
    The sort is stable, so copies stay together.
    """
    if not fields:
        return list(items)
    return sorted(
        items, key=lambda item: tuple(_sort_value(item, f) for f in fields) + ((0, 0.0, item.name.casefold()),)
    )


def slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-") or "cards"


def allowed_roots(project: Project, extra: Iterable[Path] = ()) -> list[Path]:
    """Folders a build may read: the project, printer's bundled templates, and ``extra`` card folders."""
    return [project.root, bundled_root() / "templates", *extra]


def select(cards: CardSet, only: Sequence[str]) -> tuple[list[Card], list[Problem]]:
    """The cards named by id or name in ``only`` (all cards when empty), and no problem. Raises
    :class:`~printer.problems.UsageError` for a name of ``only`` no card has (``--only``: the command's error, exit 2),
    each with the closest names."""
    if not only:
        return list(cards), []
    chosen, unmatched = cards.select(only)
    problems = [
        Problem(
            "--only",
            f"no card with id or name {term!r}",
            ("did you mean " + " or ".join(repr(n) for n in cards.closest_names(term)) + "?")
            if cards.closest_names(term)
            else None,
            code="unknown-card",
        )
        for term in unmatched
    ]
    if problems:
        raise UsageError(problems[0].message, problems)
    return chosen, problems
