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

A process whose PDFs are only turned into pictures (``printer serve``'s render processes) also calls
:func:`pad_subsets`: a font's new subset then takes the glyphs of Latin text (:data:`PADDING`) too, so that the
next face, whose title has a letter none before had, still finds every glyph in the kept subset. A watch's save
lays its few faces out :func:`padded` too (:func:`printer.sheets.assemble.build_sheets`), so that a worker's next
save finds the glyphs its edit adds. A padded subset is kept apart from the others and serves padded documents
only: a build's batches are never given one (padding made a real card face's PDF 0.48 MB instead of 0.27 MB: its bold
Noto CJK subset, which drew no glyph near id 63,000, took the padding's Latin digits from there; a save's faces
carry it until a later build lays the edits' faces out again together, :func:`printer.sheets.output.cached.scattered`).
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

#: the most glyphs a kept subset grows to (Latin text, digits and symbols of a game's cards stay under it)
MOST_GLYPHS = 512
#: the largest subset kept, bytes (a Noto CJK subset is about 0.7 MB: its empty glyph slots up to the last id used)
MOST_BYTES = 4_000_000
#: the most fonts whose subsets are kept per process (the least recently used goes first)
MOST_FONTS = 24

#: the text whose glyphs a padded subset takes (:func:`pad_subsets`): printable ASCII, Latin-1, the common
#: typographic marks (quotes, dashes, ellipsis, bullet, minus) and the f-ligatures, in words
PADDING = (
    "".join(map(chr, [*range(0x20, 0x7F), *range(0xA0, 0x100)]))
    + "\u2018\u2019\u201c\u201d\u2013\u2014\u2026\u2022\u2212 fi fl ff ffi ffl ft fb fh fj fk"
)

#: (font, the padding's characters) -> (the glyph ids its kept subset holds, the subset's bytes)
_kept: OrderedDict[tuple[Any, ...], tuple[frozenset[int], bytes]] = OrderedDict()
#: the characters a new subset takes the glyphs of (:func:`pad_subsets`), those whose glyphs ``_padded`` holds, and
#: the glyph ids they map to, per font
_padding = {"characters": "", "shaped": ""}
_padded: dict[tuple[Any, ...], frozenset[int]] = {}


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
        font_key = _identity(self, hinting)
        if not to_unicode or font_key is None:
            subset(self, to_unicode, hinting)
            return
        padding = _padding["characters"]
        key = (*font_key, padding)  # a padded subset serves padded documents only
        glyphs = set(to_unicode)
        kept = _kept.get(key)
        if kept is not None and glyphs <= kept[0]:
            _kept.move_to_end(key)
            self.file_content = kept[1]
            return
        wanted = glyphs | kept[0] if kept is not None else glyphs
        if padding:
            if font_key not in _padded:
                _padded[font_key] = _shaped_glyphs(self.hb_face, padding)
            wanted |= _padded[font_key]
        if len(wanted) > MOST_GLYPHS:
            subset(self, to_unicode, hinting)
            return
        subset(self, dict.fromkeys(sorted(wanted), ""), hinting)
        content = self.file_content
        if isinstance(content, bytes) and len(content) <= MOST_BYTES:
            _kept[key] = (frozenset(wanted), content)
            _kept.move_to_end(key)
            while len(_kept) > MOST_FONTS:
                _padded.pop(_kept.popitem(last=False)[0][:-1], None)

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


def pad_subsets(characters: str = PADDING) -> None:
    """In this process, a font's new subset also takes the glyphs ``characters`` are drawn with (:func:`_shaped_glyphs`;
    ``""``: none, as :func:`reuse_subsets` alone does). For a process whose PDFs are thrown away once rasterised:
    each of its documents' fonts then holds a few hundred glyphs more than the document draws."""
    _padding["characters"] = characters
    if characters and characters != _padding.get("shaped"):
        _padded.clear()
        _padding["shaped"] = characters


@contextmanager
def padded(pad: bool = True) -> Iterator[None]:
    """Inside, with ``pad``, this process pads new subsets as after :func:`pad_subsets` (with the characters set
    before, else :data:`PADDING`); afterwards it pads as it did before. For the few faces of a watch's save: the
    next save's new letters are then found in the kept padded subsets."""
    before = _padding["characters"]
    if pad:
        pad_subsets(before or PADDING)
    try:
        yield
    finally:
        pad_subsets(before)


#: HarfBuzz's names on the platforms WeasyPrint runs on (as ``weasyprint.text.ffi`` looks for it)
HARFBUZZ = ("libharfbuzz-0", "harfbuzz", "harfbuzz-0.0", "libharfbuzz.so.0", "libharfbuzz.0.dylib", "libharfbuzz-0.dll")
_harfbuzz: list[Any] = []  # [(ffi, library)] once opened, [None] when it could not be


def _shaped_glyphs(face: Any, text: str) -> frozenset[int]:
    """The glyph ids of the HarfBuzz face ``face`` (a pointer of WeasyPrint's) that ``text`` is drawn with, shaped
    with HarfBuzz's default features as Latin text (the ligatures and the forms a font's ``locl`` gives Latin, as
    WeasyPrint's shaping picks them), and each character's own glyph; none when HarfBuzz cannot be called."""
    if not _harfbuzz:
        _harfbuzz.append(_open_harfbuzz())
    if _harfbuzz[0] is None:
        return frozenset()
    ffi, hb = _harfbuzz[0]
    from weasyprint.text.ffi import ffi as weasyprint_ffi

    font = hb.hb_font_create(ffi.cast("hb_face_t *", int(weasyprint_ffi.cast("uintptr_t", face))))
    buffer = hb.hb_buffer_create()
    try:
        glyph = ffi.new("hb_codepoint_t *")
        found = {glyph[0] for char in text if hb.hb_font_get_nominal_glyph(font, ord(char), glyph)}
        data = text.encode()
        hb.hb_buffer_add_utf8(buffer, data, len(data), 0, len(data))
        hb.hb_buffer_set_direction(buffer, 4)  # HB_DIRECTION_LTR
        hb.hb_buffer_set_script(buffer, hb.hb_script_from_string(b"Latn", 4))
        hb.hb_buffer_set_language(buffer, hb.hb_language_from_string(b"en", 2))
        hb.hb_shape(font, buffer, ffi.NULL, 0)
        count = ffi.new("unsigned int *")
        infos = hb.hb_buffer_get_glyph_infos(buffer, count)
        found.update(infos[i].codepoint for i in range(count[0]))
        found.discard(0)  # .notdef: no glyph for that character
        return frozenset(found)
    finally:
        hb.hb_buffer_destroy(buffer)
        hb.hb_font_destroy(font)


def _open_harfbuzz() -> tuple[Any, Any] | None:
    """A cffi interface of our own to the HarfBuzz calls :func:`_shaped_glyphs` makes (WeasyPrint's declares none
    of them); ``None`` when HarfBuzz is not found."""
    from cffi import FFI

    ffi = FFI()
    ffi.cdef(
        """
        typedef struct _hb_face_t hb_face_t;
        typedef struct _hb_font_t hb_font_t;
        typedef struct _hb_buffer_t hb_buffer_t;
        typedef const struct _hb_language_t *hb_language_t;
        typedef uint32_t hb_codepoint_t;
        typedef uint32_t hb_script_t;
        typedef int hb_bool_t;
        typedef struct { uint32_t codepoint; uint32_t mask; uint32_t cluster; uint32_t var1; uint32_t var2; }
            hb_glyph_info_t;
        hb_font_t * hb_font_create (hb_face_t *face);
        void hb_font_destroy (hb_font_t *font);
        hb_bool_t hb_font_get_nominal_glyph (hb_font_t *font, hb_codepoint_t unicode, hb_codepoint_t *glyph);
        hb_buffer_t * hb_buffer_create (void);
        void hb_buffer_destroy (hb_buffer_t *buffer);
        void hb_buffer_add_utf8 (hb_buffer_t *buffer, const char *text, int text_length, unsigned int item_offset,
                                 int item_length);
        void hb_buffer_set_direction (hb_buffer_t *buffer, int direction);
        hb_script_t hb_script_from_string (const char *str, int len);
        void hb_buffer_set_script (hb_buffer_t *buffer, hb_script_t script);
        hb_language_t hb_language_from_string (const char *str, int len);
        void hb_buffer_set_language (hb_buffer_t *buffer, hb_language_t language);
        void hb_shape (hb_font_t *font, hb_buffer_t *buffer, const void *features, unsigned int num_features);
        hb_glyph_info_t * hb_buffer_get_glyph_infos (hb_buffer_t *buffer, unsigned int *length);
        """
    )
    for name in HARFBUZZ:
        try:
            return ffi, ffi.dlopen(name)
        except OSError:
            continue
    return None
