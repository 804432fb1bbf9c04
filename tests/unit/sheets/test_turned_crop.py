"""A face rendered turned on its side (as a sheet lays it) keeps the whole face, at its turned size."""

from __future__ import annotations

import pypdfium2 as pdfium
import pytest

from printer.sheets.verify import render_at, turned_crop

PAGE = (0.0, 0.0, 195.6, 266.5)  # a 63 x 88 mm card with 3 mm bleed, in pt
SCALE = 100 / 72  # 100 dpi


@pytest.mark.parametrize("turn", [0, 90, 180, 270])
def test_the_crop_stays_on_the_page_and_starts_at_the_inset(turn):
    left, bottom, right, top = crop = turned_crop(PAGE, turn, (3.2, 1.7), SCALE)
    assert PAGE[0] <= left < right <= PAGE[2] and PAGE[1] <= bottom < top <= PAGE[3], crop
    # the image's top-left corner is this corner of the page once turned, moved in by (3.2 across, 1.7 down)
    corner = {0: (left, top), 90: (left, bottom), 180: (right, bottom), 270: (right, top)}[turn]
    expected = {0: (3.2, 264.8), 90: (1.7, 3.2), 180: (192.4, 1.7), 270: (193.9, 263.3)}[turn]
    assert corner == pytest.approx(expected)
    across, down = (right - left, top - bottom) if turn in (0, 180) else (top - bottom, right - left)
    for length in (across, down):  # a whole number of pixels, a hair under
        assert length * SCALE == pytest.approx(round(length * SCALE), abs=2e-3)


@pytest.mark.parametrize("turn", [0, 90, 180, 270])
def test_a_turned_face_renders_whole(turn):
    document = pdfium.PdfDocument.new()
    document.new_page(PAGE[2], PAGE[3])
    image, corner = render_at(document, 0, 100, turn, 3, (10.3, 20.6))
    across, down = image.size if turn in (0, 180) else image.size[::-1]
    # the face is 195.6 x 266.5 pt = 271.7 x 370.1 px, less under a pixel at the corner it is moved to
    assert across in (270, 271) and down in (369, 370), image.size
    assert corner == (11, 11)
