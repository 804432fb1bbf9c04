"""Vendor profiles for ``printer preflight``: what one print-on-demand vendor accepts in a PDF, read from data.

Each vendor of ``vendors.toml`` (beside :mod:`printer.sheets.export.presets`)
may have a ``[<vendor>.preflight]`` table; with the vendor's own trim sizes
and bleed it makes a :class:`VendorProfile`. Every figure's public source is
the table's ``source`` and ``docs/print-on-demand.md``.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from printer.problems import lookup

MM_PER_IN = 25.4
PAGE_ORDERS = ("any", "alternating", "back-first")
FONT_RULES = ("embedded", "outlined")


@dataclass(frozen=True)
class VendorProfile:
    """What a vendor accepts in a PDF (lengths in mm, ink in percent of one colorant).

    ``pdfx``: the PDF/X version the ``GTS_PDFXVersion`` must start with (``None``: any PDF);
    ``output_intent``: a CMYK output intent is required; ``colour``: ``cmyk`` (no RGB anywhere) or ``any``;
    ``max_ink``: the highest total of C+M+Y+K; ``rich_black``: the C, M, Y, K every full black (K 95 % and up)
    must use; ``fonts``: ``embedded`` or ``outlined`` (no text as fonts at all); ``transparency``: allowed or not;
    ``trims``: the vendor's trim sizes (width, height), empty for any size; ``bleed``: its bleed a side;
    ``min_dpi``: the least image resolution at printed size; ``page_order``: ``alternating`` (front, back, front...),
    ``back-first`` (back, front, back...) or ``any``; ``max_bytes``: the largest file.
    """

    id: str
    name: str
    source: str
    pdfx: str | None = None
    output_intent: bool = False
    colour: str = "any"
    max_ink: float | None = None
    rich_black: tuple[float, float, float, float] | None = None
    fonts: str = "embedded"
    transparency: bool = True
    trims: tuple[tuple[float, float], ...] = ()
    bleed: float | None = None
    min_dpi: float = 300
    page_order: str = "any"
    max_bytes: int | None = None


def _vendors_file() -> Path:
    return Path(__file__).resolve().parent.parent / "vendors.toml"


def _pair(entry: dict[str, Any], key: str) -> tuple[float, float]:
    scale, values = (MM_PER_IN, entry[f"{key}_in"]) if f"{key}_in" in entry else (1.0, entry[f"{key}_mm"])
    return float(values[0]) * scale, float(values[1]) * scale


@cache
def profiles() -> dict[str, VendorProfile]:
    """Every vendor of ``vendors.toml`` with a ``preflight`` table, by id (``drivethrucards``, ``mbprint``...)."""
    data = tomllib.loads(_vendors_file().read_text(encoding="utf-8"))
    found = {}
    for key, entry in data.items():
        rules = entry.get("preflight")
        if not isinstance(rules, dict):
            continue
        bleed = float(entry["bleed_in"]) * MM_PER_IN if "bleed_in" in entry else entry.get("bleed_mm")
        black = rules.get("rich_black")
        size = rules.get("max_file_mb")
        found[key] = VendorProfile(
            id=key,
            name=entry["name"],
            source=rules["source"],
            pdfx=rules.get("pdfx"),
            output_intent=bool(rules.get("output_intent", rules.get("pdfx") is not None)),
            colour=rules.get("colour", "any"),
            max_ink=rules.get("max_ink"),
            rich_black=tuple(float(v) for v in black) if black else None,  # type: ignore[arg-type]  # [C, M, Y, K]: four values in vendors.toml
            fonts=rules.get("fonts", "embedded"),
            transparency=bool(rules.get("transparency", True)),
            trims=tuple(_pair(s, "trim") for s in entry.get("sizes", [])),
            bleed=None if bleed is None else float(bleed),
            min_dpi=float(rules.get("min_dpi", entry.get("dpi", 300))),
            page_order=rules.get("page_order", "any"),
            max_bytes=None if size is None else int(float(size) * 1_000_000),
        )
        assert found[key].page_order in PAGE_ORDERS and found[key].fonts in FONT_RULES, key
    return found


def get_profile(vendor: str) -> VendorProfile:
    """The profile of ``vendor``; raises :class:`UsageError` naming the closest vendor with a profile."""
    return lookup(profiles(), vendor, f"no preflight profile for vendor {vendor!r}", "--vendor")
