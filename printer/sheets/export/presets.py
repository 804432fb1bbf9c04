"""Print-on-demand presets (``printer build GAME --preset mpc``): the files one vendor takes, from one flag.

A preset is data (``vendors.toml`` beside this module: trim sizes, canvas in
px, bleed, safe area, dpi, colour mode, file layout) and one function,
:func:`export_preset`, that turns it into print options and writes the files.
Each figure's source is in ``docs/print-on-demand.md``.

- **Trim.** A vendor with a list of sizes prints the one nearest the game's
  trim size (within :data:`SIZE_TOLERANCE_MM` on each side; the game's 63 x 88 mm
  poker becomes the vendor's 2.5 x 3.5 in = 63.5 x 88.9 mm); a game whose
  size the vendor does not print is a usage error naming the vendor's sizes.
  A vendor without a list prints the game's own trim size.
- **Bleed and canvas.** Image vendors give a canvas in px at their dpi (the
  trim centred on it); PDF vendors a bleed all round the trim.
- **Safe area.** Faces are laid out with ``--safe`` set to the vendor's safe
  margin (templates that use ``var(--safe)`` follow it), then each face's
  text is read from the PDF (pypdfium2) and a warning names the card whose
  text leaves the safe area, and by how much (:mod:`.preset_checks`, as the next check).
- **Art into the bleed.** Each face is turned into an image and a warning
  names the card whose outer bleed is white where the edge inside the trim is
  not (art or background stopping at the trim).
- **Colour.** ``cmyk`` vendors get the PDF converted through Ghostscript with
  the user's ``--icc`` profile, else the vendor's profile built from free
  measurement data (:mod:`.cmykprofile`), else (ArgyllCMS or the data
  missing: a warning) Ghostscript's own free SWOP profile
  (:func:`printer.sheets.export.pdfx.convert_to_cmyk`); without Ghostscript
  the PDF stays RGB and a warning says so. printer converts no colour itself.
  A vendor that forbids transparency gets PDF 1.3 (pages with transparency
  flattened to CMYK images at its dpi), one that asks for PDF/X-1a gets it,
  one that asks for outlined fonts gets them, and pure black becomes the
  vendor's rich black (:mod:`printer.sheets.export.pressready`).
- **Preflight.** Every PDF written is checked against the vendor's profile
  (:mod:`printer.sheets.export.preflight`): each violation is an error.
- **Layouts.** ``png-per-card``: ``fronts/`` and ``backs/`` folders of numbered PNGs
  (``001-<card id>.png``) and ``cards.csv`` (front, back, copies);
  ``pdf-alternating``: one PDF, front page then back page per printed card
  (back page first with ``back_first``, as DriveThruCards' "Specifications
  for Print Cards" asks), split into files of at most ``max_cards_per_file`` cards;
  ``pdf-sides``: a FRONT PDF and a BACK PDF, one card per page in the same order.
"""

from __future__ import annotations

import csv
import io
import shutil
import tomllib
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from functools import cache
from pathlib import Path
from typing import Any

from printer.fsutil import atomic_write_bytes, atomic_write_text
from printer.problems import ERROR, WARNING, Problem, UsageError, lookup
from printer.sheets.export.faces import PAGES_PER_CHUNK, face_pdf, png_bytes, rasterise
from printer.sheets.export.preset_checks import bleed_report, possessive, safe_area_report
from printer.sheets.faces.items import PrintItem
from printer.sheets.images import ArtCache
from printer.sheets.job import SheetJob, new_job
from printer.sheets.layout import MM_PER_IN, SheetLayout, single_card_layout
from printer.sheets.plan.names import PRESETS
from printer.sheets.render import Renderer

#: how far (mm, each side) a game's trim may be from a vendor's size and still print at that size
SIZE_TOLERANCE_MM = 1.0
#: resolution (px per inch) of the images the bleed check reads
CHECK_DPI = 60
LAYOUTS = ("png-per-card", "pdf-alternating", "pdf-sides")


@dataclass(frozen=True)
class VendorSize:
    """One card size a vendor prints: ``trim`` (width, height) mm and, for image vendors, ``canvas_px`` at its dpi."""

    name: str
    trim: tuple[float, float]
    canvas_px: tuple[int, int] | None = None


@dataclass(frozen=True)
class Preset:
    """One vendor's facts, as read from ``vendors.toml`` (lengths in mm)."""

    id: str
    name: str
    url: str
    layout: str
    colour: str
    dpi: int
    safe: float
    bleed: float | None = None
    sizes: tuple[VendorSize, ...] = ()
    max_cards_per_file: int | None = None
    icc_expected: tuple[str, ...] = ()
    checked: bool = False
    #: ``pdf-alternating`` only: each printed card's back page before its front page
    back_first: bool = False
    #: CMYK vendors: the C, M, Y, K (percent) that pure black prints as, when the vendor names no rich black
    black: tuple[float, ...] | None = None


@dataclass
class Plan:
    """How a preset prints one game: the ``size`` chosen (``None``: the game's own), ``trim`` and page ``canvas`` (mm)."""

    preset: Preset
    trim: tuple[float, float]
    canvas: tuple[float, float]
    size: VendorSize | None = None
    notes: list[str] = field(default_factory=list)

    @property
    def bleed(self) -> float:
        """The widest bleed of the canvas around the trim (mm)."""
        return max((self.canvas[0] - self.trim[0]) / 2, (self.canvas[1] - self.trim[1]) / 2)

    @property
    def canvas_px(self) -> tuple[int, int]:
        """The page in px at the preset's dpi: the vendor's canvas, else the canvas in mm at that dpi."""
        if self.size is not None and self.size.canvas_px is not None:
            return self.size.canvas_px
        dpi = self.preset.dpi
        return (round(self.canvas[0] / MM_PER_IN * dpi), round(self.canvas[1] / MM_PER_IN * dpi))


def _mm(entry: dict[str, Any], key: str) -> tuple[float, float]:
    """``entry``'s ``<key>_in`` (inches) or ``<key>_mm`` as (width, height) mm; ``KeyError`` when it has neither."""
    scale, values = (MM_PER_IN, entry[f"{key}_in"]) if f"{key}_in" in entry else (1.0, entry[f"{key}_mm"])
    width, height = (float(v) * scale for v in values)
    return width, height


@cache
def presets() -> dict[str, Preset]:
    """Every preset of ``vendors.toml``, by id (``mpc``, ``drivethrucards``...)."""
    data = tomllib.loads((Path(__file__).parent / "vendors.toml").read_text(encoding="utf-8"))
    found = {}
    for key, entry in data.items():
        bleed = float(entry["bleed_in"]) * MM_PER_IN if "bleed_in" in entry else entry.get("bleed_mm")
        sizes = tuple(
            VendorSize(s["name"], _mm(s, "trim"), tuple(s["canvas_px"]) if "canvas_px" in s else None)
            for s in entry.get("sizes", [])
        )
        found[key] = Preset(
            key,
            entry["name"],
            entry["url"],
            entry["layout"],
            entry["colour"],
            int(entry["dpi"]),
            float(entry["safe_mm"]),
            None if bleed is None else float(bleed),
            sizes,
            entry.get("max_cards_per_file"),
            tuple(entry.get("icc_expected", ())),
            bool(entry.get("checked", False)),
            bool(entry.get("back_first", False)),
            tuple(float(v) for v in entry["black"]) if "black" in entry else None,
        )
    return found


PRESET_IDS = PRESETS  # printer.sheets.plan.names


def get_preset(name: str) -> Preset:
    """The preset ``name``; raises :class:`UsageError` with the closest name."""
    return lookup(presets(), name, f"unknown preset {name!r}", "--preset")


def plan(preset: Preset, card: tuple[float, float], game: str = "") -> Plan:
    """How ``preset`` prints cards of trim ``card`` (mm); raises :class:`UsageError` when the vendor has no such size."""
    if not preset.sizes:
        bleed = preset.bleed or 0.0
        return Plan(preset, card, (card[0] + 2 * bleed, card[1] + 2 * bleed))
    w, h = card
    for size in preset.sizes:
        sw, sh = size.trim
        if abs(sw - w) <= SIZE_TOLERANCE_MM and abs(sh - h) <= SIZE_TOLERANCE_MM:
            if size.canvas_px is not None:
                canvas = tuple(v / preset.dpi * MM_PER_IN for v in size.canvas_px)
            else:
                bleed = preset.bleed or 0.0
                canvas = (sw + 2 * bleed, sh + 2 * bleed)
            result = Plan(preset, size.trim, canvas, size)  # type: ignore[arg-type]  # canvas: two values, as canvas_px
            if abs(sw - w) > 0.05 or abs(sh - h) > 0.05:
                result.notes.append(
                    f"trim {sw:.1f} x {sh:.1f} mm, {possessive(preset.name)} {size.name} size (the game's is {w:g} x {h:g} mm)"
                )
            return result
    sizes = ", ".join(f"{s.name} {s.trim[0]:.1f} x {s.trim[1]:.1f} mm" for s in preset.sizes)
    message = f"{preset.name} prints no {w:g} x {h:g} mm cards" + (f" ({game})" if game else "")
    raise UsageError(
        message, [Problem("--preset", message, f"its sizes: {sizes}; or use --export print-shop", code="usage")]
    )


def preset_job(job: SheetJob, chosen: Plan) -> SheetJob:
    """A print job like ``job`` (same game, templates and text-fit search) at the plan's trim, bleed and safe area.

    Art is prepared in RGB whatever ``--icc`` says: CMYK vendors get whole pages converted by Ghostscript.
    """
    opts = replace(job.opts, card=chosen.trim, bleed=chosen.bleed, safe=chosen.preset.safe, marks="none")
    old = job.renderer
    cache = ArtCache(old.art_cache.folder, old.art_cache.dpi) if old.art_cache is not None else None
    renderer = Renderer(
        old.game, old.allowed_roots, art_cache=cache, bleed=chosen.bleed, card_size=chosen.trim, base=old.base
    )
    renderer.max_chars = old.max_chars
    renderer.project = old.project
    renderer.lang, renderer.source_lang, renderer.locate = old.lang, old.source_lang, old.locate
    return new_job(renderer, opts, job.engine.base)


@dataclass
class PresetResult:
    """What a preset wrote: ``paths``, one ``summary`` line per fact, ``problems``."""

    paths: list[Path] = field(default_factory=list)
    summary: list[str] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)


def export_preset(
    name: str,
    job: SheetJob,
    items: Sequence[PrintItem],
    out_dir: Path,
    stem: str,
    icc: Path | None = None,
    strict: bool = False,
) -> PresetResult:
    """Write the files of preset ``name`` for ``items`` into ``out_dir`` (names start ``<stem>-<preset>``).

    Returns what was written and the warnings (text outside the vendor's safe
    area, art short of the bleed, RGB left for a CMYK vendor). With
    ``strict`` and any warning nothing is written. Raises :class:`UsageError`
    for an unknown preset or a card size the vendor does not print.
    """
    preset = get_preset(name)
    chosen = plan(preset, job.opts.card, job.renderer.game.id)
    pjob = preset_job(job, chosen)
    layout = single_card_layout(chosen.trim, chosen.bleed, chosen.canvas)
    result = PresetResult(summary=list(chosen.notes))
    fronts = [pjob.faces.front_key(item) for item in items]
    backs = [pjob.faces.back_key(item) for item in items] if job.opts.duplex != "none" else []
    distinct = list(dict.fromkeys(fronts + backs))
    target = out_dir / f"{stem}-{preset.id}"
    pngs = preset.layout == "png-per-card"
    files = _png_names(items, fronts, backs, pjob) if pngs else {}
    staging = out_dir / f".{target.name}.partial" if pngs else None
    if staging is not None and staging.exists():
        shutil.rmtree(staging)
    px = chosen.canvas_px if pngs else _px(chosen.canvas, CHECK_DPI)
    problems: list[Problem] = []
    for start in range(0, len(distinct), PAGES_PER_CHUNK):
        part = distinct[start : start + PAGES_PER_CHUNK]
        data, found = face_pdf(pjob, part, layout, preset.name)
        problems += [p for p in found if p not in problems]
        problems += safe_area_report(data, part, layout, pjob, preset)
        for key, image in zip(part, rasterise(data, px)):
            problems += bleed_report({key: image}, layout, pjob, px)
            if staging is not None:
                atomic_write_bytes(staging / files[key], png_bytes(image, preset.dpi))
    problems = [p for p in pjob.renderer.problems if p not in problems] + problems
    condition = None
    if preset.colour == "cmyk" and not pngs:
        if icc is None:
            icc, condition = _vendor_profile(preset, result, problems)
        icc = icc or _free_profile(result)
        problems += _cmyk_notes(preset, icc)
    result.problems = problems
    if strict and problems:
        if staging is not None and staging.exists():
            shutil.rmtree(staging)
        return result
    if staging is not None:
        _finish_pngs(staging, target, fronts, backs, files, px, preset, result)
    else:
        _write_pdfs(target, fronts, backs, pjob, layout, preset, (icc, condition), result)
    if not preset.checked:
        result.summary.append(
            f"{possessive(preset.name)} figures were not checked against its own page: compare with its template before ordering"
        )
    return result


def _px(size_mm: tuple[float, float], dpi: int) -> tuple[int, int]:
    return (round(size_mm[0] / MM_PER_IN * dpi), round(size_mm[1] / MM_PER_IN * dpi))


def _vendor_profile(preset: Preset, result: PresetResult, problems: list[Problem]) -> tuple[Path | None, str | None]:
    """The profile built for ``preset`` from free data (:mod:`.cmykprofile`) and its printing condition, said in the
    summary; ``(None, None)`` when the vendor has none or it cannot be built here (a warning in ``problems``)."""
    from printer.sheets.export.cmykprofile import profile_for

    built, missing = profile_for(preset.id)
    problems += missing
    if built is None:
        return None, None
    when = f", built now in {built.seconds:.0f} s and kept for later builds" if built.seconds is not None else ""
    result.summary.append(f"CMYK through {built.recipe.description}: {built.path}{when} (--icc gives another)")
    return built.path, built.recipe.condition


def _free_profile(result: PresetResult) -> Path | None:
    """Ghostscript's free CMYK profile when Ghostscript is installed (said in the summary), else ``None``."""
    from printer.sheets.export.pdfx import free_cmyk_profile, ghostscript

    found = free_cmyk_profile() if ghostscript() else None
    if found is not None:
        result.summary.append(
            f"CMYK through {found} (Ghostscript's free SWOP profile; give --icc for the vendor's own profile)"
        )
    return found


def _cmyk_notes(preset: Preset, icc: Path | None) -> list[Problem]:
    if icc is None:
        return [
            Problem(
                "--preset",
                f"{preset.name} takes CMYK: without --icc the PDF stays RGB and the vendor converts it",
                "pass --icc PROFILE.icc, the vendor's CMYK profile"
                + (f" ({' / '.join(preset.icc_expected)})" if preset.icc_expected else ""),
                WARNING,
                "rgb-for-cmyk",
            )
        ]
    if preset.icc_expected:
        from PIL import ImageCms

        try:
            description = ImageCms.getProfileDescription(ImageCms.getOpenProfile(str(icc)))
        except (ImageCms.PyCMSError, OSError):
            description = ""
        if not any(name.lower() in description.lower() for name in preset.icc_expected):
            return [
                Problem(
                    str(icc),
                    f"{preset.name} prints to {' / '.join(preset.icc_expected)}; this profile is "
                    f"{description.strip() or 'unnamed'}",
                    "ask the vendor for its profile",
                    WARNING,
                    "icc-mismatch",
                )
            ]
    return []


def _png_names(items: Sequence[PrintItem], fronts: list[str], backs: list[str], pjob: SheetJob) -> dict[str, str]:
    """Each distinct face's file, ``fronts/001-<card id>.png`` and ``backs/001-<back>.png``, numbered in print order."""
    from printer.sheets.export.faces import back_name, front_name

    files: dict[str, str] = {}
    counts = {"fronts": 0, "backs": 0}
    for i, item in enumerate(items):
        for folder, key, name in (("fronts", fronts[i], front_name(item)),) + (
            (("backs", backs[i], back_name(pjob, item)),) if backs else ()
        ):
            if key not in files:
                counts[folder] += 1
                files[key] = f"{folder}/{counts[folder]:03d}-{name}.png"
    return files


def _finish_pngs(
    staging: Path,
    target: Path,
    fronts: list[str],
    backs: list[str],
    files: dict[str, str],
    px: tuple[int, int],
    preset: Preset,
    result: PresetResult,
) -> None:
    """``cards.csv`` (front, back, copies) beside the PNGs, then the staging folder put in place of ``target``;
    ``fronts`` and ``backs`` (empty: no backs) are the face keys of the printed cards in order."""
    rows: dict[tuple[str, str], int] = {}
    for i in range(len(fronts)):
        pair = (files[fronts[i]], files[backs[i]] if backs else "")
        rows[pair] = rows.get(pair, 0) + 1
    table = io.StringIO()
    writer = csv.writer(table, lineterminator="\n")
    writer.writerow(["front", "back", "copies"])
    for (front, back), copies in rows.items():
        writer.writerow([front, back, copies])
    atomic_write_text(staging / "cards.csv", table.getvalue())
    if target.is_dir() and not target.is_symlink():
        shutil.rmtree(target)
    staging.rename(target)
    result.paths.append(target)
    n_fronts = len(set(fronts))
    n_backs = len(set(backs))
    result.summary.insert(
        0,
        f"{target}/ ({preset.name}: {n_fronts} fronts, {n_backs} backs, RGB PNG "
        f"{px[0]} x {px[1]} px at {preset.dpi} dpi; cards.csv gives the copies)",
    )


def _write_pdfs(
    target: Path,
    fronts: list[str],
    backs: list[str],
    pjob: SheetJob,
    layout: SheetLayout,
    preset: Preset,
    profile: tuple[Path | None, str | None],
    result: PresetResult,
) -> None:
    from printer.sheets.export.pdfx import convert_to_cmyk
    from printer.sheets.export.preflight import preflight_pdf, profiles
    from printer.sheets.export.pressready import finish_press_pdf, with_rich_black
    from printer.sheets.export.printshop import with_trim_boxes

    vendor = profiles().get(preset.id)
    trim = layout.card
    icc, condition = profile

    def finish(keys: list[str], path: Path, sides: list[str]) -> None:
        data, found = face_pdf(pjob, keys, layout, preset.name)
        data = with_trim_boxes(data, layout)
        pdfx = vendor.pdfx if vendor is not None else None
        if preset.colour == "cmyk" and icc is not None:
            try:
                black = vendor.rich_black if vendor is not None and vendor.rich_black else preset.black
                if black:
                    data = with_rich_black(data, black)
                flat = vendor is not None and not vendor.transparency
                outlines = vendor is not None and vendor.fonts == "outlined"
                data = convert_to_cmyk(
                    data, icc, flatten_dpi=preset.dpi if flat else None, pdfx=bool(pdfx), outline_fonts=outlines
                )
                data = with_trim_boxes(data, layout)
            except OSError as exc:
                result.problems.append(Problem(str(path), f"not converted to CMYK: {exc}", None, ERROR, "cmyk"))
                return
            data = finish_press_pdf(data, sides, icc, pdfx, condition)
        else:
            data = finish_press_pdf(data, sides)
        atomic_write_bytes(path, data)
        result.paths.append(path)
        if vendor is not None:
            result.problems += preflight_pdf(path, vendor, trim)

    W, H = layout.page
    page = f"{W:.2f} x {H:.2f} mm pages ({W / MM_PER_IN:.3f} x {H / MM_PER_IN:.3f} in)"
    colour = "CMYK" if preset.colour == "cmyk" and icc is not None else "RGB"
    if colour == "CMYK" and vendor is not None and vendor.pdfx:
        colour += f" {vendor.pdfx}"
    if preset.layout == "pdf-sides":
        finish(fronts, target.with_name(target.name + "-FRONT.pdf"), ["front"] * len(fronts))
        if backs:
            finish(backs, target.with_name(target.name + "-BACK.pdf"), ["back"] * len(backs))
        what = "FRONT and BACK PDFs" if backs else "a FRONT PDF"
        result.summary.insert(0, f"{target}-FRONT.pdf ({preset.name}: {what}, one card per page, {page}, {colour})")
        return
    per_file = preset.max_cards_per_file or len(fronts) or 1
    parts = [range(i, min(i + per_file, len(fronts))) for i in range(0, len(fronts), per_file)] or [range(0)]
    first_side, second_side = (backs, fronts) if preset.back_first else (fronts, backs)
    first_name, second_name = ("back", "front") if preset.back_first else ("front", "back")
    for n, part in enumerate(parts, 1):
        keys = [k for i in part for k in ([first_side[i], second_side[i]] if backs else [fronts[i]])]
        name = target.name + (f"-{n}" if len(parts) > 1 else "") + ".pdf"
        sides = [first_name, second_name] * len(part) if backs else ["front"] * len(part)
        finish(keys, target.with_name(name), sides)
    split = f", split into {len(parts)} files of at most {per_file} cards" if len(parts) > 1 else ""
    first = target.with_name(target.name + ("-1" if len(parts) > 1 else "") + ".pdf")
    order = "back then front" if preset.back_first and backs else "front then back" if backs else "fronts only"
    result.summary.insert(0, f"{first} ({preset.name}: {len(fronts)} cards, {order}, {page}, {colour}{split})")


__all__ = [
    "PRESET_IDS",
    "Plan",
    "Preset",
    "PresetResult",
    "VendorSize",
    "export_preset",
    "get_preset",
    "plan",
    "presets",
]
