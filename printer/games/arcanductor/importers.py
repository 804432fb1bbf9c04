"""The ``printer import tarot`` command of this game (:class:`printer.plugins.Importer`)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from printer.jsonvalue import JSONObject
from printer.plugins import Importer

if TYPE_CHECKING:
    from printer.games.arcanductor.tarot import TarotImport


def _read(paths: list[Path]) -> TarotImport:
    from printer.games.arcanductor import tarot

    return tarot.import_tarot(list(paths))


def _summary(cards: list[JSONObject]) -> str:
    from printer.games.arcanductor import tarot

    return tarot.summary(cards)


IMPORTERS = (
    Importer(
        "tarot",
        "arcanductor",
        _read,
        _summary,
        """Import the 22 Major Arcana of a tarot card list as ARCANDUCTOR cards.

    Reads names and numbers only (tarot_interpretations.json and the like)
    and writes DIR/major-arcana.json: 22 cards with their number, their
    Japanese name (the game's card files are Japanese; English goes in a
    translation), an empty power circle and blank upright and reversed
    effects to write in.
    Exit 0 ok, 1 invalid input (the other cards are still written), 2 usage error (such as files that would be overwritten without --force).""",
        "Folder to write the card file into (major-arcana.json).",
        folders=False,
        one_file=True,
    ),
)
