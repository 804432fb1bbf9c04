"""WeasyPrint's native libraries loaded by their file names, without ``ctypes.util.find_library``.

WeasyPrint (``weasyprint.text.ffi``) loads GObject, Pango, HarfBuzz, Fontconfig and PangoFT2 through cffi, trying
several names for each (``libgobject-2.0-0``, ``gobject-2.0-0``, ``gobject-2.0``, ``libgobject-2.0.so.0``, ...).
For every name that is not a file the dynamic loader finds, cffi asks ``ctypes.util.find_library``, which on Linux
runs ``ldconfig -p`` and then, when that fails, ``gcc`` and ``ld`` to link a test program: measured on Debian 12
with gcc installed, 215 programs started and 0.2-0.3 s of the 0.65-0.75 s that ``import weasyprint`` takes, in
the main process and again in every worker process. The names WeasyPrint ends with (``libgobject-2.0.so.0`` on
Linux) are the libraries' file names, which the dynamic loader finds by itself (``LD_LIBRARY_PATH``, its cache,
the system folders), so :func:`import_weasyprint` imports WeasyPrint with ``find_library`` answering "not found"
at once, and falls back to the ordinary import when that does not load the libraries.

While it imports, WeasyPrint 70 also imports ``fontTools.subset`` and ``fontTools.varLib.instancer`` (0.15-0.2 s of
the import), which it uses only to subset a font without HarfBuzz and to set a variable font's axes:
:func:`import_weasyprint` lets them be imported when first used (:class:`_Later`).

:func:`parse_c_types` has cffi parse ahead the C types a face's text asks for.
:func:`open_arrays` spares cffi parsing a new C type name for every font subset WeasyPrint writes.
:func:`lazy_font_files` spares a copy of each whole font file for every document WeasyPrint writes.
:func:`weasyprint_identity` names the installed WeasyPrint without importing it.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import importlib.util
import io
import re
import sys
import threading
import types
from collections.abc import Iterator
from typing import Any


def import_weasyprint() -> None:
    """Import ``weasyprint`` (and its native libraries) once, as quickly as the platform allows.

    Only on Linux is ``find_library`` bypassed; elsewhere, and when a library is not found under its file name,
    WeasyPrint is imported as usual (its own error message then says what is missing). On every platform the
    fontTools modules of :data:`_LATER` are imported when WeasyPrint first uses them, not while it is imported.
    Raises what ``import weasyprint`` raises.
    """
    if "weasyprint.text.ffi" in sys.modules:
        return
    with _fonttools_later():
        if not sys.platform.startswith("linux"):
            import weasyprint  # noqa: F401

            return
        import ctypes.util

        original = ctypes.util.find_library
        ctypes.util.find_library = _not_found
        # WeasyPrint prints a help text before it fails: hidden, but only from the main thread (sys.stdout is the
        # process's: a thread that swapped it and put back what it found could undo another thread's swap made
        # meanwhile, such as a test's output capture)
        quiet = threading.current_thread() is threading.main_thread()
        try:
            with contextlib.redirect_stdout(io.StringIO()) if quiet else contextlib.nullcontext():
                import weasyprint  # noqa: F401
        except (OSError, ImportError):
            for name in [m for m in sys.modules if m == "weasyprint" or m.startswith("weasyprint.")]:
                del sys.modules[name]
        else:
            return
        finally:
            ctypes.util.find_library = original
        import weasyprint  # noqa: F401,F811


#: modules WeasyPrint 70 imports at once and uses rarely, each with the names it takes from it by ``from ... import``:
#: ``fontTools.subset`` subsets a font when HarfBuzz cannot, ``fontTools.varLib.instancer`` (with the 0.12 s of
#: ``fontTools.varLib``) sets a variable font's axes
_LATER: dict[str, tuple[str, ...]] = {
    "fontTools.subset": (),
    "fontTools.varLib.instancer": ("instantiateVariableFont",),
}


class _Later(types.ModuleType):
    """Stands for the module of its name while WeasyPrint is imported: the real module is imported when one of its
    attributes is first asked for, and each function of ``names`` is one that imports it when first called."""

    def __init__(self, name: str, names: tuple[str, ...]) -> None:
        super().__init__(name)
        for attribute in names:
            setattr(self, attribute, _calling_later(name, attribute))

    def __getattr__(self, attribute: str) -> Any:
        if attribute.startswith("__"):
            raise AttributeError(attribute)
        return getattr(_real_module(self.__name__), attribute)


def _real_module(name: str) -> types.ModuleType:
    """The module ``name``, imported now (a :class:`_Later` standing for it taken out of ``sys.modules`` first)."""
    if isinstance(sys.modules.get(name), _Later):
        del sys.modules[name]
    return importlib.import_module(name)


def _calling_later(module: str, name: str) -> Any:
    """A function that imports ``module`` when it is called and calls its ``name`` with its arguments."""

    def call(*args: Any, **kwargs: Any) -> Any:
        return getattr(_real_module(module), name)(*args, **kwargs)

    call.__name__ = call.__qualname__ = name
    return call


@contextlib.contextmanager
def _fonttools_later() -> Iterator[None]:
    """For the time of WeasyPrint's import: each module of :data:`_LATER` not imported yet stands in
    ``sys.modules`` as a :class:`_Later`; afterwards ``sys.modules`` holds none of them, so the next import of one
    imports the real module."""
    stand_ins = {name: _Later(name, names) for name, names in _LATER.items() if name not in sys.modules}
    sys.modules.update(stand_ins)
    try:
        yield
    finally:
        for name, stand_in in stand_ins.items():
            if sys.modules.get(name) is stand_in:
                del sys.modules[name]


def _not_found(name: str) -> None:
    """``ctypes.util.find_library`` for the time of the import: every name not found, without starting programs."""
    return None


#: a cffi array type of a fixed length, ``hb_codepoint_t[1234]``
_SIZED_ARRAY = re.compile(r"([A-Za-z_][A-Za-z0-9_ ]*)\[(\d+)\]")


class _OpenArrays:
    """A cffi ``FFI`` whose ``new("T[N]", items)`` (N the number of items) is ``new("T[]", items)``.

    WeasyPrint's font subsetting (``weasyprint.pdf.fonts``) asks cffi for ``hb_codepoint_t[N]``, N the number of
    glyphs a font subset keeps, and cffi parses each new type name with pycparser (about 6 ms; a one-card edit
    writes 4-6 font subsets, each with new lengths). ``T[]`` filled with the same items is the same array, and its
    type is parsed once per process. Everything else goes to the ``FFI`` unchanged.
    """

    def __init__(self, ffi: Any) -> None:
        self._ffi = ffi

    def __getattr__(self, name: str) -> Any:
        return getattr(self._ffi, name)

    def new(self, cdecl: Any, init: Any = None) -> Any:
        sized = _SIZED_ARRAY.fullmatch(cdecl) if isinstance(cdecl, str) else None
        if sized and isinstance(init, (list, tuple)) and len(init) == int(sized.group(2)):
            return self._ffi.new(sized.group(1).rstrip() + "[]", init)
        return self._ffi.new(cdecl, init)


def open_arrays() -> None:
    """Give WeasyPrint's font subsetting an :class:`_OpenArrays` (once; nothing when WeasyPrint has no
    ``weasyprint.pdf.fonts.ffi``). Call after :func:`import_weasyprint`."""
    import weasyprint.pdf.fonts as fonts

    ffi = getattr(fonts, "ffi", None)
    if ffi is not None and not isinstance(ffi, _OpenArrays):
        fonts.ffi = _OpenArrays(ffi)


#: the C types WeasyPrint 70 asks cffi for while it lays out, draws and subsets a face's text (measured on a card
#: face), each parsed on its first use in a process: about 14 ms each, the source cffi parses declaring every
#: type name WeasyPrint's libraries define
FACE_C_TYPES = ("PangoFcFontMap *", "char[]", "PangoRectangle *", "PangoLogAttr[]", "unsigned int *",
                "hb_tag_t[100]", "char[4]", "hb_codepoint_t[]")  # fmt: skip


def parse_c_types(names: tuple[str, ...] = FACE_C_TYPES) -> None:
    """Have cffi parse the C types ``names`` of WeasyPrint's libraries now, before the first face needs them
    (a name WeasyPrint's declarations do not define is skipped). Call after :func:`import_weasyprint`."""
    from weasyprint.text.ffi import ffi

    for name in names:
        with contextlib.suppress(Exception):
            ffi.typeof(name)


@functools.cache
def weasyprint_identity() -> str:
    """The installed WeasyPrint, named without importing it (an import takes 0.4 s, and a rebuild whose faces all
    come from the cache lays nothing out): the SHA-256 of its package's ``__init__.py``, which holds its
    ``__version__``. Raises :class:`ImportError` when WeasyPrint is not installed."""
    spec = importlib.util.find_spec("weasyprint")
    if spec is None or spec.origin is None:
        raise ImportError("WeasyPrint is not installed")
    with open(spec.origin, "rb") as module:
        return hashlib.sha256(module.read()).hexdigest()


class _Deferred:
    """What ``Font.__init__`` gets for its font's whole file while :func:`lazy_font_files` puts the copy off."""


_deferring = threading.local()


def lazy_font_files() -> None:
    """Make WeasyPrint read a font's whole file only when it needs it (once; nothing with a WeasyPrint other than
    70.x, or whose ``weasyprint.pdf.fonts`` has no ``Font`` and ``get_hb_object_data`` as in 70).

    ``Font.__init__`` copies the whole font file out of its HarfBuzz face into a Python ``bytes`` for every font a
    document draws with (every family, weight and style: a template drawing with eight Noto CJK faces copies a
    collection of 16-20 MB eight times), and with HarfBuzz subsetting, which works on the face itself, that copy
    is replaced by the subset unread. Measured on batches of 451 real card faces in CJK fonts: a worker's peak
    301-314 MiB before, 137-141 MiB after, the PDF the same (pages at 50 dpi, ``pdftotext -bbox``, size). The
    copy is now made by the first read of
    ``file_content`` (a font that is not subset, or whose type is asked first, reads its whole file then, as
    before). Call after :func:`import_weasyprint`.
    """
    import weasyprint
    import weasyprint.pdf.fonts as fonts

    if not str(getattr(weasyprint, "__version__", "")).startswith("70."):
        return  # checked against WeasyPrint 70's Font only: another one keeps its own way
    font, read = getattr(fonts, "Font", None), getattr(fonts, "get_hb_object_data", None)
    if font is None or read is None or getattr(read, "_printer_lazy", False) or "file_content" in vars(font):
        return
    init = font.__init__

    def get_hb_object_data(hb_object: Any, *args: Any, **kwargs: Any) -> Any:
        if getattr(_deferring, "on", False) and not args and not kwargs:
            return _Deferred()
        return read(hb_object, *args, **kwargs)

    def __init__(self: Any, *args: Any, **kwargs: Any) -> None:  # noqa: N807
        _deferring.on = True
        try:
            init(self, *args, **kwargs)
        finally:
            _deferring.on = False

    def file_content(self: Any) -> Any:
        value = self.__dict__.get("_printer_file_content")
        if isinstance(value, _Deferred) or value is None:
            value = self.__dict__["_printer_file_content"] = read(self.hb_face)
        return value

    def set_file_content(self: Any, value: Any) -> None:
        self.__dict__["_printer_file_content"] = value

    get_hb_object_data._printer_lazy = True  # type: ignore[attr-defined]  # a mark on a function object
    fonts.get_hb_object_data = get_hb_object_data
    font.__init__ = __init__
    font.file_content = property(file_content, set_file_content)
