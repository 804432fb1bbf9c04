"""The names a build's options take, in one place: the command line offers them, the stages check against them.

Nothing here imports more than :mod:`printer.units`, so that ``printer --help`` lists the choices without loading a
stage. Each stage that acts on a name imports it from here (:mod:`printer.sheets.options`,
:mod:`printer.sheets.cutting`, :mod:`printer.sheets.export`, :mod:`printer.sheets.export.presets`).
"""

from __future__ import annotations

from printer.units import FLIPS, ORIENTATIONS

__all__ = [
    "CUT_FILES",
    "DUPLEX",
    "EXPORTS",
    "FLIPS",
    "MARKS",
    "ORIENTATIONS",
    "PRESETS",
    "REGISTRATIONS",
    "SHEET_OPTIONS",
]

#: ``marks``: per-card crop marks, full-length cut lines, or none
MARKS = ("crop", "cut", "none")
#: ``duplex``: how backs print (``fold``: a fold-over sheet for a printer without duplex)
DUPLEX = ("long-edge", "short-edge", "fold", "none")
#: ``registration``: print-then-cut marks for a cutting machine (:mod:`printer.sheets.cutting`)
REGISTRATIONS = ("none", "silhouette", "cricut")

#: the sheet options, each settable in printer.toml's ``[project]`` and ``[games.<id>]`` and on the command line
#: (:func:`printer.sheets.options.resolve_options`; the module's docstring says what each one means)
SHEET_OPTIONS = (
    "paper",
    "orientation",
    "margin",
    "gutter",
    "bleed",
    "safe",
    "marks",
    "mark_length",
    "mark_offset",
    "duplex",
    "back_offset",
    "sheet_layout",
    "sort",
    "corner_radius",
    "registration",
    "registration_inset",
    "layout_version",
    "registration_empty_slot",
)

#: ``--export`` names, each an entry of :data:`printer.sheets.export.EXPORTERS` (which also holds the cut files'
#: ``cut-svg``/``cut-dxf`` and ``cricut``, run by every build with ``--registration cricut``)
EXPORTS = (
    "png",
    "tts",
    "tts-save",
    "print-shop",
    "tabletopia",
    "tabletop-playground",
    "playingcards-io",
    "screentop",
    "cgs",
    "cut-test",
)
#: ``--cut-file`` formats: one file per sheet, the ``cut-<format>`` exports
CUT_FILES = ("svg", "dxf")
#: ``--preset`` print-on-demand vendors (:mod:`printer.sheets.export.presets`)
PRESETS = ("mpc", "drivethrucards", "thegamecrafter", "printplaygames", "mbprint")
