"""Font subsets made once per process and reused by the next documents that need no other glyph.

WeasyPrint subsets each font a document draws with when it writes that document's PDF: HarfBuzz makes a copy of the
font holding the glyphs the document uses, at their own glyph ids (the ids its pages' text is written with). For a
large font whose used glyphs include a high id, this is the most expensive step of a small document: the Noto CJK
fonts draw Latin digits and ``fi`` from glyph ids near 63,000, and each subset of such a font, for a card set in
it, took 47-63 ms (measured on WeasyPrint 70 with HarfBuzz's subsetter), for a document of one card face
about half of its PDF's time. A watch's save and each picture ``printer serve`` renders is such a document, made
by a process that has drawn faces before.

:func:`reuse_subsets` keeps, per font and process, the last subset made and the glyphs it holds. A document whose
glyphs of that font are all among them gets that subset as it is; another gets a subset of its glyphs and the kept
ones together, which is kept instead, until a font's kept subset would hold over :data:`MOST_GLYPHS` glyphs (text
in CJK scripts: every card has other characters), when a document gets a subset of its own glyphs, as before.
Glyph ids are kept in every subset, so a glyph draws the same from any subset holding it: the pages are the same,
and a document's font may hold a few glyphs it does not draw.
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Any

#: the most glyphs a kept subset grows to (Latin text, digits and symbols of a game's cards stay under it)
MOST_GLYPHS = 512
#: the largest subset kept, bytes (a Noto CJK subset is about 0.7 MB: its empty glyph slots up to the last id used)
MOST_BYTES = 4_000_000
#: the most fonts whose subsets are kept per process (the least recently used goes first)
MOST_FONTS = 24

#: font -> (the glyph ids its kept subset holds, the subset's bytes)
_kept: OrderedDict[tuple[Any, ...], tuple[frozenset[int], bytes]] = OrderedDict()


def reuse_subsets() -> None:
    """Make WeasyPrint reuse a font's subset across the documents of this process (once; nothing with a WeasyPrint
    other than 70.x, or whose ``weasyprint.pdf.fonts.Font`` has no ``subset`` as in 70). Call after
    :func:`printer.sheets.libraries.import_weasyprint`."""
    import weasyprint
    import weasyprint.pdf.fonts as fonts

    if not str(getattr(weasyprint, "__version__", "")).startswith("70."):
        return  # checked against WeasyPrint 70's Font only
    font = getattr(fonts, "Font", None)
    subset = getattr(font, "subset", None)
    if font is None or subset is None or getattr(subset, "_printer_reuse", False):
        return

    def reused(self: Any, to_unicode: Any, hinting: Any) -> None:
        key = _identity(self, hinting)
        if not to_unicode or key is None:
            subset(self, to_unicode, hinting)
            return
        glyphs = set(to_unicode)
        kept = _kept.get(key)
        if kept is not None and glyphs <= kept[0]:
            _kept.move_to_end(key)
            self.file_content = kept[1]
            return
        wanted = glyphs | kept[0] if kept is not None else glyphs
        if len(wanted) > MOST_GLYPHS:
            subset(self, to_unicode, hinting)
            return
        subset(self, dict.fromkeys(sorted(wanted), ""), hinting)
        content = self.file_content
        if isinstance(content, bytes) and len(content) <= MOST_BYTES:
            _kept[key] = (frozenset(wanted), content)
            _kept.move_to_end(key)
            while len(_kept) > MOST_FONTS:
                _kept.popitem(last=False)

    reused._printer_reuse = True  # type: ignore[attr-defined]  # a mark on a function object
    font.subset = reused


def _identity(font: Any, hinting: Any) -> tuple[Any, ...] | None:
    """What tells ``font``'s subsets apart in this process: its HarfBuzz face (Pango keeps a process's faces), its
    file's length, glyph count and index, and what the subset is made with (hinting, a missing glyph's outline);
    ``None`` for a font whose subset is not reused (colour and bitmap glyphs: WeasyPrint rewrites those fonts)."""
    if font.png or font.svg or font.colr or font.bitmap:
        return None
    from weasyprint.text.ffi import harfbuzz

    blob = harfbuzz.hb_face_reference_blob(font.hb_face)
    try:
        length = harfbuzz.hb_blob_get_length(blob)
    finally:
        harfbuzz.hb_blob_destroy(blob)
    # the face's pointer (a cdata pointer hashes and compares by its address; no new C type parsed for a cast)
    return (font.hb_face, length, font.glyph_count, font.index, font.family, bool(hinting), bool(font.missing))
