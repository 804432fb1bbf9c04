"""Card sheets: what to print (cards and copies), placed on sheets, written as one PDF.

Fronts are printed n-up; each sheet of fronts is followed by its sheet of
backs, placed for the chosen duplex flip so that every back lands behind
its front. Long jobs are laid out in chunks of sheets (reported through a
progress callback) and the pages joined into one PDF.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterable, Sequence

from .cards import Card, CardSet
from .errors import WARNING, Problem
from .layout import SheetLayout
from .pdf import write_pdf
from .project import Game, Project, bundled_root
from .render import Face, Renderer, Sheet

SHEETS_PER_CHUNK = 8


@dataclass
class PrintItem:
    """One printed card: a real ``card``, or a placeholder for ``name`` (``card`` is ``None``)."""

    card: Card | None
    name: str
    reason: str = ""
    back_card: Card | None = None


def items_for_cards(cards: Iterable[Card], all_cards: CardSet | None = None) -> list[PrintItem]:
    """Each card as many times as its ``copies`` field says (default 1).

    A card that is another card's ``back_card`` prints only as that card's
    back (looked up in ``all_cards``), never as a front of its own.
    """
    cards = list(cards)
    lookup = all_cards if all_cards is not None else CardSet(cards[0].game if cards else "", cards)
    backs = {c["back_card"] for c in lookup if c.get("back_card")}
    return [PrintItem(card, card.name, back_card=lookup.by_id(card["back_card"]) if card.get("back_card") else None)
            for card in cards if card.id not in backs for _ in range(card.copies)]


def items_for_counts(entries: Iterable[tuple[int, Card | None, str]]) -> list[PrintItem]:
    """``(count, card or None, name)`` triples, e.g. from a decklist, as print items."""
    items = []
    for count, card, name in entries:
        reason = "" if card else "not in the card database"
        items += [PrintItem(card, name, reason)] * max(count, 0)
    return items


def slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-") or "cards"


def layout_sheets(renderer: Renderer, items: Sequence[PrintItem], layout: SheetLayout,
                  flip: str = "long-edge") -> list[Sheet]:
    """Fronts and backs, alternating sheet by sheet, for duplex printing."""
    slots = layout.slots()
    w, h = layout.card
    backs: dict[str, object] = {}
    sheets: list[Sheet] = []
    for start in range(0, len(items), layout.per_sheet):
        number = start // layout.per_sheet + 1
        front, back = Sheet("front", number=number), Sheet("back", number=number)
        for item, slot in zip(items[start:start + layout.per_sheet], slots):
            html = renderer.front(item.card) if item.card else renderer.placeholder(item.name, item.reason)
            front.faces.append(Face(html, slot.x, slot.y, w, h, label=item.name))
            if item.back_card is not None:
                back_html = renderer.front(item.back_card)
            else:
                back_name = renderer.back_name(item.card)
                if back_name not in backs:
                    backs[back_name] = renderer.back(back_name)
                back_html = backs[back_name]
            where, rotate = layout.back_slot(slot, flip)
            back.faces.append(Face(back_html, where.x, where.y, w, h, rotate, label=item.name))
        sheets += [front, back]
    return sheets


def allowed_roots(project: Project, extra: Iterable[Path] = ()) -> list[Path]:
    """Folders a build may read: the project, printer's bundled templates, and ``extra`` card folders."""
    return [project.root, bundled_root() / "templates", *extra]


def chunks(renderer: Renderer, sheets: list[Sheet], layout: SheetLayout, title: str = "") -> Iterable[str]:
    """The HTML documents of ``sheets``, :data:`SHEETS_PER_CHUNK` printed sheets (fronts and backs) each."""
    step = SHEETS_PER_CHUNK * 2
    for start in range(0, len(sheets), step):
        yield renderer.document(sheets[start:start + step], layout, title=title)


def build_game(project: Project, game: Game, items: Sequence[PrintItem], target: Path, layout: SheetLayout,
               extra_roots: Iterable[Path] = (), flip: str = "long-edge",
               progress: Callable[[int], None] | None = None) -> list[Problem]:
    """Print ``items`` of ``game`` to the PDF ``target``; returns the warnings found.

    ``progress`` is called with a number of printed sheets each time that
    many are laid out. Raises :class:`~printer.errors.RenderError` when a
    template fails or a resource is blocked.
    """
    renderer = Renderer(game, allowed_roots(project, extra_roots))
    sheets = layout_sheets(renderer, items, layout, flip)
    problems = list(renderer.problems)
    problems += write_pdf(chunks(renderer, sheets, layout, game.name), target, renderer.allowed_roots, project.root,
                          on_chunk=(lambda i: progress(min(SHEETS_PER_CHUNK, len(sheets) // 2 - i * SHEETS_PER_CHUNK)))
                          if progress else None)
    return problems


def placeholders(items: Iterable[PrintItem], where: str) -> list[Problem]:
    """A warning for each distinct name printed as a placeholder."""
    seen = dict.fromkeys(i.name for i in items if i.card is None)
    return [Problem(where, f"{name!r} is not in the card database; printing a placeholder", severity=WARNING,
                    code="placeholder") for name in seen]


def select(cards: CardSet, only: Sequence[str]) -> tuple[list[Card], list[Problem]]:
    """The cards named by id or name in ``only`` (all cards when empty)."""
    if not only:
        return list(cards), []
    chosen, unmatched = cards.select(only)
    problems = [Problem("--only", f"no card with id or name {term!r}",
                        ("did you mean " + " or ".join(repr(n) for n in cards.closest_names(term)) + "?")
                        if cards.closest_names(term) else None, code="unknown-card") for term in unmatched]
    return chosen, problems
