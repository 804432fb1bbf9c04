"""The two sides of Res Arcana's Place of Power tiles, and the tokens an import adds.

Each of the base game's five Place of Power tiles carries a place on each side (Res Arcana, Sand Castle Games
2019: 5 double-sided Place of Power tiles). A data set may hold only one side of a tile, as the public data set
``res-arcana/*.json`` does (it holds the five sides of the first game). :func:`pair_places` names each side's
other side in ``back_card``, so the tile prints both sides, and adds the side the data lacks from
:data:`OTHER_SIDES`: the five other places written in printer's card fields (costs, collects, powers and victory
points of the base game's tiles, as several public implementations of the game on GitHub agree on them; effects
printer has no field for as text in our words).

:func:`tokens` are the components an import adds that no card database lists: the essence tokens (one card per
essence with a ``count``, as ``cards/res-arcana/essences.json``) and the First Player token.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Callable
from typing import Any

from printer.cards.importing import ImportResult
from printer.jsonvalue import JSONObject
from printer.problems import WARNING, Problem

#: The base game's tiles: (first-game side, other side), as ids (slugs of the English names).
PAIRS = (
    ("sacred-grove", "alchemists-tower"),
    ("catacombs-of-the-dead", "sacrificial-pit"),
    ("cursed-forge", "dwarven-mines"),
    ("coral-castle", "sunken-reef"),
    ("dragons-lair", "sorcerers-bestiary"),
)

_NOTE = "The other side of {front}: not in the imported data, added by printer's importer."

#: The sides of the tiles that are not in the public data set: (title, cost, collect, powers, other fields).
_OTHER_SIDE_ROWS: tuple[tuple[str, JSONObject, list[JSONObject], list[JSONObject], JSONObject], ...] = (
    (
        "Alchemist's Tower",
        {"gold": 3},
        [{"any": 3, "except": ["gold"]}],
        [
            {"cost": {"elan": 1, "life": 1, "calm": 1, "death": 1}, "effect": {"place": {"gold": 1}}},
            {"reaction": True, "cost": {"tap": True}, "effect": {"ignore_attack": True}},
        ],
        {"vp_per_essence": {"essence": "gold"}},
    ),
    (
        "Sacrificial Pit",
        {"elan": 8, "death": 4},
        [],
        [
            {"cost": {"tap": True, "life": 3}, "effect": {"place": {"death": 1}}},
            {
                "cost": {"tap": True, "death": 1},
                "effect": {"text": "Destroy one of your {dragon} or {creature}: gain as many {gold} as its cost"},
            },
        ],
        {"vp": 2, "vp_per_essence": {"essence": "death"}},
    ),
    (
        "Dwarven Mines",
        {"elan": 4, "life": 2, "gold": 1},
        [{"gold": 1}],
        [
            {"cost": {"tap": True, "elan": 5}, "effect": {"gain": {"gold": 3}}},
            {"cost": {"tap": True, "elan": 3, "death": 3}, "effect": {"place": {"gold": 2}}},
        ],
        {"vp_per_essence": {"essence": "gold"}},
    ),
    (
        "Sunken Reef",
        {"elan": 2, "life": 2, "calm": 5},
        [{"gold": 1}],
        [{"cost": {"life": 1, "calm": 2}, "effect": {"place": {"calm": 1}}}],
        {"vp_per_essence": {"essence": "calm"}},
    ),
    (
        "Sorcerer's Bestiary",
        {"elan": 2, "life": 4, "calm": 2, "death": 2},
        [],
        [
            {"cost": {"tap": True}, "effect": {"text": "Go to the victory check now"}},
            {
                "cost": {"tap": True, "any": 4},
                "effect": {"text": "Place a {creature} or {dragon} from any discard pile without paying its cost"},
            },
        ],
        {"text": "**Victory points:** 1 for each of your {creature}, 2 for each of your {dragon}."},
    ),
)


def _key(title: str) -> str:
    text = re.sub(r"['\u2019]", "", title.lower())
    return re.sub(r"[^a-z0-9]+", "-", text).strip("-")


def _other_side(
    title: str, cost: JSONObject, collect: list[JSONObject], powers: list[JSONObject], rest: JSONObject
) -> JSONObject:
    """A row of :data:`_OTHER_SIDE_ROWS` as a printer card (a side that collects nothing has no ``collect``)."""
    card: dict[str, Any] = {"id": _key(title), "title": title, "type": "Place of Power", "cost": cost}
    if collect:
        card["collect"] = collect
    return card | {"powers": powers} | rest


#: The sides of the tiles that are not in the public data set, in printer's card fields, by id.
OTHER_SIDES: dict[str, JSONObject] = {card["id"]: card for card in (_other_side(*row) for row in _OTHER_SIDE_ROWS)}

#: The essence tokens an import adds, with how many of each to print (the examples' counts: 10 of each essence,
#: 12 Gold; change ``count`` in the written essences.json to print more).
ESSENCE_COUNTS = {"elan": 10, "life": 10, "calm": 10, "death": 10, "gold": 12}


def pair_places(cards: list[JSONObject]) -> tuple[list[JSONObject], list[JSONObject]]:
    """Name each Place of Power's other side in ``back_card`` and add the other sides ``cards`` lack.

    ``cards`` are imported printer cards, changed in place: a tile's first-game side gets ``side`` ``A`` and
    ``back_card``, its other side ``side`` ``B``. A side is known by its English title (``Dragon’s Lair`` and
    ``Dragon's Lair`` alike). Returns ``(added, missing)``: the other sides added from :data:`OTHER_SIDES` (each
    with a ``notes`` line saying so), and the Places of Power whose other side is neither in ``cards`` nor in
    :data:`OTHER_SIDES` (a tile of another edition, or a lone second side).
    """
    places = {_key(c["title"]): c for c in cards if c.get("type") == "Place of Power"}
    ids = {c["id"] for c in cards}
    other_sides: list[JSONObject] = []
    paired: set[str] = set()
    for first, second in PAIRS:
        front, back = places.get(first), places.get(second)
        if front is None:
            continue
        if back is None:
            back = copy.deepcopy(OTHER_SIDES[second])
            if back["id"] in ids:
                back["id"] = f"{back['id']}-side-b"
            back["notes"] = _NOTE.format(front=front["title"])
            other_sides.append(back)
            ids.add(back["id"])
        front["side"], back["side"] = "A", "B"
        front["back_card"] = back["id"]
        paired |= {first, second}
    missing = [c for key, c in places.items() if key not in paired]
    return other_sides, missing


def tokens() -> list[JSONObject]:
    """The essence tokens (one card per essence, with its ``count``) and the First Player token."""
    essences = [
        {"id": f"essence-{kind}", "title": kind.title(), "type": "Essence", "essence": kind, "count": count}
        for kind, count in ESSENCE_COUNTS.items()
    ]
    return essences + [{"id": "first-player", "title": "First Player", "type": "First Player"}]


def complete(result: ImportResult, in_order: Callable[[JSONObject], JSONObject]) -> None:
    """Finish an import ``result`` (cards, origins, problems): pair the Places of Power (:func:`pair_places`),
    report each whose other side stays unknown (a warning at the side read), and add the other sides and the
    :func:`tokens` (none for an import that found no component). ``in_order`` puts a card's fields in order."""
    new, missing = pair_places(result.cards)
    where_of = {id(card): where for card, where in zip(result.cards, result.origins)}
    for card in missing:
        card_id: str = card["id"]
        result.problems.append(
            Problem(
                where_of.get(id(card), card_id),
                f"the other side of the Place of Power tile {card['title']!r} is not in the data",
                "it prints with the generic Place of Power back; add the other side as a card and name it in back_card",
                WARNING,
                "missing-other-side",
            )
        )
    result.cards[:] = [in_order(card) for card in result.cards]
    extra = [in_order(card) for card in new] + (tokens() if result.cards else [])
    result.cards += extra
    result.origins += [f"res-arcana: {card.get('notes', card['title'])}" for card in extra]


def added(cards: list[JSONObject]) -> tuple[list[JSONObject], str]:
    """``(the cards read, "; added ..." )``: splits off what :func:`complete` added and says it in words."""
    sides = [c for c in cards if str(c.get("notes", "")).startswith("The other side of")]
    made = [c for c in cards if c.get("type") in ("Essence", "First Player")]
    read = [c for c in cards if c not in sides and c not in made]
    words = []
    if sides:
        n = len(sides)
        words.append("the other side of 1 Place of Power" if n == 1 else f"the other sides of {n} Places of Power")
    if made:
        words.append("the essence and First Player tokens")
    return read, ("; added " + " and ".join(words) if words else "")
