"""What :mod:`printer.games.res_arcana.importer` maps the Res Arcana component data to: the essences, each source
type's printer type and kind, the output file of each type, the order of a card's fields, the source fields read and
those left out (with why), and the texts of single cards' collect effects.
"""

from __future__ import annotations

from printer.jsonvalue import JSONObject

GAME = "res-arcana"
ESSENCES = ("elan", "life", "calm", "death", "gold")

#: Source type -> (printer type, kind).
TYPES = {
    "artifact": ("Artifact", None),
    "creature": ("Artifact", "Creature"),
    "dragon": ("Artifact", "Dragon"),
    "demon": ("Artifact", "Demon"),
    "mage": ("Mage", None),
    "monument": ("Monument", None),
    "place_of_power": ("Place of Power", None),
    "item": ("Magic Item", None),
}

#: Output file per printer type.
TYPE_FILES = {
    "Artifact": "artifacts.json",
    "Mage": "mages.json",
    "Monument": "monuments.json",
    "Place of Power": "places-of-power.json",
    "Magic Item": "magic-items.json",
    "Essence": "essences.json",
    "First Player": "first-player.json",
}

#: A tag or type restriction (``has_tag``, ``type``) -> the kind printer names.
KINDS = {"dragon": "Dragon", "creature": "Creature", "demon": "Demon", "artifact": "Artifact"}

#: The order of fields in an imported card.
FIELD_ORDER = (
    "id",
    "title",
    "type",
    "kind",
    "side",
    "back_card",
    "essence",
    "count",
    "cost",
    "collect",
    "powers",
    "discounts",
    "vp",
    "vp_per_essence",
    "text",
    "tags",
    "notes",
)

#: Component fields the importer reads.
MAPPED = {
    "id",
    "type",
    "name_en",
    "tags",
    "placement_cost",
    "claim_cost",
    "collect",
    "powers",
    "react_powers",
    "passives",
    "triggers",
    "vp",
}

#: Fields deliberately not carried.
NOT_IMPORTED = {
    "name_de": "the German name (printer cards have one title)",
    "aruco_id": "a camera-marker id of the source project",
    "source_image": "an image path of the source project",
    "status": "the source project's review status",
    "side": "the source's label of a tile side (printer names a tile's sides A and B)",
    "power.power_index": "the power's position, which printer keeps by order",
    "power.requires_action": "follows from the power being a reaction or not (Res Arcana rulebook, Japanese edition, 対応パワー)",
    "power.requires_turn": "repeats the cost's turn_self",
    "power.limit": "a use limit; only null is known (another value is reported)",
}

#: Collect effects of a single card, as card text in our words (the source names them only by id):
#: Vault gives 2 essences but Gold while Gold is on it and not taken; Windup Man adds 2 of each kind on it.
COLLECT_TEXTS = {
    "vault_collect_choice": "If {gold} is on this card and you leave it there: {any:2}{no-gold}",
    "windup_collect_plus2_each_type": "add 2 more of each kind of essence it holds",
}

#: Every Monument costs 4 Gold (Res Arcana rulebook, Japanese edition, アクション b).
MONUMENT_COST = {"gold": 4}


def in_order(card: JSONObject) -> JSONObject:
    """``card`` with its fields in :data:`FIELD_ORDER`."""
    return {key: card[key] for key in FIELD_ORDER if key in card}
