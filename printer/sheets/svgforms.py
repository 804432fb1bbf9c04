"""Each SVG image a PDF shows many times at one size drawn once, as a form XObject that every use paints.

WeasyPrint 70 draws an ``<img src="icon.svg">`` by walking the SVG's element tree and writing its paths into the
page's content stream, anew at every use (``weasyprint.images.SVGImage.draw``). printer writes hundreds of card
faces into one PDF (the pages of many documents joined, ``printer.sheets.pdf``), and the same few icons appear on
most of them: in a cold build of 900 real cards of the bundled games that drawing was 8 % of the time (2,220 draws, cProfile,
``--jobs 1``). All the pages of one written PDF share one resources dictionary, so a drawing kept there as a form
XObject can be painted by any page with one ``Do`` operator.

:func:`install` replaces the class that ``weasyprint.images.get_image_from_uri`` makes SVG images with
:class:`ReusedSVGImage`, a subclass whose ``draw`` goes through :func:`draw_once`. It draws the image the way
WeasyPrint does, into a form XObject of its own instead of the page, keeps the form under a key made of the
SVG's serialized tree, its URL and the size it is drawn at, and paints the form; a later draw with the same key
into the same PDF only paints it. A form XObject without a transparency group paints exactly what its content
would paint in its place (ISO 32000-1, 8.10): the pages look the same, and the PDF is smaller.

WeasyPrint's own drawing is used, unchanged, whenever the result could differ or the adapter's assumptions may
not hold:

- any WeasyPrint other than the version this was written against (:data:`WEASYPRINT`), or one whose classes lack
  what this reads (``install`` then changes nothing);
- an SVG whose drawing depends on something outside it: a raster ``<image>`` (its resolution depends on the size
  on the page), a ``<foreignObject>``, a reference to another file (``href`` or ``url()`` not starting with ``#``);
- an SVG that uses gradients or patterns (WeasyPrint places them with the page's transformation matrix);
- a draw into anything but a page's own content stream (inside an opacity group or a pattern), or into a tagged
  PDF;
- a page that would reach beyond the form's bounding box (:data:`BBOX`, in the form's units: CSS pixels of the
  image), as an image shrunk a thousandfold would;
- a drawing that fails: WeasyPrint then draws it again the ordinary way and logs its error.
"""

from __future__ import annotations

import hashlib
import re
import threading
import weakref
from typing import Any

#: the WeasyPrint version whose ``SVGImage.draw`` and ``Stream`` this adapter follows
WEASYPRINT = "70.0"
#: half the side of a form's bounding box, in the form's units (CSS px of the image); content outside it is clipped,
#: so a form is used only where the whole page falls inside it
BBOX = 1_000_000
#: PDF points per CSS pixel: WeasyPrint's page scale when written without ``zoom`` (printer never zooms)
_PT_PER_PX = 0.75

_EXTERNAL_URL = re.compile(rb"""url\(\s*["']?\s*(?!#)""")
_NOT_REUSED_TAGS = frozenset({"image", "foreignobject"})
_FORM_NAME = "svgform"

#: per page-resources dictionary (by id, dropped when that dictionary is freed): key -> the form's name, or None
#: for a drawing that is not reused
_forms: dict[int, tuple[weakref.ref[Any], dict[tuple[Any, ...], str | None]]] = {}
_lock = threading.Lock()
_stats = {"drawn": 0, "reused": 0, "direct": 0}


def install() -> bool:
    """Make WeasyPrint's ``<img>`` SVG images draw through :func:`draw_once` (once a process).

    Returns whether the adapter is in place: False, and nothing changed, on a WeasyPrint other than
    :data:`WEASYPRINT` or one whose ``SVGImage`` or ``Stream`` lacks what the adapter reads.
    """
    import weasyprint
    import weasyprint.images
    from weasyprint.matrix import Matrix
    from weasyprint.pdf.stream import Stream

    current = getattr(weasyprint.images, "SVGImage", None)
    if current is _reused_class():
        return True
    if weasyprint.__version__ != WEASYPRINT or current is None:
        return False
    needed = [callable(getattr(current, "draw", None)), callable(getattr(Stream, "clone", None))]
    needed += [callable(getattr(Stream, "draw_x_object", None)), callable(getattr(Matrix, "transform_point", None))]
    if not all(needed):
        return False
    weasyprint.images.SVGImage = _reused_class(current)
    _install_backgrounds()
    return True


def _install_backgrounds() -> None:
    """Make WeasyPrint's ``draw_background_image`` go through :func:`draw_background_once` (once a process)."""
    import weasyprint.draw

    current = weasyprint.draw.draw_background_image
    if getattr(current, "_printer_original", None) is not None or not callable(current):
        return

    def draw_background_image(stream: Any, layer: Any, style: Any) -> None:
        if not draw_background_once(stream, layer, style):
            current(stream, layer, style)

    draw_background_image._printer_original = current  # type: ignore[attr-defined]
    weasyprint.draw.draw_background_image = draw_background_image


_CLASS: list[type] = []


def _reused_class(base: type | None = None) -> type | None:
    """:class:`ReusedSVGImage` made from WeasyPrint's ``base`` (once), or the one made, or None."""
    if base is not None and not _CLASS:

        class ReusedSVGImage(base):  # type: ignore[misc,valid-type]  # WeasyPrint is untyped
            """WeasyPrint's SVG image, drawn through :func:`draw_once`."""

            _reuse_key: tuple[bytes, str | None] | None | bool = False  # False: not worked out yet

            def draw(self, stream: Any, concrete_width: float, concrete_height: float, style: Any) -> None:
                if not draw_once(self, stream, concrete_width, concrete_height):
                    _stats["direct"] += 1
                    super().draw(stream, concrete_width, concrete_height, style)

        _CLASS.append(ReusedSVGImage)
    return _CLASS[0] if _CLASS else None


def reuse_key(image: Any) -> tuple[bytes, str | None] | None:
    """What makes two SVG images draw the same: a digest of the serialized tree and the URL; None for an SVG
    whose drawing depends on something outside it (kept on the image, worked out once)."""
    known: tuple[bytes, str | None] | None | bool = image._reuse_key
    if known is not False:
        return known if isinstance(known, tuple) else None
    from xml.etree import ElementTree

    key: tuple[bytes, str | None] | None = None
    try:
        root = image._svg.tree._etree_node
        external = False
        for element in root.iter():
            tag = element.tag if isinstance(element.tag, str) else ""
            if tag.rsplit("}", 1)[-1].lower() in _NOT_REUSED_TAGS:
                external = True
            for name, value in element.attrib.items():
                if name.endswith("href") and not value.strip().startswith("#"):
                    external = True
        body = ElementTree.tostring(root)
        if not external and not _EXTERNAL_URL.search(body):
            key = (hashlib.sha256(body).digest(), image._base_url)
    except Exception:  # noqa: BLE001 (a tree this adapter does not know: WeasyPrint's own drawing)
        key = None
    image._reuse_key = key
    return key


def draw_once(image: Any, stream: Any, width: float, height: float) -> bool:
    """Paint ``image`` at ``width`` x ``height`` (CSS px) on ``stream`` as a form XObject, drawn the first time
    this PDF needs it at that size; returns False, having drawn nothing, where WeasyPrint's own drawing is to be
    used (see the module's notes)."""
    key = reuse_key(image)
    if key is None or not _page_stream(stream) or not _page_inside(stream):
        return False
    resources = stream._resources
    forms = _forms_of(resources)
    full_key = (*key, width, height)
    if full_key not in forms:
        form = _draw_form(image, stream, width, height)
        name = None
        if form is not None:
            name = f"{_FORM_NAME}{len(forms)}"
            while name in resources["XObject"]:
                name += "_"
            resources["XObject"][name] = form
            _stats["drawn"] += 1
        forms[full_key] = name
    else:
        _stats["reused"] += 1
    name = forms[full_key]
    if name is None:
        return False
    stream.draw_x_object(name)
    return True


def _forms_of(resources: Any) -> dict[tuple[Any, ...], str | None]:
    """The forms kept for the PDF whose pages share ``resources`` (made empty the first time)."""
    with _lock:
        found = _forms.get(id(resources))
        if found is None or found[0]() is not resources:
            found = (weakref.ref(resources, _forget(id(resources))), {})
            _forms[id(resources)] = found
        return found[1]


def draw_background_once(stream: Any, layer: Any, style: Any) -> bool:
    """Paint a background layer showing one SVG image once (``no-repeat`` both ways) as WeasyPrint 70 does, but
    with the transparency group WeasyPrint makes for it drawn the first time this PDF needs it at that place and
    size, and painted again after; returns False, having drawn nothing, where WeasyPrint is to draw the layer.

    WeasyPrint draws such a layer by clipping to its painting area and painting a new group that holds the image
    moved to its position. The group is the same at every use with the same image, size, position and page size
    (its content and its bounding box depend on nothing else; the clip and the current transformation stay in
    the page's content stream at each use), so one group painted at each use paints what a new group would.
    """
    image: Any = layer.image
    reused = _reused_class()
    if image is None or reused is None or not isinstance(layer.image, reused) or 0 in layer.size:
        return False
    if tuple(layer.repeat) != ("no-repeat", "no-repeat") or not _page_stream(stream):
        return False
    key = reuse_key(image)
    if key is None:
        return False
    painting_x, painting_y, painting_width, painting_height = layer.painting_area
    left, top = layer.position[0] + layer.positioning_area[0], layer.position[1] + layer.positioning_area[1]
    full_key = ("background", *key, *layer.size, left, top, tuple(stream.page_rectangle))
    forms = _forms_of(stream._resources)
    if not layer.unbounded:
        stream.rectangle(painting_x, painting_y, painting_width, painting_height)
        stream.clip()
        stream.end()
    name = forms.get(full_key)
    if name is not None:
        _stats["reused"] += 1
        stream.draw_x_object(name)
        return True
    group = stream.add_group(*stream.page_rectangle)
    group.transform(e=left, f=top)
    image.draw(group, *layer.size, style)
    stream.draw_x_object(group.id)
    if full_key not in forms:
        _stats["drawn"] += 1
        resources = group._resources
        forms[full_key] = None if any(v is None for v in resources["XObject"].values()) else group.id
    return True


def _forget(number: int) -> Any:
    def forget(_: object) -> None:
        with _lock:
            found = _forms.get(number)
            if found is not None and found[0]() is None:
                del _forms[number]

    return forget


def _page_stream(stream: Any) -> bool:
    """Whether ``stream`` is a page's own content stream, untagged: WeasyPrint 70 gives its groups and patterns
    an ``extra`` dictionary with a ``Type`` and resources with a ``Font`` entry to fill in when writing; a page's
    stream has neither (all the pages of a PDF share its resources)."""
    extra = getattr(stream, "extra", None)
    resources = getattr(stream, "_resources", None)
    return (
        isinstance(resources, dict)
        and isinstance(resources.get("XObject"), dict)
        and "Font" not in resources
        and not (extra or {}).get("Type")
        and getattr(stream, "_tags", None) is None
        and hasattr(stream, "page_rectangle")
    )


def _page_inside(stream: Any) -> bool:
    """Whether the whole page (its bleed box: WeasyPrint's MediaBox), seen from the current transformation, falls
    inside a form's bounding box: only then does the box clip nothing that the page would show."""
    try:
        inverse = stream.ctm.invert
        left, top, width, height = stream.page_rectangle
        corners = [(x * _PT_PER_PX, y * _PT_PER_PX) for x in (left, left + width) for y in (top, top + height)]
        return all(abs(c) < BBOX for point in corners for c in inverse.transform_point(*point))
    except (ZeroDivisionError, TypeError, ValueError, AttributeError):
        return False


def _draw_form(image: Any, stream: Any, width: float, height: float) -> Any:
    """The form XObject of ``image`` drawn at ``width`` x ``height``, or None where it is not to be reused."""
    import pydyf

    resources = pydyf.Dictionary(
        {
            "ExtGState": pydyf.Dictionary(),
            "XObject": pydyf.Dictionary(),
            "Pattern": pydyf.Dictionary(),
            "Shading": pydyf.Dictionary(),
            "ColorSpace": stream._resources["ColorSpace"],
            "Font": None,  # filled in by WeasyPrint when it writes the PDF, as for its own groups
        }
    )
    extra = pydyf.Dictionary(
        {
            "Type": "/XObject",
            "Subtype": "/Form",
            "BBox": pydyf.Array((-BBOX, -BBOX, BBOX, BBOX)),
            "Resources": resources,
        }
    )
    form = stream.clone(resources=resources, extra=extra)
    try:
        image._svg.draw(form, width, height, image._base_url, image._context)
    except Exception:  # noqa: BLE001 (drawn again by WeasyPrint, which logs the error as it always does)
        return None
    if resources["Pattern"] or resources["Shading"] or any(v is None for v in resources["XObject"].values()):
        return None  # gradients, patterns and raster images are placed from the page's matrix
    if not resources["XObject"] and not any(_sets_font(item) for item in form.stream):
        del resources["Font"]  # no text: WeasyPrint would list every font of the PDF here
    return form


def _sets_font(item: Any) -> bool:
    """Whether a content stream's ``item`` (an operation as pydyf keeps it) sets a font (``Tf``)."""
    return isinstance(item, (bytes, str)) and (
        item.endswith(b" Tf") if isinstance(item, bytes) else item.endswith(" Tf")
    )


def stats() -> dict[str, int]:
    """How many forms were drawn, how many draws reused one, how many were drawn by WeasyPrint (this process)."""
    return dict(_stats)
