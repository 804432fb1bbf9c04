"""The other sides of Res Arcana's Places of Power, built from one table, are the cards the importer added before."""

from __future__ import annotations

import hashlib
import json

from printer.games.res_arcana.places import OTHER_SIDES, PAIRS, pair_places

#: sha256 of the JSON of the cards as written out one literal each (key order kept), before the table
BEFORE = "18a3c747a5f3b44bd676f9369876e5a53dd00c0bd21225e9311ce7f30df96d75"


def _digest(value) -> str:
    return hashlib.sha256(json.dumps(value).encode()).hexdigest()


def test_the_other_sides_are_the_same_cards_in_the_same_key_order():
    assert _digest(OTHER_SIDES) == BEFORE
    assert list(OTHER_SIDES) == [second for _, second in PAIRS]
    assert OTHER_SIDES["sorcerers-bestiary"]["title"] == "Sorcerer's Bestiary"
    assert "collect" not in OTHER_SIDES["sacrificial-pit"] and OTHER_SIDES["sacrificial-pit"]["vp"] == 2


def test_an_import_of_the_first_sides_adds_the_same_other_sides():
    firsts = [{"id": first, "title": first.replace("-", " ").title(), "type": "Place of Power"} for first, _ in PAIRS]
    added, missing = pair_places(firsts)
    assert missing == []
    assert [{k: v for k, v in card.items() if k not in ("notes", "side")} for card in added] == list(
        OTHER_SIDES.values()
    )
    assert all(card["side"] == "B" and card["notes"].startswith("The other side of ") for card in added)
