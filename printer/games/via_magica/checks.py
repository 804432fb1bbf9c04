"""Via Magica setup checks.

``two-of-each``, ``one-count-bonus``: the portal and bonus card counts a player starts with (the game's
setup rules).
"""

from __future__ import annotations

from printer.decks.checks import Context, Found, quote_names
from printer.decks.names import name_key
from printer.decks.report import Violation


def check_two_of_each(ctx: Context) -> list[Violation]:
    """Via Magica: each portal design is in the deck exactly twice (Via Magica rulebook, Japanese edition, 準備 重要: 各ポータルは 2 枚ずつ)."""
    groups: dict[str, list[Found]] = {}
    for p in ctx.found():
        if p.card.type == "Portal":
            groups.setdefault(name_key(p.card.name), []).append(p)
    found = []
    for group in groups.values():
        count = sum(p.count for p in group)
        if count < 2:
            found.append(
                Violation(
                    "via-magica-two-of-each",
                    f"1 copy of {group[0].card.name!r}: the deck holds each portal twice",
                    tuple(p.line for p in group),
                    (group[0].card.name,),
                    count,
                    2,
                    hint="add the second copy",
                )
            )
    return found


def check_one_count_bonus(ctx: Context) -> list[Violation]:
    """Via Magica: a player wins at most one portal-count Bonus card (Via Magica rulebook, Japanese edition, ポータルの数: 各プレイヤー1枚だけ獲得できます)."""
    won = [p for p in ctx.found() if p.card.type == "Bonus" and p.card.get("goal") == "portal-count"]
    count = sum(p.count for p in won)
    if count <= 1:
        return []
    names = tuple(dict.fromkeys(p.card.name for p in won))
    return [
        Violation(
            "via-magica-one-count-bonus",
            f"{count} portal-count Bonus cards ({quote_names(names)}): a player wins one at most",
            tuple(p.line for p in won),
            names,
            count,
            1,
            hint="keep the one the player claimed",
        )
    ]


#: the checks a format file names as ``<game>.<name>``
CHECKS = {
    "two-of-each": check_two_of_each,
    "one-count-bonus": check_one_count_bonus,
}
