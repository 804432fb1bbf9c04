"""The Plan stage of a build: what it is asked (:class:`BuildRequest`) and what it decided (:class:`BuildPlan`).

A build runs in stages, each handing the next what it made: the plan (:func:`printer.api.plan.make_plan`: options,
sheet layout, the cards and print items, limits, targets; no face laid out, no file written), the faces, the
sheets, the outputs (:mod:`printer.api.pipeline`). This package also holds the names the options take
(:mod:`printer.sheets.plan.names`), so the command line offers them without loading a stage: it imports nothing
heavier than :mod:`printer.units` and :mod:`printer.problems`.
"""

from __future__ import annotations

from printer.sheets.plan.build_plan import BuildPlan
from printer.sheets.plan.names import (
    CUT_FILES,
    DUPLEX,
    EXPORTS,
    FLIPS,
    MARKS,
    ORIENTATIONS,
    PRESETS,
    REGISTRATIONS,
    SHEET_OPTIONS,
)
from printer.sheets.plan.request import BuildRequest, option, parse_bytes, sheet_values

__all__ = [
    "BuildPlan",
    "BuildRequest",
    "CUT_FILES",
    "DUPLEX",
    "EXPORTS",
    "FLIPS",
    "MARKS",
    "ORIENTATIONS",
    "PRESETS",
    "REGISTRATIONS",
    "SHEET_OPTIONS",
    "option",
    "parse_bytes",
    "sheet_values",
]
