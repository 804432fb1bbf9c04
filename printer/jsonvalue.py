"""Type names for values read from JSON (card data, schemas, deck files, ``printer.toml`` tables).

A card's data is arbitrary JSON shaped only by its game's schema, so its values are typed :data:`JSON` (``Any``):
code reading one narrows it with ``isinstance`` or trusts the schema it was validated against.
"""

from __future__ import annotations

from typing import Any, TypeAlias

#: any value ``json.loads`` can return (object, array, string, number, boolean or null)
JSON: TypeAlias = Any
#: a JSON object: a card's data, a schema, a TOML table
JSONObject: TypeAlias = dict[str, Any]
