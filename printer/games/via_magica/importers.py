"""The ``printer import via-magica`` command of this game (:class:`printer.plugins.Importer`)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from printer.jsonvalue import JSONObject
from printer.plugins import Importer

if TYPE_CHECKING:
    from printer.games.via_magica.importer import ViaMagicaImport


def _read(paths: list[Path]) -> ViaMagicaImport:
    from printer.games.via_magica import importer

    return importer.import_via_magica(list(paths))


def _summary(cards: list[JSONObject]) -> str:
    from printer.games.via_magica import importer

    return importer.summary(cards)


IMPORTERS = (
    Importer(
        "via-magica",
        "via-magica",
        _read,
        _summary,
        """Import Via Magica material (material.json: port_cards, bonus_data, token_types).

    Writes portals.json (one card per portal design, copies 2), bonus.json
    (the Bonus cards), animus.json (the Animus stones, printed as round
    tokens), summary.json (the summary card, with the bag's stones) and
    crystals.json (the 48 crystals, which the material does not hold) into DIR. Problems are located as file::$.port_cards["n"].field.
    Exit 0 ok, 1 invalid input (the other cards are still written), 2 usage error (such as files that would be overwritten without --force).""",
        "Folder to write the card files into (portals.json, bonus.json, animus.json, summary.json, crystals.json).",
        folders=False,
        one_file=False,
    ),
)
