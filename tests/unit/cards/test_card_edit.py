"""Editing one card in a card file keeps every other character of the file (printer.cards.edit)."""

from __future__ import annotations

import json

import pytest

from printer.cards.edit import CardEditError, card_at, delete_card, insert_card, pointer_parts, replace_card

FILE = """{
  "$schema": "../../schema/l5r/card.schema.json",
  "game": "l5r",
  "cards": [
    {
      "id": "first",
      "title": "Première",
      "keywords": ["Samurai", "Crab Clan"],
      "cost": 3,
      "text": "**Battle:** Bow this card."
    },
    {"id": "second", "title": "Second", "cost": "+1"},
    {
      "id": "third",
      "title": "Third"
    }
  ]
}
"""


def test_pointer_parts():
    assert pointer_parts("$.cards[3]") == ["cards", 3]
    assert pointer_parts("$[2]") == [2]
    assert pointer_parts("$") == []


def test_a_changed_value_changes_only_its_text():
    card = dict(json.loads(FILE)["cards"][0], cost=4)
    new = replace_card(FILE, "$.cards[0]", card)
    assert new == FILE.replace('"cost": 3', '"cost": 4')


def test_key_order_indentation_and_other_cards_are_kept():
    card = {"id": "second", "title": "Second!", "cost": "+1", "keywords": ["Kami"]}
    new = replace_card(FILE, "$.cards[1]", card)
    assert new == FILE.replace(
        '{"id": "second", "title": "Second", "cost": "+1"}',
        '{"id": "second", "title": "Second!", "cost": "+1", "keywords": ["Kami"]}',
    )
    assert json.loads(new)["cards"][1] == card
    assert list(json.loads(new)["cards"][1]) == ["id", "title", "cost", "keywords"]


def test_removed_and_added_fields_in_a_multiline_card():
    card = {"id": "first", "title": "Première", "keywords": ["Samurai"], "text": "Line one\nline two", "flavor": "é"}
    new = replace_card(FILE, "$.cards[0]", card)
    assert json.loads(new)["cards"][0] == card
    lines = new.splitlines()
    assert '      "keywords": ["Samurai"],' in lines  # a one-line list stays on one line
    assert '      "flavor": "é"' in lines  # a new field: the file's indentation, non-ASCII as it is
    assert "Première" in new and "\\u00e9" not in new
    assert new.split('"cards"')[0] == FILE.split('"cards"')[0]
    assert new.endswith('    {\n      "id": "third",\n      "title": "Third"\n    }\n  ]\n}\n')


def test_insert_after_a_card_and_at_the_end():
    new, pointer = insert_card(FILE, "$.cards[0]", {"id": "new", "title": "New"})
    assert pointer == "$.cards[1]"
    data = json.loads(new)
    assert [c["id"] for c in data["cards"]] == ["first", "new", "second", "third"]
    assert '    {\n      "id": "new",\n      "title": "New"\n    },\n    {"id": "second"' in new
    end, pointer = insert_card(FILE, None, {"id": "last", "title": "Last"})
    assert pointer == "$.cards[3]" and json.loads(end)["cards"][-1]["id"] == "last"


def test_delete_keeps_the_neighbours_text():
    new = delete_card(FILE, "$.cards[1]")
    assert [c["id"] for c in json.loads(new)["cards"]] == ["first", "third"]
    assert FILE.split('    {"id": "second"')[0] in new
    assert new.count("\n") == FILE.count("\n") - 1


def test_the_last_card_can_go_and_come_back():
    text = FILE
    for pointer in ("$.cards[2]", "$.cards[1]", "$.cards[0]"):
        text = delete_card(text, pointer)
    assert json.loads(text)["cards"] == []
    text, pointer = insert_card(text, None, {"id": "only", "title": "Only"})
    assert json.loads(text)["cards"] == [{"id": "only", "title": "Only"}]


def test_a_single_card_file_and_a_top_level_list():
    single = '{\n\t"id": "a",\n\t"title": "A"\n}\n'
    assert replace_card(single, "$", {"id": "a", "title": "B"}) == single.replace('"A"', '"B"')
    with pytest.raises(CardEditError):
        delete_card(single, "$")
    listed = '[\n  {"id": "a", "title": "A"}\n]\n'
    new, pointer = insert_card(listed, "$[0]", {"id": "b", "title": "B"})
    assert pointer == "$[1]" and [c["id"] for c in json.loads(new)] == ["a", "b"]


def test_no_card_there():
    with pytest.raises(CardEditError):
        replace_card(FILE, "$.cards[9]", {"id": "x"})
    assert card_at(FILE, "$.cards[9]") is None
    assert card_at(FILE, "$.cards[1]")["id"] == "second"
