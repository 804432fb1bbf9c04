"""Via Magica support: setup checks, the importer of the public component data."""

from printer.games.via_magica.checks import CHECKS
from printer.games.via_magica.importers import IMPORTERS
from printer.plugins import GameSupport

SUPPORT = GameSupport("via-magica", "Via Magica", checks=CHECKS, importers=IMPORTERS)
