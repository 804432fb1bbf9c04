"""Via Magica support: setup checks, the importer of the public component data."""

from printer.games.via_magica.importers import IMPORTERS
from printer.plugins import GameSupport, LazyChecks

SUPPORT = GameSupport(
    "via-magica", "Via Magica", checks=LazyChecks("printer.games.via_magica.checks:CHECKS"), importers=IMPORTERS
)
