"""ARCANDUCTOR support: deck checks, the tarot importer (Major Arcana names and numbers)."""

from printer.games.arcanductor.checks import CHECKS
from printer.games.arcanductor.importers import IMPORTERS
from printer.plugins import GameSupport

SUPPORT = GameSupport("arcanductor", "ARCANDUCTOR", checks=CHECKS, importers=IMPORTERS)
