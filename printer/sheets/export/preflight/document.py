"""Document checks of ``printer preflight``: PDF/X version and output intent, fonts, transparency, page boxes,
image resolution, page order and file size, each reported at its page and object.
"""

from __future__ import annotations

import hashlib
from collections import defaultdict

import pikepdf

from printer.problems import Problem
from printer.sheets.export.preflight.profile import MM_PER_IN, VendorProfile
from printer.sheets.export.preflight.walk import Facts

#: how far (mm) a TrimBox or BleedBox side may be from the vendor's figure
BOX_TOLERANCE_MM = 0.1
PT_PER_MM = 72 / MM_PER_IN
#: page labels printer writes to say which side a page is (``back 3``, ``front 3``)
SIDES = ("front", "back")


def pdfx_problems(pdf: pikepdf.Pdf, where: str, profile: VendorProfile) -> list[Problem]:
    """An error when the PDF/X version or the CMYK output intent the profile asks for is missing."""
    problems = []
    if profile.pdfx:
        info = pdf.trailer.get("/Info")
        version = str(info.get("/GTS_PDFXVersion", "")) if isinstance(info, pikepdf.Dictionary) else ""
        if not version.startswith(profile.pdfx):
            problems.append(
                Problem(
                    f"{where}:document info",
                    f"{profile.name} asks for {profile.pdfx}; this PDF says {version or 'no PDF/X version'}",
                    "write it with printer build --preset, or export PDF/X from your layout program",
                    code="preflight-pdfx",
                )
            )
    if profile.output_intent:
        intents = [i for i in pdf.Root.get("/OutputIntents") or [] if i.get("/S") == "/GTS_PDFX"]
        profile_n = [int(i.DestOutputProfile.get("/N", 0)) for i in intents if "/DestOutputProfile" in i]
        if not intents:
            problems.append(
                Problem(
                    f"{where}:catalog",
                    f"no PDF/X output intent: {profile.name} needs the CMYK press condition named",
                    "embed the CMYK output profile as the output intent (--icc)",
                    code="preflight-output-intent",
                )
            )
        elif profile.colour == "cmyk" and profile_n and profile_n[0] != 4:
            problems.append(
                Problem(
                    f"{where}:catalog output intent",
                    f"the output intent's profile has {profile_n[0]} components, not CMYK's 4",
                    "embed a CMYK output profile",
                    code="preflight-output-intent",
                )
            )
    return problems


def _embedded(font: pikepdf.Object) -> bool:
    if font.get("/Subtype") == "/Type3":
        return True
    if font.get("/Subtype") == "/Type0":
        descendants: pikepdf.Object | list[pikepdf.Object] = font.get("/DescendantFonts") or []
        return bool(descendants) and _embedded(descendants[0])
    descriptor = font.get("/FontDescriptor")
    return isinstance(descriptor, pikepdf.Dictionary) and any(
        k in descriptor for k in ("/FontFile", "/FontFile2", "/FontFile3")
    )


def font_problems(facts: Facts, where: str, profile: VendorProfile) -> list[Problem]:
    """An error per font not embedded (or, when the profile asks for outlines, per font at all), once per font."""
    problems = []
    seen = set()
    for page, obj, font in facts.fonts:
        key = font.objgen if font.objgen != (0, 0) else (page, obj)
        if key in seen:
            continue
        seen.add(key)
        name = str(font.get("/BaseFont", obj))[1:] if "/BaseFont" in font else obj
        if profile.fonts == "outlined":
            problems.append(
                Problem(
                    f"{where}:page {page} {obj}",
                    f"text set in font {name}: {profile.name} asks for fonts converted to outlines",
                    "outline the text (printer build --preset does, through Ghostscript)",
                    code="preflight-font-outlines",
                )
            )
        elif not _embedded(font):
            problems.append(
                Problem(
                    f"{where}:page {page} {obj}",
                    f"font {name} is not embedded: {profile.name} needs every font embedded",
                    "embed the font (WeasyPrint embeds the fonts it finds; check @font-face src)",
                    code="preflight-font",
                )
            )
    return problems


def transparency_problems(facts: Facts, where: str, profile: VendorProfile) -> list[Problem]:
    """An error per page and object that uses transparency, when the profile forbids it."""
    if profile.transparency:
        return []
    found: dict[tuple[int, str], list[str]] = defaultdict(list)
    for page, obj, what in facts.transparency:
        if what not in found[(page, obj)]:
            found[(page, obj)].append(what)
    return [
        Problem(
            f"{where}:page {page} {obj}",
            f"transparency ({', '.join(what)}): {profile.name} takes no transparency",
            "flatten the PDF (PDF/X-1a; printer build --preset does, through Ghostscript)",
            code="preflight-transparency",
        )
        for (page, obj), what in sorted(found.items())
    ]


def _box(page: pikepdf.Page, key: str) -> tuple[float, float, float, float] | None:
    box = page.obj.get(key)
    if not isinstance(box, pikepdf.Array) or len(box) != 4:
        return None
    x0, y0, x1, y1 = (float(v) / PT_PER_MM for v in box)
    return min(x0, x1), min(y0, y1), max(x0, x1), max(y0, y1)


def box_problems(
    pdf: pikepdf.Pdf, where: str, profile: VendorProfile, trim: tuple[float, float] | None
) -> list[Problem]:
    """An error per page whose TrimBox is not a trim size of the vendor (or ``trim``, mm) or whose BleedBox is not
    the TrimBox grown by the vendor's bleed on every side, to :data:`BOX_TOLERANCE_MM`."""
    sizes = [trim] if trim else list(profile.trims)
    problems = []
    for number, page in enumerate(pdf.pages, 1):
        at = f"{where}:page {number}"
        trim_box, bleed_box = _box(page, "/TrimBox"), _box(page, "/BleedBox")
        if trim_box is None:
            problems.append(Problem(at, "no TrimBox", "set the TrimBox on the cut line", code="preflight-trimbox"))
            continue
        w, h = trim_box[2] - trim_box[0], trim_box[3] - trim_box[1]
        if sizes and not any(abs(w - sw) <= BOX_TOLERANCE_MM and abs(h - sh) <= BOX_TOLERANCE_MM for sw, sh in sizes):
            want = " or ".join(f"{sw:.1f} x {sh:.1f}" for sw, sh in sizes)
            problems.append(
                Problem(
                    f"{at} TrimBox",
                    f"TrimBox {w:.2f} x {h:.2f} mm: {profile.name} cuts {want} mm",
                    "set the trim size to the vendor's (printer build --preset does)",
                    code="preflight-trimbox",
                )
            )
        if profile.bleed is None:
            continue
        if bleed_box is None:
            bleed_box = _box(page, "/MediaBox")
        if bleed_box is None:
            continue
        sides = (
            trim_box[0] - bleed_box[0],
            trim_box[1] - bleed_box[1],
            bleed_box[2] - trim_box[2],
            bleed_box[3] - trim_box[3],
        )
        if any(abs(s - profile.bleed) > BOX_TOLERANCE_MM for s in sides):
            problems.append(
                Problem(
                    f"{at} BleedBox",
                    "bleed " + " / ".join(f"{s:.2f}" for s in sides) + f" mm (left / bottom / right / top): "
                    f"{profile.name} asks for {profile.bleed:.2f} mm a side",
                    "set the BleedBox the vendor's bleed outside the TrimBox",
                    code="preflight-bleedbox",
                )
            )
    return problems


def resolution_problems(
    facts: Facts, where: str, profile: VendorProfile, min_dpi: float | None = None
) -> list[Problem]:
    """An error per image (per page) printed below ``min_dpi`` (default: the profile's) at its size on the page."""
    least = min_dpi or profile.min_dpi
    problems = []
    for placed in facts.images:
        image = placed.image
        if isinstance(image, pikepdf.PdfInlineImage):
            width, height = (
                int(image.obj.get("/W", image.obj.get("/Width", 0))),
                int(image.obj.get("/H", image.obj.get("/Height", 0))),
            )
        else:
            width, height = int(image.get("/Width", 0)), int(image.get("/Height", 0))
        if placed.width_pt < 1 or placed.height_pt < 1 or not width or not height:
            continue
        dpi = min(width / (placed.width_pt / 72), height / (placed.height_pt / 72))
        if dpi < least - 0.5:
            problems.append(
                Problem(
                    f"{where}:page {placed.page} {placed.where}",
                    f"image {width} x {height} px printed {placed.width_pt / PT_PER_MM:.1f} x "
                    f"{placed.height_pt / PT_PER_MM:.1f} mm: {dpi:.0f} dpi, below {least:g} dpi",
                    f"give art at least {least:g} px per inch at its printed size",
                    code="preflight-dpi",
                )
            )
    return problems


def page_sides(pdf: pikepdf.Pdf) -> list[str | None]:
    """Each page's side, ``front`` or ``back``: from the page labels printer writes, else guessed (the side whose
    pages repeat: a shared back draws the same content on every card), else ``None``."""
    labels = []
    for page in pdf.pages:
        try:
            label = str(page.label).split(" ")[0].lower()
        except (AttributeError, pikepdf.PdfError, ValueError):
            label = ""
        labels.append(label if label in SIDES else None)
    if all(labels):
        return labels
    if len(pdf.pages) < 4 or len(pdf.pages) % 2:
        return [None] * len(pdf.pages)
    digests = []
    for page in pdf.pages:
        digest = hashlib.sha256(
            page.obj.Contents.read_bytes() if isinstance(page.obj.get("/Contents"), pikepdf.Stream) else b""
        )
        resources = page.obj.get("/Resources")
        xobjects = resources.get("/XObject") if isinstance(resources, pikepdf.Dictionary) else None
        for _name, xobject in sorted((xobjects or {}).items()):
            digest.update(repr(xobject.objgen).encode())
        digests.append(digest.hexdigest())
    odd, even = len(set(digests[0::2])), len(set(digests[1::2]))
    if odd == even:
        return [None] * len(pdf.pages)
    first = "back" if odd < even else "front"
    other = "front" if first == "back" else "back"
    return [first if i % 2 == 0 else other for i in range(len(pdf.pages))]


def order_problems(pdf: pikepdf.Pdf, where: str, profile: VendorProfile) -> list[Problem]:
    """An error at the first page out of the profile's order (``alternating``: front then back; ``back-first``)."""
    if profile.page_order == "any":
        return []
    first, second = ("back", "front") if profile.page_order == "back-first" else ("front", "back")
    if len(pdf.pages) % 2:
        return [
            Problem(
                f"{where}:page {len(pdf.pages)}",
                f"{len(pdf.pages)} pages: {profile.name} takes each card as two pages, {first} then {second}",
                "give every card both sides",
                code="preflight-page-order",
            )
        ]
    for number, side in enumerate(page_sides(pdf), 1):
        want = first if number % 2 else second
        if side is not None and side != want:
            return [
                Problem(
                    f"{where}:page {number}",
                    f"page {number} is a {side}: {profile.name} takes each card's {first} then its {second}",
                    f"order the pages {first}, {second}, {first}, {second}...",
                    code="preflight-page-order",
                )
            ]
    return []


def _amount(size: int) -> str:
    """A file size as people read it: ``1.5 MB``, ``0.445 MB``; under 10,000 bytes in bytes (``1,000 bytes``)."""
    if size >= 1_000_000:
        return f"{size / 1e6:.1f} MB"
    return f"{size / 1e6:.3g} MB" if size >= 10_000 else f"{size:,} bytes"


def size_problems(size: int, where: str, profile: VendorProfile, max_bytes: int | None = None) -> list[Problem]:
    """An error when the file's ``size`` (bytes) passes ``max_bytes`` (default: the profile's)."""
    limit = max_bytes or profile.max_bytes
    if limit is None or size <= limit:
        return []
    return [
        Problem(
            where,
            f"{_amount(size)}: above the {_amount(limit)} limit",
            "lower the art's resolution to the printed size, or split the cards into several files",
            code="preflight-size",
        )
    ]
