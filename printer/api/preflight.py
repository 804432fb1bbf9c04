"""``printer preflight``: a PDF checked against a print shop's profile."""

from __future__ import annotations

from pathlib import Path

from printer.api.common import usage_error
from printer.api.results import (
    PreflightReport,
)
from printer.sheets.plan import parse_bytes


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
