"""Names of the stages below the API that it passes on as its own: the build request and plan
(:mod:`printer.sheets.plan`), the most players a build prints for (:mod:`printer.sheets.players`), a length read
from text (:func:`printer.units.parse_length`) and the problems (:mod:`printer.problems`: :class:`Problem`, its
:data:`ERROR` severity, the :class:`PrinterError` and :class:`UsageError` exceptions, :func:`counted`). The
command line imports these with ``printer --help``: each module here is one it loads anyway."""

from printer.problems import ERROR, PrinterError, Problem, UsageError, counted
from printer.sheets.plan import BuildPlan, BuildRequest, parse_bytes
from printer.sheets.players import MAX_PLAYERS
from printer.units import parse_length

__all__ = [
    "ERROR",
    "MAX_PLAYERS",
    "BuildPlan",
    "BuildRequest",
    "PrinterError",
    "Problem",
    "UsageError",
    "counted",
    "parse_bytes",
    "parse_length",
]
