"""Legend of the Five Rings CCG deck checks.

``sensei-clan``: a Sensei's clan must be the Stronghold's, or the Sensei has no clan or is for all
clans (Legend of the Five Rings CCG, Ivory Edition rulebook, "Deck Construction").
"""

from __future__ import annotations

import re

from printer.cards.model import Card
from printer.decks.checks import Context
from printer.decks.report import Violation
from printer.games.l5r.clans import clan_names

_TAGS = re.compile(r"<[^>]+>")
_ALL = {"all", "all clans", "unaligned", "none", "clanless"}


def card_clans(card: Card) -> set[str] | None:
    """The clans a card belongs to; ``None`` for a clanless or all-clans card.

    Read from the ``clan`` field (a name or a list), else from keywords
    (``Lion Clan``, bare clan names, ``All Clans``) as the Oracle prints a
    Sensei's clans.
    """
    value = card.get("clan")
    names = [value] if isinstance(value, str) else list(value or [])
    if not names:
        for keyword in card.get("keywords") or []:
            word = _TAGS.sub("", str(keyword)).strip()
            if word.casefold() in ("all clans", "all"):
                return None
            base = word[:-5].strip() if word.casefold().endswith(" clan") else word
            if base in clan_names():
                names.append(base)
    clans = {n for n in names if n.casefold() not in _ALL}
    if not clans or any(n.casefold() in ("all", "all clans") for n in names):
        return None
    return clans


def check_sensei_clan(ctx: Context) -> list[Violation]:
    """A Sensei's clan must be the Stronghold's, or the Sensei clanless / for all clans (Juggernauts TCG catalogue, L5R rules, 事前準備)."""
    strongholds = [p for p in ctx.found() if p.card.type == "Stronghold"]
    senseis = [p for p in ctx.found() if p.card.type == "Sensei"]
    if len(strongholds) != 1 or not senseis:
        return []  # no or several Strongholds: section-size says so
    stronghold = strongholds[0].card
    home = card_clans(stronghold) or set()
    found = []
    for p in senseis:
        clans = card_clans(p.card)
        if clans is None or clans & home:
            continue
        found.append(
            Violation(
                "sensei-clan",
                f"Sensei {p.card.name!r} ({'/'.join(sorted(clans))}) does not match the Stronghold "
                f"{stronghold.name!r} ({'/'.join(sorted(home)) or 'no clan'})",
                (p.line, strongholds[0].line),
                (p.card.name, stronghold.name),
                hint="a Sensei must share the Stronghold's clan or be for all clans",
            )
        )
    return found


#: the checks a format file names as ``<game>.<name>``
CHECKS = {
    "sensei-clan": check_sensei_clan,
}
