"""Read a PDF's pages with pikepdf into the facts the vendor checks look at, each with its page and object.

:func:`read_facts` parses every page's content stream (and each form XObject
it draws, at most :data:`MAX_DEPTH` deep) once, following the graphics state
(``q``/``Q``/``cm``) so that each image is known with its size on the page,
and the colour space in force so that each colour is known as RGB, CMYK or
grey. Objects are named as the PDF names them: ``image /Im3 (obj 12)``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from math import hypot
from typing import Any

import pikepdf

#: how deep form XObjects may nest before the rest is skipped (a loop or a hostile file)
MAX_DEPTH = 12
#: content-stream operators read per document at most (a hostile file cannot keep the check busy)
MAX_OPERATORS = 5_000_000

_SPACES = {
    "/DeviceRGB": "rgb",
    "/RGB": "rgb",
    "/CalRGB": "rgb",
    "/DeviceCMYK": "cmyk",
    "/CMYK": "cmyk",
    "/DeviceGray": "gray",
    "/G": "gray",
    "/CalGray": "gray",
    "/Lab": "lab",
    "/Pattern": "pattern",
}
_ICC_N = {1: "gray", 3: "rgb", 4: "cmyk"}
_FILL_OPS = {"rg": "rgb", "RG": "rgb", "k": "cmyk", "K": "cmyk", "g": "gray", "G": "gray"}
#: the operators that set a colour space (``cs``, ``CS``) or a colour in it
_SPACE_OPS = ("cs", "CS", "sc", "scn", "SC", "SCN")


@dataclass
class Colour:
    page: int
    where: str
    space: str
    values: tuple[float, ...]


@dataclass
class PlacedImage:
    """An image drawn on ``page``: ``image`` (a stream or inline image), its size on the page in pt."""

    page: int
    where: str
    image: pikepdf.Object | pikepdf.PdfInlineImage
    width_pt: float
    height_pt: float


@dataclass
class Facts:
    """What :func:`read_facts` found, every item with its 1-based page number and its object."""

    colours: list[Colour] = field(default_factory=list)
    images: list[PlacedImage] = field(default_factory=list)
    #: (page, where, colour space) of transparency groups, shadings, colour spaces selected
    spaces: list[tuple[int, str, str]] = field(default_factory=list)
    #: (page, where, what) for each use of transparency
    transparency: list[tuple[int, str, str]] = field(default_factory=list)
    #: (page, where, font dictionary)
    fonts: list[tuple[int, str, pikepdf.Object]] = field(default_factory=list)
    skipped: list[tuple[int, str, str]] = field(default_factory=list)


def name_of(obj: object, label: str, kind: str) -> str:
    """``image /Im3 (obj 12)``: ``kind``, the resource name and the object number when it has one."""
    number = getattr(obj, "objgen", (0, 0))[0]
    return f"{kind} {label}" + (f" (obj {number})" if number else "")


def space_of(cs: object, resources: pikepdf.Object | None = None) -> str:
    """``rgb``, ``cmyk``, ``gray``, ``lab``, ``indexed-rgb``..., ``separation``, ``pattern`` or ``other``."""
    if isinstance(cs, pikepdf.Name) and resources is not None and str(cs) not in _SPACES:
        named = resources.get("/ColorSpace")
        if isinstance(named, pikepdf.Dictionary) and str(cs) in named:
            return space_of(named[str(cs)])
    if isinstance(cs, pikepdf.Name):
        return _SPACES.get(str(cs), "other")
    if isinstance(cs, pikepdf.Array) and len(cs):
        family = str(cs[0])
        if family == "/ICCBased":
            return _ICC_N.get(int(cs[1].get("/N", 0)), "other")
        if family in ("/Indexed", "/I"):
            return "indexed-" + space_of(cs[1], resources)
        if family in ("/Separation", "/DeviceN"):
            return "separation"
        if family == "/Pattern":
            return "pattern"
        return _SPACES.get(family, "other")
    return "other"


def _multiply(m: list[float], n: list[float]) -> list[float]:
    a, b, c, d, e, f = m
    A, B, C, D, E, F = n
    return [a * A + b * C, a * B + b * D, c * A + d * C, c * B + d * D, e * A + f * C + E, e * B + f * D + F]


class _Reader:
    def __init__(self, facts: Facts):
        self.facts = facts
        self.budget = MAX_OPERATORS

    def group(self, page: int, where: str, obj: pikepdf.Object, resources: pikepdf.Object | None) -> None:
        group = obj.get("/Group")
        if isinstance(group, pikepdf.Dictionary) and group.get("/S") == "/Transparency":
            self.facts.transparency.append((page, where, "a transparency group"))
            if "/CS" in group:
                self.facts.spaces.append((page, where + " transparency group", space_of(group.CS, resources)))

    def state(self, page: int, where: str, gs: pikepdf.Object) -> None:
        for key, what in (("/ca", "fill opacity"), ("/CA", "stroke opacity")):
            if key in gs and float(gs[key]) < 1:
                self.facts.transparency.append((page, where, f"{what} {float(gs[key]):g}"))
        mask = gs.get("/SMask")
        if mask is not None and mask != pikepdf.Name("/None"):
            self.facts.transparency.append((page, where, "a soft mask"))
            if isinstance(mask, pikepdf.Dictionary) and "/G" in mask:
                self.group(page, where + " soft mask", mask.G, None)
        blend = gs.get("/BM")
        if blend is not None:
            names = [str(b) for b in blend] if isinstance(blend, pikepdf.Array) else [str(blend)]
            if any(n not in ("/Normal", "/Compatible") for n in names):
                self.facts.transparency.append((page, where, f"blend mode {names[0][1:]}"))

    def image(
        self,
        page: int,
        where: str,
        image: pikepdf.Object | pikepdf.PdfInlineImage,
        ctm: list[float],
        resources: pikepdf.Object | None,
    ) -> None:
        a, b, c, d = ctm[:4]
        self.facts.images.append(PlacedImage(page, where, image, hypot(a, b), hypot(c, d)))
        if isinstance(image, pikepdf.PdfInlineImage):
            cs = image.obj.get("/CS", image.obj.get("/ColorSpace"))
            mask = False
        else:
            cs = image.get("/ColorSpace")
            mask = "/SMask" in image or int(image.get("/SMaskInData", 0)) > 0
        if mask:
            self.facts.transparency.append((page, where, "an image with a soft mask (alpha)"))
        stencil = image.obj.get("/IM", False) if isinstance(image, pikepdf.PdfInlineImage) else image.get("/ImageMask")
        if cs is not None and not bool(stencil):
            self.facts.spaces.append((page, where, space_of(cs, resources)))

    def content(
        self, page: int, where: str, obj: pikepdf.Object, resources: pikepdf.Object | None, ctm: list[float], depth: int
    ) -> None:
        if depth > MAX_DEPTH:
            self.facts.skipped.append((page, where, f"forms nested deeper than {MAX_DEPTH}"))
            return
        resources = resources if resources is not None else pikepdf.Dictionary()
        for _name, font in (resources.get("/Font") or {}).items():
            self.facts.fonts.append((page, name_of(font, _name, "font"), font))
        try:
            operations = pikepdf.parse_content_stream(obj)
        except pikepdf.PdfError as exc:
            self.facts.skipped.append((page, where, f"unreadable content: {exc}"))
            return
        stack: list[list[float]] = []
        fill = stroke = "gray"
        for instruction in operations:
            operands, operator = instruction.operands, instruction.operator
            self.budget -= 1
            if self.budget < 0:
                self.facts.skipped.append((page, where, f"more than {MAX_OPERATORS} operators"))
                return
            op = str(operator)
            if op in _FILL_OPS or op in _SPACE_OPS:
                fill, stroke = self.colour(page, where, op, operands, resources, (fill, stroke))
            elif op == "q":
                stack.append(ctm)
            elif op == "Q":
                ctm = stack.pop() if stack else ctm
            elif op == "cm":
                ctm = _multiply([float(v) for v in operands], ctm)
            elif op in ("gs", "sh"):
                self.resource(page, op, str(operands[0]), resources)
            elif op == "INLINE IMAGE":
                self.image(page, f"{where} inline image", operands[0], ctm, resources)
            elif op == "Do":
                self.draw(page, str(operands[0]), resources, ctm, depth)

    def colour(
        self,
        page: int,
        where: str,
        op: str,
        operands: Any,  # the operator's operands, as pikepdf parses them
        resources: pikepdf.Object,
        spaces: tuple[str, str],
    ) -> tuple[str, str]:
        """Note the colour a colour operator sets; returns the ``(fill, stroke)`` colour spaces after it."""
        fill, stroke = spaces
        if op in _FILL_OPS:
            self.facts.colours.append(Colour(page, where, _FILL_OPS[op], tuple(float(v) for v in operands)))
        elif op in ("cs", "CS"):
            space = space_of(operands[0], resources)
            fill, stroke = (space, stroke) if op == "cs" else (fill, space)
            self.facts.spaces.append((page, where + f" colour space {operands[0]}", space))
        else:  # sc, scn, SC, SCN
            space = fill if op.islower() else stroke
            values = tuple(float(v) for v in operands if not isinstance(v, pikepdf.Object))
            self.facts.colours.append(Colour(page, where, space, values))
        return fill, stroke

    def resource(self, page: int, op: str, label: str, resources: pikepdf.Object) -> None:
        """Read the graphics state (``gs``) or the shading's colour space (``sh``) named ``label``."""
        if op == "gs":
            states: pikepdf.Object | dict[str, pikepdf.Object] = resources.get("/ExtGState") or {}
            gs = states.get(label)
            if gs is not None:
                self.state(page, name_of(gs, label, "graphics state"), gs)
        else:
            shadings: pikepdf.Object | dict[str, pikepdf.Object] = resources.get("/Shading") or {}
            shading = shadings.get(label)
            if shading is not None and "/ColorSpace" in shading:
                self.facts.spaces.append(
                    (page, name_of(shading, label, "shading"), space_of(shading.ColorSpace, resources))
                )

    def draw(self, page: int, label: str, resources: pikepdf.Object, ctm: list[float], depth: int) -> None:
        xobjects: pikepdf.Object | dict[str, pikepdf.Object] = resources.get("/XObject") or {}
        xobject = xobjects.get(label)
        if xobject is None:
            return
        subtype = xobject.get("/Subtype")
        if subtype == "/Image":
            where = name_of(xobject, label, "image")
            self.image(page, where, xobject, ctm, resources)
        elif subtype == "/Form":
            where = name_of(xobject, label, "form")
            self.group(page, where, xobject, resources)
            matrix = [float(v) for v in xobject.get("/Matrix", [1, 0, 0, 1, 0, 0])]
            self.content(page, where, xobject, xobject.get("/Resources", resources), _multiply(matrix, ctm), depth + 1)


def read_facts(pdf: pikepdf.Pdf) -> Facts:
    """Every colour, image, transparency use, colour space and font of ``pdf``'s pages, located."""
    facts = Facts()
    reader = _Reader(facts)
    for number, page in enumerate(pdf.pages, 1):
        reader.group(number, "page", page.obj, page.obj.get("/Resources"))
        for _name, annotation in enumerate(page.obj.get("/Annots") or []):
            if annotation.get("/Subtype") not in ("/Link", "/Popup") and "/AP" in annotation:
                facts.skipped.append((number, "annotation", "annotation appearances are not checked"))
        reader.content(number, "page content", page.obj, page.obj.get("/Resources"), [1, 0, 0, 1, 0, 0], 0)
    return facts
