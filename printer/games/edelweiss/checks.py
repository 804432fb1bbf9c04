"""Arcana Fight! Edelweiss deck checks.

``standard-deck``: each of the 52 standard playing cards once; ``class-per-player``: at most one Class
card under each player's header (the game's setup rules).
"""

from __future__ import annotations

from printer.decks.checks import Context, Found, quote_names
from printer.decks.formats import Format
from printer.decks.report import Violation
from printer.jsonvalue import JSON, JSONObject

_CLASS_HEADERS = {"", "class", "classes", "クラス"}


def _standard_deck(fmt: Format) -> JSONObject | None:
    """``standard-deck.json`` beside the format's folder (``schema/<game>/``), else printer's bundled one."""
    import json

    from printer.paths import bundled_schema

    for candidate in (
        fmt.file.parent.parent / "standard-deck.json",
        bundled_schema("edelweiss", "standard-deck.json"),
    ):
        try:
            deck: JSONObject = json.loads(candidate.read_text(encoding="utf-8"))
            return deck
        except (OSError, ValueError):
            continue
    return None


def check_standard_deck(ctx: Context) -> list[Violation]:
    """Edelweiss: each of the 52 standard cards once, by suit and rank (Arcana Fight! Edelweiss rules: 52枚のトランプのみ).

    Suits, ranks and the card names come from ``schema/edelweiss/standard-deck.json``.
    """
    data = _standard_deck(ctx.format)
    if data is None:
        return []
    ranks = {r["rank"]: r["name"] for r in data["ranks"]}
    expected = {
        (s["suit"], r): data["card_name"].format(rank=name, suit=s["suit"])
        for s in data["suits"]
        for r, name in ranks.items()
    }
    have: dict[tuple[JSON, JSON], list[Found]] = {}
    for p in ctx.found():
        key = (p.card.get("suit"), p.card.get("rank"))
        if key in expected:
            have.setdefault(key, []).append(p)
    found = []
    for key, group in have.items():
        count = sum(p.count for p in group)
        if count > 1:
            found.append(
                Violation(
                    "edelweiss-standard-deck",
                    f"{count} copies of the {expected[key]}: a standard deck has one",
                    tuple(p.line for p in group),
                    (expected[key],),
                    count,
                    1,
                    hint="keep 1",
                )
            )
    missing = [name for key, name in expected.items() if key not in have]
    if missing and not any(p.card is None for p in ctx.placed):
        shown = ", ".join(missing[:6]) + (f" and {len(missing) - 6} more" if len(missing) > 6 else "")
        found.append(
            Violation(
                "edelweiss-standard-deck",
                f"{len(missing)} standard card{'s' * (len(missing) != 1)} missing: {shown}",
                (),
                tuple(missing),
                len(expected) - len(missing),
                len(expected),
                hint=f"the deck is all {len(expected)} cards: 4 suits of A, 2-10, J, Q, K",
            )
        )
    return found


def check_class_per_player(ctx: Context) -> list[Violation]:
    """Edelweiss: at most one Class card under each player's header (``# Player 1``, ``# 先攻``, a name) (Arcana Fight! Edelweiss rules, クラスについて).

    Classes under ``# Class`` or no header count only towards the Class section's size (two players).
    """
    players: dict[str, list[Found]] = {}
    for p in ctx.found():
        header = (p.item.entry.section or "").strip()
        if (
            p.card.type == "Class"
            and header.casefold() not in _CLASS_HEADERS
            and (not p.declared or p.section in p.declared)
        ):
            players.setdefault(header, []).append(p)  # a Class under '# Deck' is wrong-section's
    found = []
    for player, group in players.items():
        count = sum(p.count for p in group)
        if count > 1:
            names = tuple(dict.fromkeys(p.card.name for p in group))
            found.append(
                Violation(
                    "class-per-player",
                    f"{player}: {count} Class cards ({quote_names(names)}), at most one per player",
                    tuple(p.line for p in group),
                    names,
                    count,
                    1,
                    hint="each player chooses one Class",
                )
            )
    return found


#: the checks a format file names as ``<game>.<name>``
CHECKS = {
    "standard-deck": check_standard_deck,
    "class-per-player": check_class_per_player,
}
