"""Names of the stages below the API that it passes on as its own: the build request and plan
(:mod:`printer.sheets.plan`), the most players a build prints for (:mod:`printer.sheets.players`) and a length read
from text (:func:`printer.units.parse_length`). The problems are :mod:`printer.api.problems`'s."""

from printer.sheets.plan import BuildPlan, BuildRequest, parse_bytes
from printer.sheets.players import MAX_PLAYERS
from printer.units import parse_length

__all__ = ["MAX_PLAYERS", "BuildPlan", "BuildRequest", "parse_bytes", "parse_length"]
