"""Res Arcana component data (``path/to/*.json``) to printer's Res Arcana cards.

Each source file is ``{"schema_version", "essence_types", "cards": [...]}``;
every component has ``id``, ``type``, ``name_en``, costs as
``{"essence": {elan, life, calm, death, gold}, "wild": ...}``, ``collect``,
``powers``, ``react_powers``, ``passives``, ``triggers`` and ``vp``; effects
are lists of one-key objects (``{"gain_to_pool": {...}}``). Each component
becomes one card of ``schema/res-arcana/card.schema.json``:

=================================  ==============================================
source                             printer
=================================  ==============================================
id ``RA_A_DRAGON_TEETH``           ``id`` ``dragon-teeth`` (prefix dropped, slug)
name_en                            ``title``
type artifact / creature /         ``type`` Artifact (``kind`` Creature, Dragon,
dragon / demon                     Demon), Mage, Monument, Place of Power,
mage / monument /                  Magic Item
place_of_power / item
placement_cost, claim_cost         ``cost`` (essences; ``wild`` N is ``any`` N;
                                   ``wild`` with ``allowed`` kinds is ``any``
                                   with ``except`` the other kinds)
collect (collect_phase)            ``collect``: ``gain_to_pool`` essences,
                                   ``gain_wild`` one of 2-3 kinds as ``one_of``,
                                   else ``any`` N ``except``; anything else as
                                   text
collect (on_place)                 ``text`` (When placed: ...)
powers, react_powers               ``powers`` (``reaction`` for react powers):
  cost turn_self, essence, wild,   ``cost`` ``tap``, essences, ``discard``,
  discard_cards, destroy_self,     ``destroy`` (self, artifact), ``tap_other``
  destroy_owned_artifact,
  tap_additional_target
  effect gain_to_pool, gain_wild   ``effect`` ``gain``
  add_to_component (self),         ``place``
  store_wild_on_card
  all_rivals_gain                  ``rivals_gain``
  attack (life_loss)               ``attack``
  ignore_attack                    ``ignore_attack`` (``Dragon`` for dragon_only)
  draw                             ``draw``
  straighten_target, untap_self    ``straighten``
  gain_vp                          ``vp``
  other effects                    ``text`` in card-text markup (icons)
passives placement_cost_modifier   ``discounts``
vp base, per_stored_essence        ``vp``, ``vp_per_essence``
tags                               ``tags``
notes (collect, power)             ``notes`` (never printed)
=================================  ==============================================

Fields listed in :data:`~printer.games.res_arcana.fields.NOT_IMPORTED` are deliberately left out and each is
reported once with the number of components that had it; an effect, passive
or condition printer has no form for is printed as text and reported as a
warning. The source holds only one side of each Place of Power tile: each is
paired with its other side (:mod:`printer.games.res_arcana.places`), added when
the data lacks it, so the tile prints both sides. The essence tokens and the
First Player token, which no data set lists, are added too (``essences.json``,
``first-player.json``).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from pathlib import Path

from printer.cards import importing as common
from printer.cards.importing import convert_each, convert_files, count_skipped, skipped_warnings, type_counts
from printer.cards.markup import escape_text
from printer.games.res_arcana.fields import (
    COLLECT_TEXTS,
    ESSENCES,
    KINDS,
    MAPPED,
    MONUMENT_COST,
    NOT_IMPORTED,
    TYPE_FILES,
    TYPES,
    in_order,
)
from printer.games.res_arcana.places import added, complete
from printer.jsonvalue import JSONObject
from printer.problems import WARNING, Problem, counted


class ResArcanaImport(common.ImportResult):
    """What :func:`import_res_arcana` found: printer cards (dicts in field order), problems, origins;
    output files in :data:`~printer.games.res_arcana.fields.TYPE_FILES` order."""

    type_files = TYPE_FILES


def slug(text: str) -> str:
    """A lower-case id slug: ``RA_A_DRAGON_TEETH`` -> ``dragon-teeth``, ``Dragon’s Lair`` -> ``dragons-lair``."""
    text = re.sub(r"^RA_[A-Z]_", "", text)
    text = re.sub(r"['\u2019]", "", text.lower())
    return re.sub(r"[^a-z0-9]+", "-", text).strip("-") or "component"


def _humanize(value: object) -> str:
    """A source key or value as plain card text: underscores as spaces, JSON braces as brackets, markup escaped."""
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
    return escape_text(text.replace("_", " ").replace("{", "(").replace("}", ")"))


class _Component:
    """Converts one component; collects problems, notes and the fields it did not import."""

    def __init__(self, data: JSONObject, where: str, skipped: dict[str, tuple[int, str]]):
        self.data, self.where, self.skipped = data, where, skipped
        self.problems: list[Problem] = []
        self.notes: list[str] = []
        self.texts: list[str] = []
        self._skipped_here: set[str] = set()

    # -- reporting -----------------------------------------------------------------

    def error(self, path: str, message: str, hint: str | None = None) -> None:
        self.problems.append(Problem(f"{self.where}{path}", message, hint, code="res-arcana-input"))

    def unmapped(self, path: str, what: str, printed: str) -> None:
        self.problems.append(
            Problem(
                f"{self.where}{path}",
                f"{what} has no printer form; printed as text: {printed!r}",
                "check the card's text, or write the ability in printer's fields",
                WARNING,
                "unmapped",
            )
        )

    def skip(self, name: str, path: str) -> None:
        if name not in self._skipped_here:
            self._skipped_here.add(name)
            count_skipped(self.skipped, name, f"{self.where}{path}")

    # -- values --------------------------------------------------------------------

    def counts(self, value: object, path: str) -> JSONObject:
        """An ``{elan: n, ...}`` object as printer essences (zeros dropped)."""
        if value is None:
            return {}
        if not isinstance(value, dict):
            self.error(path, f"essences should be an object of counts, not {type(value).__name__}")
            return {}
        out = {}
        for key, n in value.items():
            if key not in ESSENCES:
                self.error(f"{path}.{key}", f"unknown essence {key!r}", "essences: " + ", ".join(ESSENCES))
            elif not isinstance(n, int) or isinstance(n, bool) or n < 0:
                self.error(f"{path}.{key}", f"essence count should be a whole number, not {n!r}")
            elif n:
                out[key] = n
        return out

    def wild(self, value: object, path: str) -> JSONObject:
        """``wild``: N (any N), or ``{count, allowed}`` (any N except the kinds not allowed)."""
        if value is None:
            return {}
        if isinstance(value, int) and not isinstance(value, bool):
            return {"any": value} if value else {}
        if isinstance(value, dict) and "count" in value:
            count = value["count"]
            if not (count == "X" or (isinstance(count, int) and not isinstance(count, bool) and count >= 0)):
                self.error(f"{path}.count", f'count should be a whole number or "X", not {count!r}')
                return {}
            allowed = value.get("allowed") or list(ESSENCES)
            bad = [k for k in allowed if k not in ESSENCES]
            if bad:
                self.error(f"{path}.allowed", f"unknown essence {bad[0]!r}", "essences: " + ", ".join(ESSENCES))
            out: JSONObject = {"any": count} if count else {}
            excluded = [k for k in ESSENCES if k not in allowed]
            if out and excluded:
                out["except"] = excluded
            return out
        self.error(path, f"'wild' should be a number or {{count, allowed}}, not {value!r}")
        return {}

    def cost(self, value: object, path: str) -> JSONObject | None:
        if value is None:
            return None
        if not isinstance(value, dict):
            self.error(path, f"a cost should be an object, not {type(value).__name__}")
            return None
        return {**self.counts(value.get("essence"), f"{path}.essence"), **self.wild(value.get("wild"), f"{path}.wild")}

    def choice(self, value: JSONObject, path: str) -> JSONObject:
        """``gain_wild``: one of two or three kinds (``one_of``), else ``any`` N except the rest."""
        count, allowed = value.get("count"), value.get("allowed") or []
        if count == 1 and 2 <= len(allowed) <= 3 and all(k in ESSENCES for k in allowed):
            return {"one_of": [{k: 1} for k in allowed]}
        return self.wild(value, path)

    def kind(self, restriction: object) -> str | None:
        if isinstance(restriction, dict):
            for key in ("has_tag", "type"):
                if isinstance(restriction.get(key), str) and restriction[key].lower() in KINDS:
                    return KINDS[restriction[key].lower()]
        return None

    # -- text phrases for effects printer has no field for ---------------------------

    def icons(self, kinds: Iterable[str]) -> str:
        return "".join("{" + k + "}" for k in kinds if k in ESSENCES)

    def any_of(self, allowed: list[str] | None, count: int | str = 1) -> str:
        markup = "{any}" if count == 1 else "{any:" + str(count) + "}"
        excluded = [k for k in ESSENCES if k not in (allowed or ESSENCES)]
        if excluded == ["gold"]:
            return markup + "{no-gold}"
        if sorted(excluded) == ["death", "gold"]:
            return markup + "{no-gold-death}"
        return markup + "".join("{no-" + k + "}" for k in excluded)

    def phrase(self, key: str, value: object, path: str) -> str:
        """Card-text markup for an effect without a printer field (our own wording)."""
        v = value if isinstance(value, dict) else {}
        deck = {
            "your_deck": "your deck",
            "deck": "your deck",
            "your_deck_or_monument_deck": "your deck or the Monument deck",
            "artifact_or_monument_supply": "a deck or the Monument deck",
        }
        if key == "look_at_top_cards":
            return f"look at the top {v.get('count', 1)} cards of {deck.get(str(v.get('from')), 'a deck')}"
        if key == "reorder_top_cards":
            return "put them back in any order"
        if key == "put_back_top_cards":
            return f"put {v.get('count', 1)} back"
        if key == "discard":
            n = v.get("count", 1)
            return "{discard}" if n == 1 else "{discard:" + str(n) + "}"
        if key == "convert_one_essence_type_to_gold":
            stored = self.counts(v.get("stored_cost"), f"{path}.stored_cost")
            text = "turn essences of one kind " + self.icons(v.get("allowed_convert") or ESSENCES[:4]) + " into {gold}"
            if stored:
                text += (
                    " (remove " + "".join("{" + k + ":" + str(n) + "}" for k, n in stored.items()) + " from this card)"
                )
            return text
        if key == "gain_equal_to_rival_essence":
            return "{" + str(v.get("gain_essence")) + "} for each {" + str(v.get("rival_essence")) + "} of one rival"
        if key == "gain_equals_destroyed_artifact_cost_plus":
            return "its cost + " + self.any_of(v.get("allowed"), v.get("plus", 0))
        if key == "gain_equals_discarded_card_cost":
            return "the discarded card's cost in " + self.any_of(v.get("allowed"))
        if key == "jump_to_phase":
            return (
                "go to the victory check now"
                if v.get("phase") == "victory_check"
                else "go to " + _humanize(str(v.get("phase")))
            )
        if key == "move_from_pool_to_component":
            return "move " + self.any_of(v.get("allowed"), v.get("count", 1)) + " from your pool onto this card"
        if key in ("play_card_from_discard", "play_card_from_hand"):
            kind = self.kind(v.get("restriction"))
            what = ("a {" + kind.lower() + "}") if kind else "a card"
            text = f"place {what} from your {'discard pile' if key.endswith('discard') else 'hand'}"
            if v.get("discount"):
                text += ", {any:" + str(v["discount"]) + "} less"
            return text
        if key == "store_on_target_card":
            return (
                "put " + "/".join("{" + k + "}" for k in v.get("essence_choice", []) if k in ESSENCES) + " on any card"
            )
        return ""

    # -- parts ---------------------------------------------------------------------

    def collect(self, items: object) -> list[JSONObject]:
        found = []
        for i, item in enumerate(items if isinstance(items, list) else []):
            path = f".collect[{i}]"
            if not isinstance(item, dict):
                self.error(path, "a collect ability should be an object")
                continue
            if item.get("notes"):
                self.notes.append(str(item["notes"]))
            condition = item.get("if")
            prefix = ""
            if condition is not None:
                if isinstance(condition, dict) and isinstance(condition.get("component_storage"), dict):
                    prefix = "If essences are on this card: "
                else:
                    prefix = f"If {_humanize(condition)}: "
                    self.unmapped(f"{path}.if", f"condition {json.dumps(condition)}", prefix)
            effects = self.effect_items(item.get("effect"), f"{path}.effect")
            timing = item.get("timing", "collect_phase")
            for j, (key, value) in enumerate(effects):
                epath = f"{path}.effect[{j}].{key}"
                if key == "gain_to_pool":
                    entry = self.counts(value, epath)
                elif key == "gain_wild" and isinstance(value, dict):
                    entry = self.choice(value, epath)
                elif key in COLLECT_TEXTS:
                    entry = {"text": COLLECT_TEXTS[key]}
                elif key == "upkeep_choice" and isinstance(value, dict):
                    pay = self.cost(value.get("option_pay"), f"{epath}.option_pay") or {}
                    entry = {
                        "text": "Pay "
                        + "".join("{" + k + ("" if n == 1 else f":{n}") + "}" for k, n in pay.items())
                        + (", else {tap}" if (value.get("option_else") or {}).get("turn_self") else "")
                    }
                else:
                    printed = _humanize(key)
                    self.unmapped(epath, f"collect effect {key!r}", printed)
                    entry = {"text": printed}
                if prefix or timing != "collect_phase":
                    entry = {"text": prefix + self.essence_markup(entry)}
                if timing == "on_place":
                    self.texts.append("**When placed:** " + entry["text"])
                    continue
                if timing != "collect_phase":
                    self.unmapped(f"{path}.timing", f"collect timing {timing!r}", _humanize(str(timing)))
                found.append(entry)
        return found

    def essence_markup(self, entry: JSONObject) -> str:
        """A collect entry as card-text markup (for text-only places)."""
        if "text" in entry:
            text: str = entry["text"]
            return text
        if "one_of" in entry:
            return "/".join(self.essence_markup(option) for option in entry["one_of"])
        parts = ["{" + k + ("" if entry[k] == 1 else f":{entry[k]}") + "}" for k in ESSENCES if entry.get(k)]
        if entry.get("any"):
            parts.append(self.any_of([k for k in ESSENCES if k not in entry.get("except", [])], entry["any"]))
        return "+".join(parts) or "{any:0}"

    def effect_items(self, effects: object, path: str) -> list[tuple[str, object]]:
        items = []
        for j, item in enumerate(effects if isinstance(effects, list) else []):
            if isinstance(item, dict) and len(item) == 1:
                items.append(next(iter(item.items())))
            else:
                self.error(f"{path}[{j}]", "an effect should be an object with one key")
        return items

    def power(self, power: object, path: str, reaction: bool) -> JSONObject | None:
        if not isinstance(power, dict):
            self.error(path, "a power should be an object")
            return None
        for key in power:
            if key not in ("cost", "effect", "notes", "kind"):
                self.skip(f"power.{key}", f"{path}.{key}")
        if power.get("limit") is not None:
            self.unmapped(f"{path}.limit", f"use limit {power['limit']!r}", "")
        if power.get("notes"):
            self.notes.append(str(power["notes"]))
        result: JSONObject = {"reaction": True} if reaction or power.get("kind") == "react" else {}
        cost = self.power_cost(power.get("cost") or {}, f"{path}.cost")
        if cost:
            result["cost"] = cost
        result["effect"] = self.effect(power.get("effect"), f"{path}.effect")
        return result

    def power_cost(self, cost: JSONObject, path: str) -> JSONObject:
        out: JSONObject = {}
        if cost.get("turn_self"):
            out["tap"] = True
        if isinstance(cost.get("tap_additional_target"), dict):
            out["tap_other"] = self.kind(cost["tap_additional_target"].get("restriction")) or "any"
        out.update(self.counts(cost.get("essence"), f"{path}.essence"))
        out.update(self.wild(cost.get("wild"), f"{path}.wild"))
        if cost.get("discard_cards"):
            out["discard"] = cost["discard_cards"]
        destroyed = [
            name for key, name in (("destroy_self", "self"), ("destroy_owned_artifact", "artifact")) if cost.get(key)
        ]
        if destroyed:
            out["destroy"] = destroyed[0] if len(destroyed) == 1 else destroyed
        for key in cost:
            if key not in (
                "turn_self",
                "tap_additional_target",
                "essence",
                "wild",
                "discard_cards",
                "destroy_self",
                "destroy_owned_artifact",
            ):
                self.unmapped(f"{path}.{key}", f"power cost {key!r}", "")
        return out

    def effect(self, effects: object, path: str) -> JSONObject:
        out: JSONObject = {}
        texts: list[str] = []

        def add(name: str, essences: JSONObject) -> None:
            if name in out and isinstance(out[name], dict) and "one_of" not in out[name] and "one_of" not in essences:
                for k, n in essences.items():
                    out[name][k] = out[name].get(k, 0) + n if k in ESSENCES else n
            elif name in out:
                texts.append(self.essence_markup(essences))
            else:
                out[name] = essences

        for j, (key, value) in enumerate(self.effect_items(effects, path)):
            epath = f"{path}[{j}].{key}"
            v = value if isinstance(value, dict) else {}
            if key == "gain_to_pool":
                add("gain", self.counts(value, epath))
            elif key == "gain_wild":
                add("gain", self.choice(v, epath))
            elif key == "add_to_component" and v.get("target") == "self":
                add("place", self.counts(v.get("essence"), f"{epath}.essence"))
            elif key == "store_wild_on_card":
                add("place", self.wild(v, epath))
            elif key == "all_rivals_gain":
                add("rivals_gain", self.counts(v.get("essence"), f"{epath}.essence"))
            elif key == "attack" and v.get("type") == "life_loss" and isinstance(v.get("amount"), int):
                out["attack"] = v["amount"]
            elif key == "ignore_attack":
                out["ignore_attack"] = "Dragon" if v.get("restriction") == "dragon_only" else True
            elif key == "draw" and v.get("from") in ("your_deck", "deck") and isinstance(v.get("count"), int):
                out["draw"] = v["count"]
            elif key == "straighten_target":
                out["straighten"] = self.kind(v.get("restriction")) or "any"
            elif key == "untap_self":
                out["straighten"] = "self"
            elif key == "gain_vp" and isinstance(v.get("amount"), int):
                out["vp"] = v["amount"]
            else:
                printed = self.phrase(key, value, epath)
                if not printed:
                    printed = _humanize(key)
                    self.unmapped(epath, f"effect {key!r}", printed)
                texts.append(printed)
        if texts:
            text = "; ".join(texts)
            out["text"] = text[:1].upper() + text[1:] if text[:1] != "{" else text
        if not out:
            self.error(path, "a power without an effect", "the power prints with an empty effect")
            out["text"] = "-"
        return out

    def discounts(self, passives: object) -> list[JSONObject]:
        found = []
        for i, passive in enumerate(passives if isinstance(passives, list) else []):
            path = f".passives[{i}]"
            effect = passive.get("effect") if isinstance(passive, dict) else None
            modifier = effect.get("placement_cost_modifier") if isinstance(effect, dict) else None
            if isinstance(modifier, dict) and isinstance(modifier.get("discount"), int):
                target = modifier.get("target")
                entry: JSONObject = {"for": self.kind(target) or "any", "any": modifier["discount"]}
                excluded = [k for k in modifier.get("exclude_essence_types") or [] if k in ESSENCES]
                if excluded:
                    entry["except"] = excluded
                found.append(entry)
            else:
                printed = _humanize(str(passive.get("id", "passive")) if isinstance(passive, dict) else "passive")
                self.unmapped(path, "passive ability " + json.dumps(effect)[:60], printed)
                self.texts.append(printed)
        return found

    def vp(self, card: JSONObject) -> None:
        vp = self.data.get("vp")
        if vp is None:
            return
        if not isinstance(vp, dict):
            self.error(".vp", "vp should be an object {base, conditional}")
            return
        if isinstance(vp.get("base"), int) and vp["base"]:
            card["vp"] = vp["base"]
        for i, cond in enumerate(vp.get("conditional") or []):
            per = cond.get("per_stored_essence") if isinstance(cond, dict) else None
            if isinstance(per, dict) and per.get("component") == "self" and per.get("essence_type") in ESSENCES:
                card["vp_per_essence"] = {"essence": per["essence_type"], "vp": per.get("vp_per", 1)}
            else:
                printed = "Victory points: " + _humanize(cond)
                self.unmapped(f".vp.conditional[{i}]", "victory-point condition", printed)
                self.texts.append(printed)

    # -- the card ------------------------------------------------------------------

    def convert(self) -> JSONObject | None:
        data = self.data
        title, source_type = data.get("name_en"), data.get("type")
        if not isinstance(title, str) or not title.strip():
            self.error(".name_en", "component has no English name", "the component is left out")
        if source_type not in TYPES:
            self.error(".type", f"unknown component type {source_type!r}", "types: " + ", ".join(TYPES))
        if not isinstance(title, str) or not title.strip() or source_type not in TYPES:
            return None
        card_type, kind = TYPES[source_type]
        card: JSONObject = {
            "id": slug(data["id"]) if isinstance(data.get("id"), str) else slug(title),
            "title": title.strip(),
            "type": card_type,
        }
        if kind:
            card["kind"] = kind
        cost = self.cost(data.get("placement_cost"), ".placement_cost")
        claim = self.cost(data.get("claim_cost"), ".claim_cost")
        cost = claim if claim is not None else cost
        if card_type == "Monument" and cost != MONUMENT_COST:
            self.error(".placement_cost", f"a Monument costs 4 Gold, not {cost!r}", "the cost prints as 4 Gold")
            cost = None
        if card_type in ("Mage", "Magic Item") and cost:
            self.error(".placement_cost", f"a {card_type} has no cost", "the cost is left out")
            cost = None
        if card_type in ("Artifact", "Place of Power") and cost is None:
            self.error(".placement_cost", f"an {card_type} needs a cost", "it prints as free (0)")
            cost = {}
        if cost is not None:
            card["cost"] = cost
        if collect := self.collect(data.get("collect")):
            card["collect"] = collect
        powers = [self.power(p, f".powers[{i}]", False) for i, p in enumerate(data.get("powers") or [])]
        powers += [self.power(p, f".react_powers[{i}]", True) for i, p in enumerate(data.get("react_powers") or [])]
        powers = [p for p in powers if p is not None]
        if powers:
            card["powers"] = powers
        if discounts := self.discounts(data.get("passives")):
            card["discounts"] = discounts
        for i, trigger in enumerate(data.get("triggers") or []):
            printed = _humanize(trigger)
            self.unmapped(f".triggers[{i}]", "triggered ability", printed)
            self.texts.append(printed)
        self.vp(card)
        if self.texts:
            card["text"] = "\n\n".join(self.texts)
        tags = data.get("tags")
        if isinstance(tags, list) and tags and all(isinstance(t, str) for t in tags):
            card["tags"] = list(dict.fromkeys(tags))
        if self.notes:
            card["notes"] = " ".join(dict.fromkeys(self.notes))
        for key in data:
            if key not in MAPPED:
                self.skip(key, f".{key}")
        return in_order(card)


def convert_file(
    data: object, file: str, skipped: dict[str, tuple[int, str]] | None = None
) -> tuple[list[tuple[str, JSONObject]], list[Problem]]:
    """Convert one parsed source file; returns ``([(where, card)], problems)``.

    ``where`` is ``file::$.cards[i]``. A file that is not ``{"cards": [...]}``
    is an error; a component without a name or with an unknown type is an
    error and left out. Fields not imported are counted into ``skipped``.
    """
    skipped = {} if skipped is None else skipped
    if not isinstance(data, dict) or not isinstance(data.get("cards"), list):
        return [], [
            Problem(f"{file}::$", "a Res Arcana data file is an object with a 'cards' list", code="res-arcana-input")
        ]
    types = data.get("essence_types")
    problems: list[Problem] = []
    if types is not None and list(types) != list(ESSENCES):
        problems.append(
            Problem(
                f"{file}::$.essence_types",
                f"essence types {types!r} differ from {list(ESSENCES)!r}",
                "only the five essences of the base game are known",
                WARNING,
                "res-arcana-input",
            )
        )
    cards, found = convert_each(
        data["cards"], f"{file}::$.cards", _Component, skipped, record="a component", code="res-arcana-input"
    )
    return cards, problems + found


def import_res_arcana(paths: Iterable[Path]) -> ResArcanaImport:
    """Read the source files and convert every component (:func:`convert_file`).

    Unreadable files are errors located as ``file:line:col``; ids are made
    unique (``-2``, ``-3``... with a warning); every field not imported is
    reported once with the number of components that had it.
    """
    result = ResArcanaImport()
    skipped = convert_files(paths, convert_file, result)
    seen: dict[str, int] = {}
    for card, where in zip(result.cards, result.origins):
        base = card["id"]
        seen[base] = seen.get(base, 0) + 1
        if seen[base] > 1:
            card["id"] = f"{base}-{seen[base]}"
            result.problems.append(
                Problem(
                    f"{where}.id",
                    f"id {base!r} is taken; this component is {card['id']!r}",
                    severity=WARNING,
                    code="duplicate-id",
                )
            )
    result.problems += skipped_warnings(skipped, NOT_IMPORTED, "component", "components")
    complete(result, in_order)
    return result


def summary(cards: list[JSONObject]) -> str:
    """``73 components imported (Artifact 40, Mage 10, ...); added ...``: the count per printer type of the
    components read, then what the import added (:func:`~printer.games.res_arcana.places.added`)."""
    read, extra = added(cards)
    return f"{counted(len(read), 'component')} imported ({type_counts(read, TYPE_FILES) or 'none'})" + extra
