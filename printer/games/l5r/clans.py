"""The L5R clans, read once from the ``clan`` enum of the bundled L5R card schema (``schema/l5r/card.schema.json``).

The schema is the one home of the list: the deck checks (a Sensei's clan) and the Oracle importer (a Sensei's
clan keywords) read it from here. The clans are those the Oracle of the Void export names (the great clans of the
Legend of the Five Rings CCG, Ivory Edition rulebook, "Clans", plus its minor and non-clan affiliations).
"""

from __future__ import annotations

import json
from functools import cache

from printer.paths import bundled_schema


@cache
def clan_names() -> tuple[str, ...]:
    """Every clan name the L5R card schema allows, in its order (``"Crab"``, ``"Crane"``, ...)."""
    schema = json.loads(bundled_schema("l5r", "card.schema.json").read_text(encoding="utf-8"))
    return tuple(schema["$defs"]["clan"]["enum"])
