"""PDF/X-4 output for CMYK printing, with an ICC output profile the user supplies (``--icc PROFILE.icc``).

WeasyPrint (67+) writes the PDF/X-4 structure and the output intent (the
profile, embedded), but it does not convert colours: RGB stays RGB. What
printer does and what the user must supply:

- the **CMYK output profile** of the press (ask the shop: e.g. FOGRA39 /
  ISO Coated v2 in Europe, GRACoL / SWOP in the US), as an ``.icc`` file;
  printer refuses a profile that is not CMYK;
- **art** is converted to CMYK JPEG through that profile by printer
  (:mod:`printer.sheets.images`);
- **template colours** (CSS and SVG icons) must be written as
  ``device-cmyk(c m y k)`` by the template author: printer cannot convert
  them. After writing, printer counts the RGB colours and RGB images left
  in the PDF and warns: a shop's preflight would reject them.
"""

from __future__ import annotations

import base64
import re
from pathlib import Path

from pypdf import PdfReader

from printer.problems import WARNING, Problem, UsageError
from printer.sheets.images import profile_colour_space

_RGB_OP = re.compile(rb"(?<![A-Za-z])(rg|RG)(?![A-Za-z])")


def check_profile(path: Path) -> None:
    """Raise :class:`UsageError` unless ``path`` is a readable CMYK ICC profile."""
    try:
        space = profile_colour_space(path)
    except OSError as exc:
        raise UsageError(
            f"{path}: not an ICC profile",
            [
                Problem(
                    str(path),
                    f"not a readable ICC profile: {exc}",
                    "give the CMYK output profile your print shop uses (.icc)",
                    code="usage",
                )
            ],
        ) from None
    if space != "CMYK":
        raise UsageError(
            f"{path}: a {space} profile",
            [
                Problem(
                    str(path),
                    f"--icc needs a CMYK output profile, this one is {space}",
                    "ask your print shop for its CMYK profile, e.g. FOGRA39 or GRACoL",
                    code="usage",
                )
            ],
        )


def use_cmyk_profile(job, path: Path) -> None:
    """Make ``job`` write PDF/X-4 with ``path`` as the output intent."""
    data = base64.b64encode(Path(path).read_bytes()).decode("ascii")
    job.extra_css = (
        f'@color-profile device-cmyk {{ src: url("data:application/vnd.iccprofile;base64,{data}"); '
        "components: c m y k; }\n"
    )
    job.render_options = {"output_intent": "device-cmyk"}
    job.write_options = {"pdf_variant": "pdf/x-4"}


def rgb_report(pdf: Path) -> list[Problem]:
    """A warning when the PDF still holds RGB colours or RGB images (not valid for a CMYK PDF/X-4)."""
    reader = PdfReader(str(pdf))
    ops = images = 0
    for page in reader.pages:
        contents = page.get_contents()
        if contents is not None:
            ops += len(_RGB_OP.findall(contents.get_data()))
        xobjects = (page.get("/Resources") or {}).get("/XObject") or {}
        for ref in xobjects.values():
            obj = ref.get_object()
            if obj.get("/Subtype") == "/Image" and obj.get("/ColorSpace") == "/DeviceRGB":
                images += 1
    if not ops and not images:
        return []
    return [
        Problem(
            str(pdf),
            f"PDF/X-4: {ops} RGB colour settings and {images} RGB images remain",
            "write template colours as device-cmyk(c m y k) in CSS and SVG icons; art is converted by printer",
            WARNING,
            "rgb-in-pdfx",
        )
    ]
