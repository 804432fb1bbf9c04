"""The ``printer import oracle`` command of this game (:class:`printer.plugins.Importer`)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from printer.cards.load import card_files
from printer.jsonvalue import JSONObject
from printer.plugins import Importer

if TYPE_CHECKING:
    from printer.games.l5r.oracle import OracleImport


def _read(paths: list[Path]) -> OracleImport:
    from printer.games.l5r import oracle

    return oracle.import_oracle(list(card_files(paths)))


def _summary(cards: list[JSONObject]) -> str:
    from printer.games.l5r import oracle

    return oracle.summary(cards)


IMPORTERS = (
    Importer(
        "oracle",
        "l5r",
        _read,
        _summary,
        """Import the Oracle of the Void L5R CCG export (JSON files or folders).

    Writes one L5R card file per card type into DIR (personalities.json,
    strategies.json, ...). Problems in the export are located as
    file::$[index].field; fields not imported are reported once each.
    Exit 0 ok, 1 invalid input (the other cards are still written), 2 usage error (such as files that would be overwritten without --force).""",
        "Folder to write the card files into (one per card type).",
        folders=True,
        one_file=False,
    ),
)
