"""Arcana Fight! Edelweiss support: deck checks."""

from printer.games.edelweiss.checks import CHECKS
from printer.games.edelweiss.importers import IMPORTERS
from printer.plugins import GameSupport

SUPPORT = GameSupport("edelweiss", "Arcana Fight! Edelweiss", checks=CHECKS, importers=IMPORTERS)
