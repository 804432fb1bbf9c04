"""``printer preflight``: a PDF checked against a print shop's profile."""

from __future__ import annotations

from pathlib import Path

from printer.api.common import usage_error
from printer.api.results import (
    PreflightReport,
)


def preflight(pdf: Path, vendor: str, min_dpi: float | None = None, max_size: str | None = None) -> PreflightReport:
    """Check ``pdf`` against ``vendor``'s profile (``vendors.toml``): each violation located at its page and object.

    ``min_dpi`` and ``max_size`` (``100MB``, ``200 MB``, ``1.5GB``: decimal
    units) override the profile's figures. Raises :class:`UsageError` for an
    unknown vendor, a vendor that takes no PDF, a bad size or a missing file.
    """
    from printer.sheets.export.preflight import get_profile, preflight_pdf

    profile = get_profile(vendor)
    limit = parse_bytes(max_size, "--max-size") if max_size else None
    path = Path(pdf)
    if not path.is_file():
        raise usage_error(f"{path}: no such file", "give the PDF to check", str(path))
    problems = preflight_pdf(path, profile, min_dpi=min_dpi, max_bytes=limit)
    try:
        import pikepdf

        with pikepdf.open(path) as opened:
            pages = len(opened.pages)
    except Exception:  # noqa: BLE001 - an unreadable file is already one of the problems
        pages = 0
    return PreflightReport(path, profile.id, profile.name, profile.source, pages, problems)


_BYTE_UNITS = {"": 1, "b": 1, "kb": 10**3, "mb": 10**6, "gb": 10**9, "kib": 2**10, "mib": 2**20, "gib": 2**30}


def parse_bytes(text: str, option: str) -> int:
    """``100MB`` -> 100,000,000 bytes (KB, MB, GB decimal; KiB, MiB, GiB binary); :class:`UsageError` otherwise."""
    import re

    found = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*([a-zA-Z]*)\s*", text)
    unit = found.group(2).lower() if found else ""
    if found is None or unit not in _BYTE_UNITS or float(found.group(1)) <= 0:
        raise usage_error(f"{option} {text!r}: not a file size", "write it as 100MB, 200 MB or 1.5GB", option)
    return int(float(found.group(1)) * _BYTE_UNITS[unit])
