"""A box with no background, border image or rounded corner gets WeasyPrint's answer for it without the nine
values that decide it being read again for every box of the same style.

Once a page is laid out, WeasyPrint 70 walks every box of it (``weasyprint.layout.background.
layout_box_backgrounds``): it resolves the box's four corner radii, fetches its border and mask border images,
reads its background images, color and shadows, and gives it a background, or none. Most boxes of a card face
(the text's line boxes and runs, the boxes that only place others) have none, and every one of them still read
those values: in a cold ``printer build --jobs 1`` of 900 real cards the walk took 0.53 s over 1,210 pages and
68,279 boxes, 5 % of the build, and 59,291 of those boxes were plain.

Whether a box is *plain* (square corners, no border image, no mask border image, no background image, a
transparent background color and no shadow: WeasyPrint gives it corner radii of ``(0, 0)`` and no background)
depends on its computed values only. :func:`install` has the walk decide it once per style object (a style is
kept by its element's boxes and shared by the elements styled alike) and, for a plain box, set what WeasyPrint
sets and go on to its children; any other box, the page itself and a call for another box's style (the page's
canvas, from the root's or body's background) are WeasyPrint's. In the same build the walk took 0.38 s, and the
build 0.98x the time (medians of 8 runs in turns). The pages are the same byte for byte
(``tests/unit/sheets/test_backgrounds.py``; the example games' and those 900 cards' PDFs compared page by page).
Any WeasyPrint other than :data:`WEASYPRINT` is left alone.
"""

from __future__ import annotations

from typing import Any

#: the WeasyPrint version whose ``layout_box_backgrounds`` this follows
WEASYPRINT = "70.0"
#: the corner radii WeasyPrint sets on a box
CORNERS = ("border_top_left_radius", "border_top_right_radius", "border_bottom_right_radius",
           "border_bottom_left_radius")  # fmt: skip


def install() -> bool:
    """Have WeasyPrint's walk of a page's backgrounds decide plain boxes once per style (once a process). Returns
    whether it is in place: False, and nothing changed, on a WeasyPrint other than :data:`WEASYPRINT`."""
    import weasyprint
    import weasyprint.layout.background as background

    current = background.layout_box_backgrounds
    if getattr(current, "_printer_original", None) is not None:
        return True
    if weasyprint.__version__ != WEASYPRINT:
        return False

    def layout_box_backgrounds(
        page: Any, box: Any, get_image_from_uri: Any, layout_children: bool = True, style: Any = None
    ) -> None:
        if style is None and box is not page:
            own = box.style.__dict__
            found = own.get("_printer_plain")
            if found is None:
                found = own["_printer_plain"] = plain(box.style)
            if found:
                box.border_top_left_radius = box.border_top_right_radius = (0, 0)
                box.border_bottom_right_radius = box.border_bottom_left_radius = (0, 0)
                if layout_children:
                    for child in box.all_children():
                        layout_box_backgrounds(page, child, get_image_from_uri)
                box.background = None
                return
        current(page, box, get_image_from_uri, layout_children, style)

    layout_box_backgrounds._printer_original = current  # type: ignore[attr-defined]
    background.layout_box_backgrounds = layout_box_backgrounds
    return True


def plain(style: Any) -> bool:
    """Whether WeasyPrint 70 gives a box of ``style`` (its computed values) square corners, no border or mask
    border image and no background: each corner radius zero in either direction, no border image and no mask
    border image, and, when the box is visible, no background image and a transparent background color; and no
    shadow."""
    if any((0, "px") not in style[corner] for corner in CORNERS):
        return False
    if style["border_image_source"][0] != "none" or style["mask_border_source"][0] != "none":
        return False
    if style["box_shadow"]:
        return False
    if style["visibility"] == "hidden":
        return True
    style["image_orientation"]  # read, as WeasyPrint reads it for a visible box's images
    if any(kind != "none" for kind, _ in style["background_image"]):
        return False
    color = style["background_color"]
    if color == "currentcolor":
        color = style["color"]
    return bool(color.alpha == 0)
