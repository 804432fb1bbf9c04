"""Opening card art safely: one way to open an image file that fails with a readable ``OSError``.

Both validation (:mod:`printer.cards.catalog` reads art headers) and the
sheets (:mod:`printer.sheets.images` prepares art for printing) open
images through :func:`open_image`, and check SVG art with :func:`svg_problem`.
"""

from __future__ import annotations

import contextlib
import struct
import warnings
from collections.abc import Iterator
from pathlib import Path

from PIL import Image, ImageFile, UnidentifiedImageError


@contextlib.contextmanager
def open_image(source: Path) -> Iterator[Image.Image]:
    """``Image.open(source)`` that raises only ``OSError`` with a readable message.

    A file that is not an image Pillow knows, and an image over Pillow's
    decompression-bomb limit (``Image.MAX_IMAGE_PIXELS``, about 89 million
    pixels: Pillow warns above it and refuses above twice it; printer
    refuses both), raise ``OSError``. Truncated data shows up later, when
    the pixels are decoded inside the ``with`` block (``image file is
    truncated``, an ``OSError``): WeasyPrint's setting that loads cut-short
    files anyway is switched off meanwhile.
    """
    with warnings.catch_warnings():
        warnings.simplefilter("error", Image.DecompressionBombWarning)
        try:
            image = Image.open(source)
        except (Image.DecompressionBombError, Image.DecompressionBombWarning):
            limit = Image.MAX_IMAGE_PIXELS or 0
            raise OSError(
                f"image is over Pillow's limit of {limit / 1e6:.0f} million pixels (a possible decompression bomb)"
            ) from None
        except UnidentifiedImageError:
            raise OSError("not an image file Pillow can read (JPEG, PNG, WebP, TIFF...)") from None
        except (SyntaxError, struct.error, EOFError, ValueError) as exc:
            raise OSError(f"image header is broken: {exc}") from None
    truncated = ImageFile.LOAD_TRUNCATED_IMAGES
    ImageFile.LOAD_TRUNCATED_IMAGES = False  # WeasyPrint sets it to True on import: a cut-short file would print grey
    try:
        with image:
            yield image
    finally:
        ImageFile.LOAD_TRUNCATED_IMAGES = truncated


def svg_problem(path: Path) -> str | None:
    """Why the SVG file at ``path`` cannot be drawn: not well-formed XML (with where), or no ``<svg>`` root element;
    else ``None``. Parsed without fetching anything (ElementTree reads no external entity, and expat bounds entity
    expansion)."""
    from xml.etree import ElementTree

    try:
        root = ElementTree.parse(path).getroot()
    except ElementTree.ParseError as exc:
        return f"not a well-formed SVG file ({exc})"
    except OSError as exc:
        return f"cannot read it: {exc.strerror or exc}"
    tag = str(root.tag).rsplit("}", 1)[-1]
    return None if tag == "svg" else f"not an SVG image: its root element is <{tag}>, not <svg>"
