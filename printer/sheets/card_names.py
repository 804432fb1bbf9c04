"""Card fields and values that printer.toml's ``[games.<id>]`` names, against the cards: a name no card has, close
to one that cards have, is most likely a typo, and the build would go on without a word (every back ``default``,
no card double-sided, no per-player copies).

Checked: ``back_field`` (a card field) and each key of ``backs`` (a value of that field); each field and value of
``double_sided``, of ``per_player.when`` and of each component's ``when``; each component's ``copies_field``. A
name no card has and that is close to none (a back for a card type that has no cards yet) is left alone. The
fields the fronts are sorted by (``sort``, ``--sort``) are checked by :func:`sort_problems`: one no card has sorts
nothing, close to a field name or not.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from printer.cards.model import Card
from printer.location import Location
from printer.problems import WARNING, Problem, did_you_mean


def card_name_problems(settings: Mapping[str, Any], cards: Iterable[Card], toml: Path, game_id: str) -> list[Problem]:
    """Warnings, each at its key in ``toml`` (printer.toml) with the closest name the cards have, for the names of
    ``settings`` (the game's ``[games.<id>]`` table) that match no card of ``cards`` but are close to one that does."""
    from printer.config import key_lines, locate

    selectors = _selectors(settings)
    back_field = settings.get("back_field")
    named = {str(field) for _, selector in selectors for field in selector}
    values = _values(cards, named | ({back_field} if isinstance(back_field, str) else set()))
    found: list[tuple[tuple[str, ...], str, str]] = []  # (keys, message, hint)
    _field(found, ("back_field",), back_field, values)
    if isinstance(back_field, str) and back_field in values and isinstance(settings.get("backs"), Mapping):
        for value in settings["backs"]:
            _value(found, ("backs", str(value)), back_field, value, values)
    for keys, selector in selectors:
        _selector(found, keys, selector, values)
    components = settings.get("components")
    for name, spec in components.items() if isinstance(components, Mapping) else ():
        if isinstance(spec, Mapping):
            _field(found, ("components", str(name), "copies_field"), spec.get("copies_field"), values)
    if not found:
        return []
    try:
        lines = key_lines(toml.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError):
        lines = {}
    return [
        Problem(locate(toml, lines, ("games", game_id, *keys)), message, hint, WARNING, "config-name")
        for keys, message, hint in found
    ]


def _selectors(settings: Mapping[str, Any]) -> list[tuple[tuple[str, ...], Mapping[str, Any]]]:
    """Each ``{field = value or [values]}`` table of ``settings`` with its keys: ``double_sided``,
    ``per_player.when`` and each component's ``when``."""
    per_player = settings.get("per_player")
    components = settings.get("components")
    found: list[tuple[tuple[str, ...], object]] = [
        (("double_sided",), settings.get("double_sided")),
        (("per_player", "when"), per_player.get("when") if isinstance(per_player, Mapping) else None),
    ]
    found += [
        (("components", str(name), "when"), spec.get("when"))
        for name, spec in (components.items() if isinstance(components, Mapping) else ())
        if isinstance(spec, Mapping)
    ]
    return [(keys, selector) for keys, selector in found if isinstance(selector, Mapping)]


def _values(cards: Iterable[Card], named: set[str]) -> dict[str, set[str]]:
    """Every field name the cards have, each with the values they hold there when it is one of ``named`` (text and
    numbers as text); the other fields' values are not gathered (a 3,535-card database has 60,000 of them)."""
    values: dict[str, set[str]] = {}
    for card in cards:
        data = card.data
        for field in data.keys() - values.keys():
            values[field] = set()
        for field in named & data.keys():
            value = data[field]
            if isinstance(value, (str, int, float)) and not isinstance(value, bool):
                values[field].add(str(value))
    return values


def _field(found: list[tuple[tuple[str, ...], str, str]], keys: tuple[str, ...], field: object,
           values: Mapping[str, set[str]]) -> None:  # fmt: skip
    if isinstance(field, str) and field not in values:
        hint = did_you_mean(field, sorted(values))
        if hint:
            found.append((keys, f"no card has a field {field!r}", hint))


def _value(found: list[tuple[tuple[str, ...], str, str]], keys: tuple[str, ...], field: str, value: object,
           values: Mapping[str, set[str]]) -> None:  # fmt: skip
    if isinstance(value, (str, int, float)) and not isinstance(value, bool) and str(value) not in values[field]:
        hint = did_you_mean(str(value), sorted(values[field]))
        if hint:
            found.append((keys, f"no card has {field} {str(value)!r}", hint))


def _selector(found: list[tuple[tuple[str, ...], str, str]], keys: tuple[str, ...], selector: Mapping[str, Any],
              values: Mapping[str, set[str]]) -> None:  # fmt: skip
    """A ``{field = value or [values]}`` table: each field a card field, each value one a card holds there."""
    for field, wanted in selector.items():
        if str(field) not in values:
            _field(found, (*keys, str(field)), str(field), values)
            continue
        for value in wanted if isinstance(wanted, list) else [wanted]:
            _value(found, (*keys, str(field)), str(field), value, values)


def sort_problems(fields: Sequence[str], cards: Iterable[Card], where: str | Location) -> list[Problem]:
    """A warning at ``where`` (``--sort``, or printer.toml's ``sort`` key) for each of the sort ``fields`` that no
    card of ``cards`` has (``name``, a card's name as printed, is every card's)."""
    have = {field for card in cards for field in card.data} | {"name"}
    return [
        Problem(
            where,
            f"sort by {field!r}: no card has that field, so it orders nothing",
            did_you_mean(field, sorted(have)) or "card fields: " + ", ".join(sorted(have)),
            WARNING,
            "config-name",
        )
        for field in fields
        if field not in have
    ]
