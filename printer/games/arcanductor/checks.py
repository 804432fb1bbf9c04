"""ARCANDUCTOR deck checks.

``arcana-distinct``: no two cards with one Major Arcana number; ``significator``: one card under a
``Significator`` header (the game's setup rules).
"""

from __future__ import annotations

from printer.decks.checks import Context, Found, quote_names
from printer.decks.report import Violation

_SIGNIFICATOR_HEADERS = {"significator", "シグニフィケータ"}


def check_arcana_distinct(ctx: Context) -> list[Violation]:
    """ARCANDUCTOR: no two cards share a Major Arcana number (``arcanum``): a set is 0-21, each once (ARCANDUCTOR play manual, 2022-09-24)."""
    by_number: dict[int, list[Found]] = {}
    for p in ctx.found():
        if isinstance(p.card.get("arcanum"), int):
            by_number.setdefault(p.card["arcanum"], []).append(p)
    found = []
    for number, group in sorted(by_number.items()):
        names = tuple(dict.fromkeys(p.card.name for p in group))
        if len(names) > 1:
            found.append(
                Violation(
                    "arcana-distinct",
                    f"{len(names)} cards are Major Arcana {number}: {quote_names(names)}",
                    tuple(p.line for p in group),
                    names,
                    len(names),
                    1,
                    hint="a set holds each number from 0 to 21 once: keep one of them",
                )
            )
    return found


def check_significator(ctx: Context) -> list[Violation]:
    """ARCANDUCTOR: exactly one card of a dealt hand is listed under a ``Significator`` header (ARCANDUCTOR play manual, 2022-09-24: シグニフィケータを1枚選出)."""
    chosen = [p for p in ctx.placed if (p.item.entry.section or "").strip().casefold() in _SIGNIFICATOR_HEADERS]
    count = sum(p.count for p in chosen)
    if count == 1:
        return []
    if count == 0:
        return [
            Violation(
                "significator",
                "no Significator: no card is listed under a 'Significator' header",
                (),
                (),
                0,
                1,
                hint="list the card you chose as your Significator under '# Significator'",
            )
        ]
    names = tuple(dict.fromkeys(p.card.name if p.card else p.item.entry.name for p in chosen))
    return [
        Violation(
            "significator",
            f"{count} Significators ({quote_names(names)}): a player chooses one",
            tuple(p.line for p in chosen),
            names,
            count,
            1,
            hint="move all but one to the hand",
        )
    ]


#: the checks a format file names as ``<game>.<name>``
CHECKS = {
    "arcana-distinct": check_arcana_distinct,
    "significator": check_significator,
}
