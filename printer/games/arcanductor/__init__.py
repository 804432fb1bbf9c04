"""ARCANDUCTOR support: deck checks, the tarot importer (Major Arcana names and numbers)."""

from printer.games.arcanductor.importers import IMPORTERS
from printer.plugins import GameSupport, LazyChecks

SUPPORT = GameSupport(
    "arcanductor", "ARCANDUCTOR", checks=LazyChecks("printer.games.arcanductor.checks:CHECKS"), importers=IMPORTERS
)
