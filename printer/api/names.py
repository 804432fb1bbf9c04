"""Names of the stages below the API that it passes on as its own: the build request and plan
(:mod:`printer.sheets.plan`), the most players a build prints for (:mod:`printer.sheets.players`) and
:class:`~printer.problems.UsageError`."""

from printer.problems import UsageError
from printer.sheets.plan import BuildPlan, BuildRequest, parse_bytes
from printer.sheets.players import MAX_PLAYERS

__all__ = ["MAX_PLAYERS", "BuildPlan", "BuildRequest", "UsageError", "parse_bytes"]
