"""Via Magica ``material.json`` (the material file of the Board Game Arena implementation) to printer cards.

The source is one object: ``token_types`` (``"1"``.. ``"7"``: name and how
many stones), ``port_cards`` (``"1"``.. ``"80"``: one entry per printed
portal; two entries share each ``card_type``, the design) and
``bonus_data`` (``card_bonus_type`` 1-8: the portal effects, referred to by
a portal's ``card_bonus``; 9 and 10: the Bonus cards). The mapping to
``schema/via-magica/card.schema.json``:

====================================  ==========================================
source                                printer
====================================  ==========================================
port_cards with one card_type         one ``Portal`` card, ``copies`` = entries
                                      (2), ``id`` ``portal-07``, ``design`` 7
card_color, card_vp                   ``color``, ``score``
card_tk_1..6 (token type, -1 none)    ``animus`` (the first ``card_tk_ns``)
card_bonus -> bonus_data type 1, 2    ``effect`` ``score_per_portal`` /
                                      ``score_per_animus`` + ``points`` (val1, val2)
type 3 (val1 spirit or 7 any, val2)   ``place`` + ``count``
type 4, 5, 7                          ``open_another``, ``extra_portal``,
                                      ``rearrange``
type 6 (val1)                         ``add_crystals``
type 8 (val1 spirit)                  ``wild``
bonus_data type 9 (val1 colour,       ``Bonus``, ``goal`` portal-color, ``color``
val2 points)                          (5: all), ``portals`` 3 (Via Magica rulebook, Japanese edition: three of a
                                      colour), ``points``
bonus_data type 10 (val1, val2)       ``Bonus``, ``goal`` portal-count, ``portals``,
                                      ``points``
token_types (name, number)            ``Animus`` cards: ``animus``, ``stones``
====================================  ==========================================

Colour numbers (val1 of types 1 and 9): 1 green, 2 yellow, 3 purple, 4
blue, 5 all four. Spirit numbers are the ``token_types`` keys (1 air ...
6 shadow, 7 wildcard). The source's display strings (``card_type_str``,
``card_effect_str``...) are not imported: printer prints from the
structure; they are reported once each. Copies of one design that differ
are reported (the first entry is kept).
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path

from printer.cards import importing as common
from printer.cards.importing import count_skipped, skipped_warnings
from printer.cards.load import read_json
from printer.cards.markup import escape_text
from printer.jsonvalue import JSONObject
from printer.problems import WARNING, Problem

GAME = "via-magica"
SPIRITS = ("air", "water", "earth", "life", "fire", "shadow")
#: token_types keys when the source has none (the BGA material's order).
DEFAULT_TOKENS = {1: "air", 2: "water", 3: "earth", 4: "life", 5: "fire", 6: "shadow", 7: "wild"}
#: Colour numbers of bonus_data val1 (types 1 and 9).
COLORS = {1: "green", 2: "yellow", 3: "purple", 4: "blue", 5: "all"}
#: The colour each effect type belongs to (Via Magica rulebook, Japanese edition: yellow immediate, green end of game, blue permanent).
EFFECT_COLORS = {1: "green", 2: "green", 3: "yellow", 4: "yellow", 5: "yellow", 6: "yellow", 7: "yellow", 8: "blue"}
#: A colour goal asks for three portals of one colour (Via Magica rulebook, Japanese edition, ポータルの色).
SAME_COLOR_PORTALS = 3

TYPE_FILES = {
    "Portal": "portals.json",
    "Bonus": "bonus.json",
    "Animus": "animus.json",
    "Summary": "summary.json",
    "Crystal": "crystals.json",
}
#: The crystals in the box (Via Magica rulebook, Japanese edition, 内容物: 48 個のクリスタル); the material has none.
CRYSTALS = 48
#: The summary card's rule line: a drawn wildcard lets everyone crystallise one space, then every stone drawn goes
#: back into the bag (Via Magica rulebook, Japanese edition, ワイルドカード). Each player gets a summary (準備 7).
SUMMARY_TEXT = "{wild}を引いたら、全員が好きな場所に{crystal}を1個置き、引いた石をすべて袋に戻す。"
FIELD_ORDER = (
    "id",
    "title",
    "type",
    "design",
    "copies",
    "color",
    "animus",
    "score",
    "effect",
    "goal",
    "portals",
    "points",
    "stones",
    "bag",
    "count",
    "text",
    "notes",
)

PORTAL_MAPPED = {
    "card_type",
    "card_color",
    "card_vp",
    "card_tk_ns",
    "card_bonus",
    *(f"card_tk_{i}" for i in range(1, 7)),
}
BONUS_MAPPED = {"card_bonus", "card_bonus_type", "val1", "val2"}
TOKEN_MAPPED = {"name", "number"}
NOT_IMPORTED = {
    "port_cards.name": "the design number as a string (card_type is imported)",
    "port_cards.nametr": "the design number as a string (card_type is imported)",
    "port_cards.card_type_str": "a display string of the colour's kind; printer prints it from the colour",
    "port_cards.card_point_str": "a display string of the score; printer prints it from card_vp",
    "port_cards.card_effect_str": "a display string of the effect; printer prints it from card_bonus",
    "port_cards.card_bonus_str": "a short label of the effect; printer prints it from card_bonus",
    "bonus_data.name": "the entry number as a string",
    "bonus_data.nametr": "the entry number as a string",
    "bonus_data.card_bonus_str": "a display string; printer prints it from the type and values",
    "bonus_data.tooltip_str": "a display string; printer prints it from the type and values",
    "token_types.nametr": "a translated name, the same as name",
}


class ViaMagicaImport(common.ImportResult):
    """What :func:`import_via_magica` found: printer cards (dicts in field order) and problems;
    output files in :data:`TYPE_FILES` order."""

    type_files = TYPE_FILES


def _int(value: object) -> int | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, str) and value.strip().lstrip("-").isdigit():
        return int(value)
    return None


class _Converter:
    def __init__(self, file: str):
        self.file = file
        self.problems: list[Problem] = []
        self.skipped: dict[str, tuple[int, str]] = {}
        self.tokens: dict[int, str] = dict(DEFAULT_TOKENS)
        self.bag: dict[str, int] = {}  # the stones of each spirit, for the summary card

    def where(self, table: str, key: str, path: str = "") -> str:
        return f"{self.file}::$.{table}[{json.dumps(key)}]{path}"

    def error(self, where: str, message: str, hint: str | None = None) -> None:
        self.problems.append(Problem(where, message, hint, code="via-magica-input"))

    def warn(self, where: str, message: str, hint: str | None = None, code: str = "via-magica-input") -> None:
        self.problems.append(Problem(where, message, hint, WARNING, code))

    def skip(self, table: str, entry: JSONObject, key: str, mapped: set[str]) -> None:
        for name in entry:
            if name not in mapped:
                count_skipped(self.skipped, f"{table}.{name}", self.where(table, key, f".{name}"))

    # -- tables ----------------------------------------------------------------------

    def table(self, data: JSONObject, name: str) -> dict[str, JSONObject]:
        value = data.get(name)
        if value is None:
            self.error(
                f"{self.file}::$", f"no {name!r} table", "material.json has token_types, port_cards and bonus_data"
            )
            return {}
        if isinstance(value, list):  # a PHP array exported as a list
            value = {str(i): v for i, v in enumerate(value)}
        if not isinstance(value, dict):
            self.error(f"{self.file}::$.{name}", f"{name!r} should be an object of entries")
            return {}
        good = {}
        for key, entry in value.items():
            if isinstance(entry, dict):
                good[key] = entry
            else:
                self.error(self.where(name, key), f"an entry should be an object, not {type(entry).__name__}")
        return good

    def read_tokens(self, tokens: dict[str, JSONObject]) -> list[JSONObject]:
        cards = []
        for key, entry in tokens.items():
            number = _int(key)
            name = str(entry.get("name", "")).strip().lower()
            spirit = "wild" if name in ("wildcard", "wild") else name
            if number is None or spirit not in (*SPIRITS, "wild"):
                self.error(
                    self.where("token_types", key, ".name"),
                    f"unknown animus {entry.get('name')!r}",
                    "animus: Air, Water, Earth, Life, Fire, Shadow, Wildcard",
                )
                continue
            self.tokens[number] = spirit
            self.skip("token_types", entry, key, TOKEN_MAPPED)
            stones = _int(entry.get("number"))
            if stones is None or stones < 1:
                self.error(
                    self.where("token_types", key, ".number"),
                    f"number of stones should be a positive whole number, not {entry.get('number')!r}",
                    "the stones are left out",
                )
                continue
            self.bag[spirit] = self.bag.get(spirit, 0) + stones
            card: JSONObject = {
                "id": f"animus-{spirit}",
                "title": str(entry["name"]).strip(),
                "type": "Animus",
                "animus": spirit,
            }
            faces = -(-stones // 6)
            if faces > 1:
                card["copies"] = faces
                self.warn(
                    self.where("token_types", key, ".number"),
                    f"{stones} {spirit} stones print as {faces} faces of 6 ({faces * 6 - stones} more than needed)",
                )
            card["stones"] = min(stones, 6)
            cards.append(card)
        return cards

    def spirit(self, number: object, where: str, allow_wild: bool = False) -> str | None:
        value = self.tokens.get(_int(number) or 0)
        if value is None or (value == "wild" and not allow_wild):
            self.error(
                where,
                f"unknown animus number {number!r}",
                "numbers: " + ", ".join(f"{k} {v}" for k, v in sorted(self.tokens.items())),
            )
            return None
        return value

    def effect(self, bonus: JSONObject, key: str) -> tuple[JSONObject | None, str | None]:
        """A portal effect from a bonus_data entry of type 1-8, and the colour it belongs to."""
        where = self.where("bonus_data", key)
        kind, val1, val2 = _int(bonus.get("card_bonus_type")), bonus.get("val1"), _int(bonus.get("val2"))
        if kind == 1:
            color = COLORS.get(_int(val1) or 0)
            if color in (None, "all"):
                self.error(
                    f"{where}.val1", f"unknown portal colour number {val1!r}", "1 green, 2 yellow, 3 purple, 4 blue"
                )
                return None, None
            return {"score_per_portal": color, "points": val2}, "green"
        if kind == 2:
            spirit = self.spirit(val1, f"{where}.val1")
            return ({"score_per_animus": spirit, "points": val2}, "green") if spirit else (None, None)
        if kind == 3:
            spirit = self.spirit(val1, f"{where}.val1", allow_wild=True)
            return (
                ({"place": "any" if spirit == "wild" else spirit, "count": val2}, "yellow") if spirit else (None, None)
            )
        if kind == 4:
            return {"open_another": True}, "yellow"
        if kind == 5:
            return {"extra_portal": True}, "yellow"
        if kind == 6:
            return {"add_crystals": _int(val1)}, "yellow"
        if kind == 7:
            return {"rearrange": True}, "yellow"
        if kind == 8:
            spirit = self.spirit(val1, f"{where}.val1")
            return ({"wild": spirit}, "blue") if spirit else (None, None)
        return None, None

    def read_portals(self, portals: dict[str, JSONObject], bonus: dict[str, JSONObject]) -> list[JSONObject]:
        designs: dict[int, list[tuple[str, JSONObject]]] = {}
        for key, entry in portals.items():
            design = _int(entry.get("card_type"))
            if design is None or design < 1:
                self.error(
                    self.where("port_cards", key, ".card_type"),
                    f"portal design should be a positive number, not {entry.get('card_type')!r}",
                    "the portal is left out",
                )
                continue
            designs.setdefault(design, []).append((key, entry))
        cards = []
        for design, entries in sorted(designs.items()):
            key, entry = entries[0]
            for other_key, other in entries[1:]:
                differing = sorted(k for k in set(entry) | set(other) if entry.get(k) != other.get(k))
                if differing:
                    self.warn(
                        self.where("port_cards", other_key),
                        f"this copy of portal design {design} differs from "
                        f"port_cards[{json.dumps(key)}] in {', '.join(differing)}",
                        "the first entry is imported",
                    )
            for k, e in entries:
                self.skip("port_cards", e, k, PORTAL_MAPPED)
            card = self.portal(design, key, entry, bonus)
            if card is not None:
                if len(entries) != 1:
                    card["copies"] = len(entries)
                cards.append({name: card[name] for name in FIELD_ORDER if name in card})
        return cards

    def portal(self, design: int, key: str, entry: JSONObject, bonus: dict[str, JSONObject]) -> JSONObject | None:
        def where(path: str = "") -> str:
            return self.where("port_cards", key, path)

        color = entry.get("card_color")
        if color not in ("yellow", "green", "blue", "purple"):
            self.error(
                where(".card_color"),
                f"unknown portal colour {color!r}",
                "yellow, green, blue or purple; the portal is left out",
            )
            return None
        score = _int(entry.get("card_vp"))
        if score is None or score < 0:
            self.error(
                where(".card_vp"), f"score should be a whole number, not {entry.get('card_vp')!r}", "it prints as 0"
            )
            score = 0
        spaces = [entry.get(f"card_tk_{i}") for i in range(1, 7)]
        used = [s for s in spaces if _int(s) not in (None, -1)]
        animus = [self.spirit(s, where(f".card_tk_{i + 1}")) for i, s in enumerate(spaces) if _int(s) not in (None, -1)]
        animus = [a for a in animus if a]
        count = _int(entry.get("card_tk_ns"))
        if count is not None and count != len(used):
            self.warn(
                where(".card_tk_ns"),
                f"card_tk_ns says {count} animus spaces, card_tk_1..6 name {len(used)}",
                "the named spaces are imported",
            )
        if not 2 <= len(animus) <= 6:
            self.error(where(), f"a portal has 2 to 6 animus spaces, this one {len(animus)}", "the portal is left out")
            return None
        card: JSONObject = {
            "id": f"portal-{design:02d}",
            "title": f"Portal {design}",
            "type": "Portal",
            "design": design,
            "color": color,
            "animus": animus,
            "score": score,
        }
        ref = _int(entry.get("card_bonus"))
        if ref not in (None, -1):
            found = bonus.get(str(ref))
            effect, kind_color = self.effect(found, str(ref)) if found else (None, None)
            if found is None:
                self.error(where(".card_bonus"), f"no bonus_data entry {ref}", "the effect is left out")
            elif effect is None:
                printed = escape_text(str(entry.get("card_effect_str") or f"effect {ref}").strip())
                self.warn(
                    where(".card_bonus"),
                    f"effect type {found.get('card_bonus_type')!r} has no printer form; printed as text: {printed!r}",
                    code="unmapped",
                )
                effect, kind_color = {"text": printed}, color
            if effect is not None and color == "purple":
                self.error(
                    where(".card_bonus"),
                    "a purple portal has no effect (Via Magica rulebook, Japanese edition)",
                    "the effect is left out",
                )
            elif effect is not None:
                if kind_color != color:
                    self.error(
                        where(".card_bonus"),
                        f"a {kind_color} effect on a {color} portal",
                        "a portal's colour gives its effect's kind (Via Magica rulebook, Japanese edition); the effect is left out",
                    )
                else:
                    card["effect"] = effect
        elif color != "purple":
            self.error(where(".card_bonus"), f"a {color} portal needs an effect", "only purple portals have none")
        return card

    def read_bonus_cards(self, bonus: dict[str, JSONObject]) -> list[JSONObject]:
        cards = []
        for key, entry in bonus.items():
            kind = _int(entry.get("card_bonus_type"))
            if kind in EFFECT_COLORS:
                self.skip("bonus_data", entry, key, BONUS_MAPPED)
                continue  # a portal effect, read through the portals
            where = self.where("bonus_data", key)
            val1, points = _int(entry.get("val1")), _int(entry.get("val2"))
            if kind not in (9, 10):
                self.warn(
                    f"{where}.card_bonus_type",
                    f"unknown bonus type {entry.get('card_bonus_type')!r}",
                    "types 1-8 are portal effects, 9 colour goals, 10 portal-count goals; the entry is left out",
                )
                continue
            self.skip("bonus_data", entry, key, BONUS_MAPPED)
            if points is None or val1 is None:
                self.error(where, "a Bonus card needs whole numbers val1 and val2", "the card is left out")
                continue
            if kind == 9:
                color = COLORS.get(val1)
                if color is None:
                    self.error(
                        f"{where}.val1", f"unknown colour number {val1}", "1 green, 2 yellow, 3 purple, 4 blue, 5 all"
                    )
                    continue
                card: dict[str, object] = {
                    "id": f"bonus-{color}",
                    "title": "One of each colour" if color == "all" else f"Three {color} portals",
                    "type": "Bonus",
                    "goal": "portal-color",
                    "color": color,
                }
                if color != "all":
                    card["portals"] = SAME_COLOR_PORTALS
            else:
                card = {
                    "id": f"bonus-{val1}-portals",
                    "title": f"{val1} open portals",
                    "type": "Bonus",
                    "goal": "portal-count",
                    "portals": val1,
                }
            card["points"] = points
            cards.append({name: card[name] for name in FIELD_ORDER if name in card})
        return cards


def game_pieces(bag: dict[str, int]) -> list[JSONObject]:
    """What the box holds beyond the material: the summary card (the bag's stones of each spirit, ``bag``, in
    :data:`SPIRITS` order, then the wildcards; none without stones; printed once per player, printer.toml
    ``per_player``) and the
    :data:`CRYSTALS` crystals (one card with ``count``). Both from the Via Magica rulebook, Japanese edition."""
    order = [*SPIRITS, "wild"]
    cards: list[dict[str, object]] = []
    if bag:  # no stones read: no bag to sum up
        cards.append(
            {
                "id": "summary",
                "title": "サマリー · Summary",
                "type": "Summary",
                "bag": {spirit: bag[spirit] for spirit in order if spirit in bag},
                "text": SUMMARY_TEXT,
            }
        )
    cards.append({"id": "crystal", "title": "Crystal", "type": "Crystal", "count": CRYSTALS})
    return [{name: card[name] for name in FIELD_ORDER if name in card} for card in cards]


def import_via_magica(paths: Iterable[Path]) -> ViaMagicaImport:
    """Read ``material.json`` files and convert portals, Bonus cards and Animus stones; add the summary card and the
    crystals the material does not hold (:func:`game_pieces`).

    Problems are located as ``file::$.port_cards["12"].card_bonus``; an
    unreadable file as ``file:line:col``. Fields not imported are reported
    once each with the number of entries that had them.
    """
    result = ViaMagicaImport()
    bag: dict[str, int] = {}
    read = False
    for path in paths:
        data, problems = read_json(Path(path))
        result.problems += problems
        if data is None:
            continue
        if not isinstance(data, dict):
            result.problems.append(
                Problem(
                    f"{path}::$",
                    "material.json is an object with token_types, port_cards and bonus_data",
                    code="via-magica-input",
                )
            )
            continue
        conv = _Converter(str(path))
        read = True
        animus = conv.read_tokens(conv.table(data, "token_types"))
        bonus = conv.table(data, "bonus_data")
        result.cards += conv.read_portals(conv.table(data, "port_cards"), bonus) + conv.read_bonus_cards(bonus) + animus
        for spirit, stones in conv.bag.items():
            bag[spirit] = bag.get(spirit, 0) + stones
        for name in data:
            if name not in ("token_types", "port_cards", "bonus_data", "source"):
                conv.warn(f"{path}::$.{name}", f"unknown table {name!r} is not imported", code="unknown-field")
        result.problems += conv.problems
        result.problems += skipped_warnings(conv.skipped, NOT_IMPORTED, "entry", "entries")
    if read:
        result.cards += game_pieces(bag)
    return result


def summary(cards: list[JSONObject]) -> str:
    """``80 portals (40 designs), 10 Bonus cards and 23 Animus stones imported, with the summary card and 48
    crystals``."""
    portals = [c for c in cards if c["type"] == "Portal"]
    printed = sum(c.get("copies", 1) for c in portals)
    bonus = sum(1 for c in cards if c["type"] == "Bonus")
    stones = sum(c.get("stones", 1) * c.get("copies", 1) for c in cards if c["type"] == "Animus")
    return (
        f"{printed} portals ({len(portals)} designs), {bonus} Bonus card{'s' * (bonus != 1)} and "
        f"{stones} Animus stone{'s' * (stones != 1)} imported" + _pieces(cards)
    )


def _pieces(cards: list[JSONObject]) -> str:
    crystals = sum(c.get("count", 1) for c in cards if c["type"] == "Crystal")
    summary = any(c["type"] == "Summary" for c in cards)
    parts = (["the summary card"] if summary else []) + ([f"{crystals} crystals"] if crystals else [])
    return ", with " + " and ".join(parts) if parts else ""
