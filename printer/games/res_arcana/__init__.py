"""Res Arcana support: setup checks, the importer of the public component data."""

from printer.games.res_arcana.importers import IMPORTERS
from printer.plugins import GameSupport, LazyChecks

SUPPORT = GameSupport(
    "res-arcana", "Res Arcana", checks=LazyChecks("printer.games.res_arcana.checks:CHECKS"), importers=IMPORTERS
)
