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

The print-on-demand presets (:mod:`.presets`) go further for the vendors
that take CMYK: :func:`convert_to_cmyk` has Ghostscript convert every
colour and image of the finished PDF through the profile (template colours
included), and :func:`printer.sheets.export.pressready.finish_press_pdf`
embeds the profile as the output intent.
"""

from __future__ import annotations

import base64
import re
import shutil
import subprocess
import tempfile
from pathlib import Path

from pypdf import PdfReader

from printer.problems import WARNING, Problem, UsageError
from printer.sheets.engine.documents import EngineOptions
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


def cmyk_options(path: Path) -> EngineOptions:
    """What a job writes PDF/X-4 with, ``path`` (an ICC profile) as the output intent."""
    data = base64.b64encode(Path(path).read_bytes()).decode("ascii")
    css = (
        f'@color-profile device-cmyk {{ src: url("data:application/vnd.iccprofile;base64,{data}"); '
        "components: c m y k; }\n"
    )
    return EngineOptions(css, {"output_intent": "device-cmyk"}, {"pdf_variant": "pdf/x-4"})


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


#: the longest Ghostscript may take to convert one PDF to CMYK, seconds
GS_TIMEOUT = 600


#: free CMYK output profiles used when the user gives no ``--icc``: Ghostscript's own (Debian package libgs-common,
#: installed with ghostscript), "Artifex CMYK SWOP Profile"
FREE_CMYK_PROFILES = (
    Path("/usr/share/color/icc/ghostscript/default_cmyk.icc"),
    Path("/usr/local/share/color/icc/ghostscript/default_cmyk.icc"),
    Path("/opt/homebrew/share/ghostscript/iccprofiles/default_cmyk.icc"),
)


def free_cmyk_profile() -> Path | None:
    """Ghostscript's free CMYK profile (SWOP), where Ghostscript installed it; ``None`` when it cannot be found."""
    return next((p for p in FREE_CMYK_PROFILES if p.is_file()), None)


def ghostscript_profiles() -> Path | None:
    """The folder of Ghostscript's own ICC profiles (``default_rgb.icc``, ``default_cmyk.icc``...), or ``None``."""
    found = free_cmyk_profile()
    return found.parent if found is not None else None


def ghostscript() -> str | None:
    """The Ghostscript command (``gs``; ``gswin64c`` on Windows), or ``None`` when it is not installed."""
    return shutil.which("gs") or shutil.which("gswin64c") or shutil.which("gswin32c")


def convert_to_cmyk(
    pdf: bytes,
    profile: Path,
    timeout: float = GS_TIMEOUT,
    *,
    flatten_dpi: int | None = None,
    pdfx: bool = False,
    outline_fonts: bool = False,
) -> bytes:
    """``pdf`` with every colour and image converted to DeviceCMYK through the ICC ``profile``, by Ghostscript.

    Ghostscript's ``pdfwrite`` device re-writes the PDF with
    ``ColorConversionStrategy=CMYK``, colour-managed by its own lcms2 with
    the relative colorimetric intent
    (https://ghostscript.com/docs/9.54.0/VectorDevices.htm, "Color
    Conversion and Management"). Text stays text and vectors stay vectors.
    ``pdfwrite`` converts to its default CMYK profile whatever
    ``-sOutputICCProfile`` says (measured with Ghostscript 10.0: the same
    CMYK for any profile given), so ``profile`` is put in that place: a
    folder of Ghostscript's own profiles (:func:`ghostscript_profiles`) with
    ``profile`` as ``default_cmyk.icc``, named by ``-sICCProfilesDir``. The
    same profile then describes DeviceCMYK colours already in the PDF (a
    vendor's rich black), which pass unchanged.

    With ``flatten_dpi`` the PDF is written as PDF 1.3, which has no
    transparency: Ghostscript draws each page that uses transparency as one
    CMYK image at that resolution (PDF/X-1a's flattening). ``pdfx`` asks
    Ghostscript for PDF/X output (``-dPDFX``); ``outline_fonts`` turns text
    into outlines (``-dNoOutputFonts``).
    Raises ``OSError`` when Ghostscript or its profiles are missing, it fails
    or takes longer than ``timeout`` seconds.
    """
    command = ghostscript()
    if command is None:
        raise OSError("Ghostscript (gs) is not installed: install the ghostscript package to convert to CMYK")
    own = ghostscript_profiles()
    if own is None:
        raise OSError("Ghostscript's ICC profiles are not installed: install the libgs-common package")
    with tempfile.TemporaryDirectory(prefix="printer-cmyk-") as folder:
        source, target = Path(folder) / "rgb.pdf", Path(folder) / "cmyk.pdf"
        source.write_bytes(pdf)
        profiles = Path(folder) / "icc"
        profiles.mkdir()
        for found in own.iterdir():
            if found.suffix == ".icc" and found.name != "default_cmyk.icc" and found.is_file():
                (profiles / found.name).symlink_to(found.resolve())
        shutil.copyfile(profile, profiles / "default_cmyk.icc")
        args = [
            command,
            "-q",
            "-dSAFER",
            "-dBATCH",
            "-dNOPAUSE",
            "-sDEVICE=pdfwrite",
            f"-dCompatibilityLevel={'1.3' if flatten_dpi else '1.6'}",
            *([f"-r{flatten_dpi}"] if flatten_dpi else []),
            *(["-dPDFX"] if pdfx else []),
            *(["-dNoOutputFonts"] if outline_fonts else []),
            "-sColorConversionStrategy=CMYK",
            "-sProcessColorModel=DeviceCMYK",
            f"-sICCProfilesDir={profiles}/",
            "-dRenderIntent=1",
            "-dAutoRotatePages=/None",
            f"-sOutputFile={target}",
            str(source),
        ]
        try:
            done = subprocess.run(args, capture_output=True, timeout=timeout, check=False)
        except subprocess.TimeoutExpired:
            raise OSError(f"Ghostscript took longer than {timeout:g} s") from None
        if done.returncode != 0 or not target.is_file():
            message = (done.stderr or done.stdout).decode("utf-8", "replace").strip().splitlines()
            raise OSError("Ghostscript failed: " + (message[-1] if message else f"exit {done.returncode}"))
        return target.read_bytes()
