"""The L5R clan list has one home, the card schema's ``clan`` enum, read by the deck checks and the importer."""

from __future__ import annotations

import json

from printer.games.l5r import checks, oracle
from printer.games.l5r.clans import clan_names
from printer.paths import bundled_schema


def test_the_clans_are_the_schemas_enum():
    schema = json.loads(bundled_schema("l5r", "card.schema.json").read_text(encoding="utf-8"))
    assert clan_names() == tuple(schema["$defs"]["clan"]["enum"])
    assert {"Crab", "Unaligned", "Toturi's Army", "Imperial"} <= set(clan_names())


def test_no_module_keeps_a_clan_list_of_its_own():
    assert not hasattr(checks, "CLANS")
    assert not hasattr(oracle, "CLANS")


def test_a_sensei_of_a_minor_clan_keyword_has_that_clan():
    card = {"id": "s", "title": "S", "type": "Sensei", "keywords": ["Toturi's Army"]}
    assert checks.card_clans(card) == {"Toturi's Army"}
