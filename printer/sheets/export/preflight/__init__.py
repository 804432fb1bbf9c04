"""``printer preflight PDF --vendor X``: check a PDF, ours or anyone's, against a print-on-demand vendor's profile.

The profile (:mod:`.profile`, data in ``vendors.toml``) says what the
vendor takes; the PDF is read with pikepdf (:mod:`.walk`) and every
violation is a :class:`~printer.problems.Problem` at its page and object
(``deck.pdf:page 3 image /Im1 (obj 12)``):

- PDF/X version and output intent, fonts, transparency, TrimBox and
  BleedBox, image resolution at printed size, page order, file size
  (:mod:`.document`);
- RGB anywhere (colours, images, transparency groups, shadings) for a CMYK
  vendor, total ink and rich black (:mod:`.colour`).
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pikepdf

from printer.problems import WARNING, Problem
from printer.sheets.export.preflight import colour, document
from printer.sheets.export.preflight.profile import VendorProfile, get_profile, profiles
from printer.sheets.export.preflight.walk import read_facts


def preflight_pdf(
    path: Path,
    profile: VendorProfile,
    trim: tuple[float, float] | None = None,
    *,
    min_dpi: float | None = None,
    max_bytes: int | None = None,
) -> list[Problem]:
    """Every way ``path`` breaks ``profile`` (errors), and what could not be checked (warnings).

    ``trim`` (mm) is the card size the TrimBox must have (default: any of the
    vendor's sizes); ``min_dpi`` and ``max_bytes`` override the profile's.
    An unreadable file is one error, never an exception.
    """
    where = str(path)
    problems = document.size_problems(Path(path).stat().st_size, where, profile, max_bytes)
    try:
        pdf = pikepdf.open(path)
    except (pikepdf.PdfError, OSError) as exc:
        return problems + [Problem(where, f"not a readable PDF: {exc}", None, code="preflight-unreadable")]
    with pdf:
        facts = read_facts(pdf)
        problems += document.pdfx_problems(pdf, where, profile)
        problems += colour.rgb_problems(facts, where, profile)
        problems += colour.ink_problems(facts, where, profile)
        problems += document.font_problems(facts, where, profile)
        problems += document.transparency_problems(facts, where, profile)
        problems += document.box_problems(pdf, where, profile, trim)
        problems += document.resolution_problems(facts, where, profile, min_dpi)
        problems += document.order_problems(pdf, where, profile)
        for page, obj, why in dict.fromkeys(facts.skipped):
            problems.append(
                Problem(f"{where}:page {page} {obj}", f"not checked: {why}", None, WARNING, "preflight-skipped")
            )
    return problems


#: files a budget check reads in a folder at most
MAX_BUDGET_FILES = 100_000


def budget_problems(paths: list[Path], max_bytes: int | None, min_dpi: float | None) -> list[Problem]:
    """``printer build --max-size`` / ``--min-dpi``: an error per file written (in ``paths``, folders searched)
    over ``max_bytes``, and per image of a PDF written printed below ``min_dpi`` at its size (page and image)."""
    budget = VendorProfile("budget", "this build's budget", "", min_dpi=min_dpi or 0)
    problems: list[Problem] = []
    files: list[Path] = []
    for path in dict.fromkeys(Path(p) for p in paths):
        if path.is_dir():
            files += [f for f in sorted(path.rglob("*"))[:MAX_BUDGET_FILES] if f.is_file()]
        elif path.is_file():
            files.append(path)
    for file in files:
        for problem in document.size_problems(file.stat().st_size, str(file), budget, max_bytes):
            problems.append(replace(problem, code="budget-size", message=f"{problem.message} (--max-size)"))
        if min_dpi and file.suffix.lower() == ".pdf":
            try:
                with pikepdf.open(file) as pdf:
                    facts = read_facts(pdf)
            except (pikepdf.PdfError, OSError) as exc:
                problems.append(Problem(str(file), f"not read for --min-dpi: {exc}", None, WARNING, "budget-dpi"))
                continue
            for problem in document.resolution_problems(facts, str(file), budget, min_dpi):
                problems.append(replace(problem, code="budget-dpi", message=f"{problem.message} (--min-dpi)"))
    return problems


__all__ = ["VendorProfile", "budget_problems", "get_profile", "preflight_pdf", "profiles"]
