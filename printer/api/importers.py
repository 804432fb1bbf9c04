"""The importers and games installed (:mod:`printer.plugins`), as ``printer import`` and the shell completion of a
game's id name them: the entry-point ``GROUP`` games register in, each game's :class:`Importer` (:func:`importers`)
and the :class:`ImportResult` an importer gives."""

from printer.cards.importing import ImportResult
from printer.plugins import GROUP, Importer, importers

__all__ = ["GROUP", "ImportResult", "Importer", "importers"]
