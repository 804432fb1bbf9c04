"""Legend of the Five Rings CCG support: deck checks, the Oracle of the Void importer."""

from printer.games.l5r.checks import CHECKS
from printer.games.l5r.importers import IMPORTERS
from printer.plugins import GameSupport

SUPPORT = GameSupport("l5r", "Legend of the Five Rings CCG", checks=CHECKS, importers=IMPORTERS)
