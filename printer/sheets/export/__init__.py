"""Exports beside the PDF sheets: one PNG per card, Tabletop Simulator deck sheets, print-shop files, PDF/X-4.

Every export lays faces out through the same :class:`~printer.sheets.job.SheetJob`
as the sheets (same templates, art cache and text-fit sizes), one card per
page, and turns pages into images with pypdfium2 (PDFium, BSD-3-Clause /
Apache-2.0): printer does not rasterise anything itself.

Each export is one entry of :data:`EXPORTERS`: a name (the value of
``printer build --export NAME``) and a function taking the print job, the
items and an :class:`ExportRequest`, returning an :class:`ExportResult`. A
new output is one module here and one entry in the table; the library's
``build`` call (:func:`printer.api.build`) runs the ones a request names.

- ``png`` (:mod:`.png`): one PNG per distinct face at a dpi, trim or with bleed;
- ``tts`` (:mod:`.tts`): Tabletop Simulator deck sheets;
- ``tts-save`` (:mod:`.tts_save`): a Tabletop Simulator saved object (JSON and thumbnail) on those sheets;
- ``print-shop`` (:mod:`.printshop`): one card per page with bleed and no marks;
- ``cut-svg``, ``cut-dxf`` (:mod:`.cutfile`, ``--cut-file svg|dxf``): a cut file per sheet for cutting machines;
- ``tabletopia`` (:mod:`.tabletopia`), ``tabletop-playground`` (:mod:`.tabletop_playground`), ``playingcards-io``
  (:mod:`.playingcards_io`), ``screentop`` (:mod:`.screentop`), ``cgs`` (:mod:`.cgs`): the cards (and components)
  for online play tables, from the PNG export's face images (:mod:`.tables`);
- ``cut-test`` (:mod:`.cut_test`): a test sheet without ink (the registration marks only) and its cut file;
- ``cricut`` (:mod:`.cricut`): Cricut Print Then Cut images and cut files, run by ``--registration cricut``;
- :mod:`.pdfx`: PDF/X-4 output with a user-supplied CMYK ICC profile (``--icc``, not an export of its own).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from printer.problems import Problem
from printer.sheets.faces.items import PrintItem
from printer.sheets.job import SheetJob
from printer.sheets.layout import SheetLayout
from printer.sheets.options import sheet_layout


@dataclass(frozen=True)
class ExportRequest:
    """Where and how to export: files go under ``out_dir`` with names starting ``stem`` (the PDF's stem).

    ``dpi`` is the resolution of raster exports (px per inch), ``with_bleed``
    whether PNGs include the bleed, ``strict`` whether any warning leaves the
    export unwritten. ``layout`` is the sheet layout of the PDF (cut files
    follow it; default: the options' grid), ``title`` the game's name,
    ``deck`` the decklist's name when one was printed, ``image_url_base``
    where the player hosts the Tabletop Simulator images. ``components`` are
    the game's components with their print items (:mod:`printer.sheets.components`)
    and ``component_job(component)`` gives each one's print job, for the
    exports that include them (``tts-save``).
    """

    out_dir: Path
    stem: str
    dpi: int = 300
    with_bleed: bool = False
    strict: bool = False
    layout: SheetLayout | None = None
    title: str = ""
    deck: str | None = None
    image_url_base: str | None = None
    components: tuple[tuple[Any, Sequence[PrintItem]], ...] = ()
    component_job: Callable[[Any], SheetJob] | None = None


@dataclass
class ExportResult:
    """What an export wrote: ``paths`` (files and folders), ``summary`` (one line for the user), ``problems``."""

    paths: list[Path] = field(default_factory=list)
    summary: str = ""
    problems: list[Problem] = field(default_factory=list)


Exporter = Callable[[SheetJob, Sequence[PrintItem], ExportRequest], ExportResult]


#: the exporters' modules, imported when an export runs (a build without exports does not load pypdf or ezdxf)
_LAZY = {
    "export_cut_files": "cutfile",
    "distinct_faces": "faces",
    "face_images": "faces",
    "export_png": "png",
    "export_print_shop": "printshop",
    "export_tts": "tts",
    "export_tts_save": "tts_save",
}


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        import importlib

        return getattr(importlib.import_module(f"{__name__}.{_LAZY[name]}"), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _png(job: SheetJob, items: Sequence[PrintItem], request: ExportRequest) -> ExportResult:
    from printer.sheets.export.png import export_png

    folder, problems = export_png(job, items, request.out_dir / f"{request.stem}-png", request.dpi, request.with_bleed)
    n = len(list(folder.glob("*.png")))
    return ExportResult([folder], f"{folder}/ ({n} PNG at {request.dpi} dpi)", problems)


def _tts(job: SheetJob, items: Sequence[PrintItem], request: ExportRequest) -> ExportResult:
    from printer.sheets.export.tts import export_tts

    folder = request.out_dir / f"{request.stem}-tts"
    files, problems = export_tts(job, items, folder)
    return ExportResult([folder], f"{folder}/ ({len(files)} Tabletop Simulator images)", problems)


def _tts_save(job: SheetJob, items: Sequence[PrintItem], request: ExportRequest) -> ExportResult:
    from printer.sheets.export.tts_save import export_tts_save

    folder = request.out_dir / f"{request.stem}-tts"
    title = (request.title or request.stem) + (f": {request.deck}" if request.deck else "")
    saved, problems = export_tts_save(
        job,
        items,
        folder,
        request.stem,
        request.image_url_base,
        title=title,
        components=request.components,
        component_job=request.component_job,
    )
    where = "hosted at " + request.image_url_base if request.image_url_base else "file:/// URLs: local play only"
    pieces = f" and {saved.components} component{'s' * (saved.components != 1)}" if saved.components else ""
    summary = (
        f"{saved.json} (Tabletop Simulator saved object: {saved.cards} cards in {saved.decks} "
        f"deck{'s' * (saved.decks != 1)}{pieces}, images {where}): copy it and {saved.thumbnail.name} into "
        "Tabletop Simulator's Saves/Saved Objects folder"
    )
    if not request.image_url_base:
        summary += "; for multiplayer, upload the images and build with --image-url-base URL"
    return ExportResult([folder], summary, problems)


def _cut(fmt: str) -> Exporter:
    def export(job: SheetJob, items: Sequence[PrintItem], request: ExportRequest) -> ExportResult:
        from printer.sheets.export.cutfile import export_cut_files

        layout = request.layout or sheet_layout(job.opts, job.engine.base)
        folder = request.out_dir / f"{request.stem}-cut"
        files, problems = export_cut_files(job, items, layout, folder, fmt, f"{request.stem}.pdf")
        n = len(files)
        summary = f"{folder}/ ({n} {fmt.upper()} cut file{'s' * (n != 1)}, one per sheet, mm)" if files else ""
        return ExportResult([folder] if files else [], summary, problems)

    return export


def _print_shop(job: SheetJob, items: Sequence[PrintItem], request: ExportRequest) -> ExportResult:
    from printer.sheets.export.printshop import export_print_shop

    pdf, problems = export_print_shop(job, items, request.out_dir / f"{request.stem}-print-shop", strict=request.strict)
    return ExportResult([pdf, pdf.with_suffix("")], f"{pdf} and {pdf.with_suffix('')}/ (print shop)", problems)


def _table(module: str) -> Exporter:
    """The exporter of a play-table module (its ``export`` function), imported when it runs."""

    def export(job: SheetJob, items: Sequence[PrintItem], request: ExportRequest) -> ExportResult:
        import importlib

        result: ExportResult = importlib.import_module(f"{__name__}.{module}").export(job, items, request)
        return result

    return export


#: ``--export`` name -> exporter, in the order they run
EXPORTERS: dict[str, Exporter] = {
    "png": _png,
    "tts": _tts,
    "tts-save": _tts_save,
    "print-shop": _print_shop,
    "cut-svg": _cut("svg"),
    "cut-dxf": _cut("dxf"),
    "tabletopia": _table("tabletopia"),
    "tabletop-playground": _table("tabletop_playground"),
    "playingcards-io": _table("playingcards_io"),
    "screentop": _table("screentop"),
    "cgs": _table("cgs"),
    "cut-test": _table("cut_test"),
    "cricut": _table("cricut"),  # not an --export choice: every build with --registration cricut runs it
}

__all__ = [
    "EXPORTERS",
    "ExportRequest",
    "ExportResult",
    "Exporter",
    "distinct_faces",
    "export_png",
    "export_cut_files",
    "export_print_shop",
    "export_tts",
    "export_tts_save",
    "face_images",
]
