"""Legend of the Five Rings CCG support: deck checks, the Oracle of the Void importer, Experienced names,
the Stronghold/Sensei/Wind decklist labels and Egg of P'an Ku ``.l5d`` decklists."""

from printer.games.l5r.importers import IMPORTERS
from printer.games.l5r.names import EXPERIENCED
from printer.plugins import GameSupport, LazyChecks

SUPPORT = GameSupport(
    "l5r",
    "Legend of the Five Rings CCG",
    checks=LazyChecks("printer.games.l5r.checks:CHECKS"),
    importers=IMPORTERS,
    name_variant=EXPERIENCED,
    deck_labels=("Stronghold", "Sensei", "Wind", "Pre-game"),
    decklist_suffixes={".l5d": "l5d"},
)
