"""Card art prepared once with Pillow into a cache under ``build/``.

WeasyPrint embeds JPEGs as they are but decodes and re-compresses every
PNG (about 60 ms each, WEASYPRINT.md), and it embeds images at whatever
size they come. So each art file is prepared once for the box it prints
in and kept in ``build/.cache/art/``:

- ``cover`` (crop to fill): cropped, centred, to the box's shape;
  ``contain`` (fit): kept whole;
- scaled down to the box at :attr:`ArtCache.dpi` (default 300), never up;
- turned upright by its EXIF orientation;
- saved as JPEG (quality 92) when it has no transparency (a PNG whose alpha
  is fully opaque is flattened), as PNG otherwise; SVG is left as it is;
- with a CMYK ICC profile (PDF/X output), converted to CMYK JPEG through it.

The cache key is the source's path, size and modification time plus the
box, mode, dpi and profile, so an edited image is prepared again.

Art that prints below :data:`MIN_DPI` at its printed size, by more than
:data:`DPI_TOLERANCE` (5 %: under 285 dpi), is reported as a warning, once per
art file, at the first card using it, with the pixel size it would need.
"""

from __future__ import annotations

import hashlib
import io
import struct
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from printer.fsutil import atomic_write_bytes
from printer.sheets.layout import MM_PER_IN

if TYPE_CHECKING:  # Pillow is imported when art is first prepared: a run that prepares none never loads it
    from PIL import Image, ImageCms

MIN_DPI = 300
#: how far under MIN_DPI art may print before it is a warning: 5 %, so that art made for a nearby size (299 dpi,
#: a 2.5 % crop to fill the bleed) does not warn on every build; the warning names the pixel size MIN_DPI needs
DPI_TOLERANCE = 0.05
LOW_DPI = MIN_DPI * (1 - DPI_TOLERANCE)
JPEG_QUALITY = 92
FITS = ("cover", "contain")


@dataclass
class PreparedArt:
    """An image ready to embed: ``path``, its effective ``dpi`` at the printed size, and the ``source`` pixel size."""

    path: Path
    dpi: float | None
    source_px: tuple[int, int] | None = None


class ArtCache:
    """Prepares art files for boxes in mm; ``folder`` is the cache (``build/.cache/art``)."""

    def __init__(self, folder: Path, dpi: int = 300, cmyk_profile: Path | None = None):
        self.folder = Path(folder)
        self.dpi = dpi
        self.cmyk_profile = cmyk_profile
        self._done: dict[tuple[object, ...], PreparedArt] = {}

    def prepare(self, source: Path, box_mm: tuple[float, float], fit: str = "cover") -> PreparedArt:
        """``source`` prepared for a box of ``box_mm`` (width, height) mm; raises ``OSError`` if unreadable.

        SVG files come back unchanged (vector art has no dpi).
        """
        if fit not in FITS:
            raise ValueError(f"fit must be one of {FITS}, not {fit!r}")
        source = Path(source).resolve()
        if source.suffix.lower() == ".svg":
            return PreparedArt(source, None)
        stat = source.stat()
        key = (
            str(source),
            stat.st_size,
            stat.st_mtime_ns,
            round(box_mm[0], 3),
            round(box_mm[1], 3),
            fit,
            self.dpi,
            str(self.cmyk_profile or ""),
        )
        if key in self._done:
            return self._done[key]
        digest = hashlib.sha1(repr(key).encode()).hexdigest()[:20]
        existing = [p for p in (self.folder / f"{digest}.jpg", self.folder / f"{digest}.png") if p.is_file()]
        from PIL import Image

        from printer.cards.art import open_image

        with open_image(source) as image:
            size = image.size
            if existing:
                result = PreparedArt(existing[0], effective_dpi(size, box_mm, fit), size)
            else:
                try:
                    result = self._make(image, box_mm, fit, digest)
                except (SyntaxError, struct.error, EOFError, Image.DecompressionBombError) as exc:
                    # Pillow raises these on broken image data while decoding (a truncated or corrupt file)
                    raise OSError(f"image data is broken: {exc}") from None
        self._done[key] = result
        return result

    def _make(self, image: Image.Image, box_mm: tuple[float, float], fit: str, digest: str) -> PreparedArt:
        from PIL import Image, ImageOps

        image = ImageOps.exif_transpose(image)
        source_px = image.size
        bw, bh = box_mm
        w, h = image.size
        if fit == "cover":
            target_ratio = bw / bh
            if w / h > target_ratio:  # too wide: crop the sides
                new_w = max(1, round(h * target_ratio))
                image = image.crop(((w - new_w) // 2, 0, (w - new_w) // 2 + new_w, h))
            else:
                new_h = max(1, round(w / target_ratio))
                image = image.crop((0, (h - new_h) // 2, w, (h - new_h) // 2 + new_h))
        want_w = round(bw / MM_PER_IN * self.dpi)
        want_h = round(bh / MM_PER_IN * self.dpi)
        scale = min(want_w / image.width, want_h / image.height)
        if scale < 1:
            image = image.resize(
                (max(1, round(image.width * scale)), max(1, round(image.height * scale))), Image.Resampling.LANCZOS
            )
        has_alpha = image.mode in ("RGBA", "LA", "PA") or (image.mode == "P" and "transparency" in image.info)
        if has_alpha:
            rgba = image.convert("RGBA")
            if rgba.getchannel("A").getextrema()[0] == 255:
                image, has_alpha = rgba.convert("RGB"), False
            else:
                image = rgba
        buffer = io.BytesIO()
        if has_alpha:
            image.save(buffer, "PNG", optimize=False)
            path = self.folder / f"{digest}.png"
        else:
            image = image.convert("RGB") if image.mode not in ("RGB", "CMYK") else image
            if self.cmyk_profile is not None and image.mode == "RGB":
                image = to_cmyk(image, self.cmyk_profile)
            image.save(buffer, "JPEG", quality=JPEG_QUALITY, optimize=True)
            path = self.folder / f"{digest}.jpg"
        atomic_write_bytes(path, buffer.getvalue())
        return PreparedArt(path, effective_dpi(source_px, box_mm, fit), source_px)


def effective_dpi(source_px: tuple[int, int], box_mm: tuple[float, float], fit: str = "cover") -> float:
    """The dpi an image of ``source_px`` prints at when it covers (or fits in) a box of ``box_mm``."""
    w, h = source_px
    bw, bh = box_mm
    # mm per source pixel once scaled to cover or fit the box
    scale = max(bw / w, bh / h) if fit == "cover" else min(bw / w, bh / h)
    return MM_PER_IN / scale


def needed_px(box_mm: tuple[float, float], dpi: int = MIN_DPI) -> tuple[int, int]:
    """The pixel size a box of ``box_mm`` needs at ``dpi``."""
    return (round(box_mm[0] / MM_PER_IN * dpi), round(box_mm[1] / MM_PER_IN * dpi))


def to_cmyk(image: Image.Image, profile: Path) -> Image.Image:
    """``image`` (sRGB) converted to CMYK through the ICC ``profile`` (relative colorimetric)."""
    from PIL import ImageCms

    transform = _transforms.get(str(profile))
    if transform is None:
        transform = ImageCms.buildTransform(
            ImageCms.createProfile("sRGB"),
            ImageCms.getOpenProfile(str(profile)),
            "RGB",
            "CMYK",
            renderingIntent=ImageCms.Intent.RELATIVE_COLORIMETRIC,
        )
        _transforms[str(profile)] = transform
    converted = ImageCms.applyTransform(image, transform)
    assert converted is not None  # None only for a transform in place
    return converted


def profile_colour_space(profile: Path) -> str:
    """The colour space an ICC profile converts to: ``CMYK``, ``RGB``, ``GRAY``...; raises ``OSError`` if unreadable."""
    from PIL import ImageCms

    try:
        return ImageCms.getOpenProfile(str(profile)).profile.xcolor_space.strip()
    except ImageCms.PyCMSError as exc:
        raise OSError(str(exc)) from None


_transforms: dict[str, ImageCms.ImageCmsTransform] = {}
