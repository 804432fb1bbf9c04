"""Res Arcana support: setup checks, the importer of the public component data."""

from printer.games.res_arcana.checks import CHECKS
from printer.games.res_arcana.importers import IMPORTERS
from printer.plugins import GameSupport

SUPPORT = GameSupport("res-arcana", "Res Arcana", checks=CHECKS, importers=IMPORTERS)
