"""What changed between two manifests of a game's cards (:mod:`printer.sheets.manifest`): cards added,
removed and changed, field by field, and why a printed face changed when no field did.

:func:`compare` takes the manifest data of before and now, and, when known, each card's data on each
side (by id) to show a field's old and new values; without them a field is named as changed.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

#: a value the manifest does not hold (only its digest)
UNKNOWN = object()
#: characters of a value shown in a change
VALUE_CHARS = 60


@dataclass
class FieldChange:
    """One field of a card: its ``name``, the ``old`` and ``new`` values (:data:`UNKNOWN` when not known,
    ``None`` when the card did not have it)."""

    name: str
    old: Any
    new: Any

    def __str__(self) -> str:
        if self.old is UNKNOWN:
            return f"{self.name}: changed, now {show(self.new)}" if self.new is not None else f"{self.name}: removed"
        return f"{self.name}: {show(self.old)} -> {show(self.new)}"


@dataclass
class CardChange:
    """A card added, removed or changed (``status``), by ``id`` and ``name``.

    ``fields`` are the fields that changed; ``causes`` what else changed its printed face (``template
    card.html.j2``, ``stylesheet templates/t/card.css``, ``icon templates/t/icons/gold.svg``, ``art``,
    ``print options``); ``sides`` the printed sides that changed (``front``, ``back``); ``reprint`` whether
    its printed face changed (a new card's too).
    """

    id: str
    name: str
    status: str
    fields: list[FieldChange] = field(default_factory=list)
    causes: list[str] = field(default_factory=list)
    sides: list[str] = field(default_factory=list)

    @property
    def reprint(self) -> bool:
        return self.status == "added" or bool(self.sides)

    def lines(self) -> list[str]:
        """What changed, a line each: the fields, then why the face changed."""
        found = [str(f) for f in self.fields]
        if self.status != "changed":
            return found
        if self.sides and self.causes:
            found.append(f"printed {' and '.join(self.sides)} changed: {', '.join(self.causes)}")
        elif self.sides:
            found.append(f"printed {' and '.join(self.sides)} changed")
        return found


def show(value: Any) -> str:
    """A value as a change shows it: text in quotes, others as JSON, long ones cut."""
    text = json.dumps(value, ensure_ascii=False, sort_keys=True, default=str)
    return text if len(text) <= VALUE_CHARS else text[: VALUE_CHARS - 1] + "…"


def compare(
    old: dict[str, Any],
    now: dict[str, Any],
    old_values: dict[str, dict[str, Any]] | None = None,
    values: dict[str, dict[str, Any]] | None = None,
) -> list[CardChange]:
    """The cards that differ between the manifests ``old`` and ``now``, sorted by id (see the module docstring)."""
    before, after = old.get("cards", {}), now.get("cards", {})
    styles = _changed(old.get("stylesheets", {}), now.get("stylesheets", {}))
    templates = _changed(old.get("templates", {}), now.get("templates", {}))
    options = old.get("options") is not None and now.get("options") is not None
    options = options and _face_options(old["options"]) != _face_options(now["options"])
    found: list[CardChange] = []
    for card_id in sorted(set(before) | set(after)):
        was, card = before.get(card_id), after.get(card_id)
        if card is None:
            found.append(CardChange(card_id, str(was.get("name", card_id)), "removed"))
            continue
        if was is None:
            found.append(CardChange(card_id, str(card.get("name", card_id)), "added", sides=["front"]))
            continue
        change = CardChange(card_id, str(card.get("name", card_id)), "changed")
        old_fields, new_fields = was.get("fields", {}), card.get("fields", {})
        old_data = (old_values or {}).get(card_id)
        new_data = (values or {}).get(card_id, {})
        for name in sorted(set(old_fields) | set(new_fields)):
            if old_fields.get(name) == new_fields.get(name):
                continue
            before_value = UNKNOWN if old_data is None else old_data.get(name)
            change.fields.append(FieldChange(name, before_value, new_data.get(name)))
        change.sides = [side for side in ("front", "back") if was.get(side) != card.get(side)]
        if change.sides:
            change.causes = _causes(was, card, bool(change.fields), styles, templates, options)
        if change.fields or change.sides:
            found.append(change)
    return found


def _changed(old: dict[str, str], now: dict[str, str]) -> list[str]:
    return sorted(k for k in set(old) | set(now) if old.get(k) != now.get(k))


def _face_options(options: dict[str, Any]) -> tuple[Any, ...]:
    return tuple(options.get(k) for k in ("card", "bleed", "safe"))


def _causes(
    was: dict[str, Any], card: dict[str, Any], fields: bool, styles: list[str], templates: list[str], options: bool
) -> list[str]:
    """Why a card's printed face changed beside its fields: its template, the stylesheets, the files it names,
    the print options."""
    causes: list[str] = []
    if was.get("html") != card.get("html") and not fields:
        causes += [f"template {t}" for t in templates] or ["its HTML"]
    causes += [f"stylesheet {s}" for s in styles]
    old_files, new_files = was.get("files", {}), card.get("files", {})
    for token in sorted(set(old_files) | set(new_files)):
        if old_files.get(token) == new_files.get(token):
            continue
        if token.startswith("art") and "/" not in token:
            causes.append("art")
        elif token.endswith(".svg") and "icon" in token:
            causes.append(f"icon {token}")
        else:
            causes.append(f"file {token}")
    if options:
        causes.append("print options (card size, bleed or safe area)")
    return list(dict.fromkeys(causes))
