"""The ``printer import res-arcana`` command of this game (:class:`printer.plugins.Importer`)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from printer.cards.load import card_files
from printer.jsonvalue import JSONObject
from printer.plugins import Importer

if TYPE_CHECKING:
    from printer.games.res_arcana.importer import ResArcanaImport


def _read(paths: list[Path]) -> ResArcanaImport:
    from printer.games.res_arcana import importer

    return importer.import_res_arcana(list(card_files(paths)))


def _summary(cards: list[JSONObject]) -> str:
    from printer.games.res_arcana import importer

    return importer.summary(cards)


IMPORTERS = (
    Importer(
        "res-arcana",
        "res-arcana",
        _read,
        _summary,
        """Import Res Arcana component data (JSON files with a 'cards' list, or folders of them).

    Writes artifacts.json, mages.json, monuments.json, places-of-power.json
    (each base-game tile with both sides: a side the data lacks is added),
    magic-items.json, essences.json and first-player.json into DIR. Problems are located as
    file::$.cards[i].field; fields and effects with no printer form are
    reported (effects print as text).
    Exit 0 ok, 1 invalid input (the other cards are still written), 2 usage error (such as files that would be overwritten without --force).""",
        "Folder to write the card files into (one per component type).",
        folders=True,
        one_file=False,
    ),
)
