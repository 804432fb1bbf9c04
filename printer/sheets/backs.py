"""Which back a card prints with, from its data and printer.toml's ``[games.<id>]`` table alone: no template is
loaded, so :func:`printer.sheets.preflight.preflight` can tell the backs in use without a renderer."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from printer.cards.model import Card


def back_name(settings: Mapping[str, Any], card: Card | None) -> str:
    """The back ``card`` prints with: its ``back`` field, else the game's mapping, else ``default``
    (``placeholder`` for no card).

    The mapping is ``settings``' (printer.toml's ``[games.<id>]``) key ``back_field`` (the card field that decides)
    and table ``backs`` (field value to back name).
    """
    if card is None:
        return "placeholder"
    if card.get("back"):
        back: str = card["back"]
        return back
    field_name = settings.get("back_field")
    backs = settings.get("backs", {})
    if field_name and card.get(field_name) in backs:
        mapped: str = backs[card[field_name]]
        return mapped
    return "default"
