"""Arcana Fight! Edelweiss support: deck checks."""

from printer.games.edelweiss.importers import IMPORTERS
from printer.plugins import GameSupport, LazyChecks

SUPPORT = GameSupport(
    "edelweiss",
    "Arcana Fight! Edelweiss",
    checks=LazyChecks("printer.games.edelweiss.checks:CHECKS"),
    importers=IMPORTERS,
)
