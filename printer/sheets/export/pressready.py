"""What a CMYK print-on-demand PDF needs beyond the colour conversion: the vendor's rich black, PDF/X-1a's
document info, and page labels that say which side each page is.

- :func:`with_rich_black`: before Ghostscript converts the PDF, every pure
  black (``0 0 0 rg``, ``0 g``, and their stroke forms) becomes the vendor's
  rich black as DeviceCMYK (MB Print: C30 M30 Y0 K100,
  https://mbprint.pl/en/?p=658), which Ghostscript keeps as it is. This is
  the vendor's recipe for black, not a colour conversion: every other colour
  goes through the ICC profile. A vendor without a rich black may name the
  black pure black prints as (DriveThruCards: K100 alone, within its 240 %
  ink limit).
- :func:`finish_press_pdf`: the output intent (the CMYK profile, embedded),
  ``GTS_PDFXVersion`` when the vendor asks for PDF/X-1a, and the page labels
  ``front 1``, ``back 1``... that ``printer preflight`` reads to check the
  page order.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from pathlib import Path

import pikepdf

_BLACKS = {"rg": ("k", 3), "RG": ("K", 3), "g": ("k", 1), "G": ("K", 1)}
#: form XObjects rewritten per document at most (a hostile file cannot keep this busy)
MAX_FORMS = 10_000


def _rewrite(stream: pikepdf.Object, cmyk: tuple[float, ...]) -> bool:
    changed = False
    operations = []
    for instruction in pikepdf.parse_content_stream(stream):
        operands, operator = instruction.operands, instruction.operator
        op = str(operator)
        if op in _BLACKS and len(operands) == _BLACKS[op][1] and all(float(v) == 0 for v in operands):
            operations.append(pikepdf.ContentStreamInstruction(list(cmyk), pikepdf.Operator(_BLACKS[op][0])))
            changed = True
        else:
            operations.append(pikepdf.ContentStreamInstruction(operands, operator))
    if changed:
        stream.write(pikepdf.unparse_content_stream(operations))
    return changed


def with_rich_black(pdf: bytes, black: Sequence[float]) -> bytes:
    """``pdf`` with every pure black fill and stroke set as ``black`` (C, M, Y, K percent) in DeviceCMYK."""
    cmyk = tuple(round(v / 100, 4) for v in black)
    with pikepdf.open(io.BytesIO(pdf)) as document:
        seen: set[tuple[int, int]] = set()
        for page in document.pages:
            page.contents_coalesce()
            _rewrite(page.obj.Contents, cmyk)
            forms = [page.obj.get("/Resources")]
            while forms and len(seen) < MAX_FORMS:
                resources = forms.pop()
                xobjects = resources.get("/XObject") if isinstance(resources, pikepdf.Dictionary) else None
                for xobject in (xobjects or {}).values():
                    if xobject.get("/Subtype") != "/Form" or xobject.objgen in seen:
                        continue
                    seen.add(xobject.objgen)
                    _rewrite(xobject, cmyk)
                    forms.append(xobject.get("/Resources"))
        out = io.BytesIO()
        document.save(out)
        return out.getvalue()


def finish_press_pdf(
    pdf: bytes, sides: Sequence[str], profile: Path | None = None, pdfx: str | None = None, condition: str | None = None
) -> bytes:
    """``pdf`` with page labels (``sides[i]`` and the card's number: ``back 1``, ``front 1``...), and with a
    ``profile`` its output intent; ``pdfx`` (``PDF/X-1a:2003``) is written as the document's PDF/X version.

    The output intent's ``OutputConditionIdentifier`` is ``condition`` (a registered printing condition, e.g.
    ``FOGRA39``) when given, else the profile's description; its ``OutputCondition`` and ``Info`` the description."""
    with pikepdf.open(io.BytesIO(pdf)) as document:
        nums: list[int | pikepdf.Dictionary] = []
        counts: dict[str, int] = {}
        for index, side in enumerate(sides[: len(document.pages)]):
            counts[side] = counts.get(side, 0) + 1
            nums += [index, pikepdf.Dictionary(P=pikepdf.String(f"{side} {counts[side]}"))]
        if nums:
            document.Root.PageLabels = pikepdf.Dictionary(Nums=pikepdf.Array(nums))
        if profile is not None:
            from PIL import ImageCms

            try:
                name = ImageCms.getProfileDescription(ImageCms.getOpenProfile(str(profile))).strip()
            except (ImageCms.PyCMSError, OSError):
                name = Path(profile).stem
            icc = document.make_stream(Path(profile).read_bytes(), N=4)
            intent = pikepdf.Dictionary(
                Type=pikepdf.Name.OutputIntent,
                S=pikepdf.Name.GTS_PDFX,
                OutputConditionIdentifier=pikepdf.String(condition or name or "CMYK"),
                OutputCondition=pikepdf.String(name or "CMYK"),
                Info=pikepdf.String(name or "CMYK"),
                RegistryName=pikepdf.String("http://www.color.org"),
                DestOutputProfile=icc,
            )
            document.Root.OutputIntents = pikepdf.Array([document.make_indirect(intent)])
        if pdfx:
            info = document.trailer.get("/Info")
            if not isinstance(info, pikepdf.Dictionary):
                info = document.make_indirect(pikepdf.Dictionary())
                document.trailer.Info = info
            info.GTS_PDFXVersion = pikepdf.String(pdfx)
            info.GTS_PDFXConformance = pikepdf.String(pdfx)
            info.Trapped = pikepdf.Name("/False")
        out = io.BytesIO()
        if pdfx:
            document.save(out, force_version="1.4")
        else:
            document.save(out)
        return out.getvalue()
