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

:func:`open_arrays` spares cffi parsing a new C type name for every font subset WeasyPrint writes.
"""

from __future__ import annotations

import contextlib
import io
import re
import sys


def import_weasyprint() -> None:
    """Import ``weasyprint`` (and its native libraries) once, as quickly as the platform allows.

    Only on Linux is ``find_library`` bypassed; elsewhere, and when a library is not found under its file name,
    WeasyPrint is imported as usual (its own error message then says what is missing). Raises what
    ``import weasyprint`` raises.
    """
    if "weasyprint.text.ffi" in sys.modules or not sys.platform.startswith("linux"):
        import weasyprint  # noqa: F401

        return
    import ctypes.util

    original = ctypes.util.find_library
    ctypes.util.find_library = _not_found
    try:
        with contextlib.redirect_stdout(io.StringIO()):  # WeasyPrint prints a help text before it fails
            import weasyprint  # noqa: F401
    except (OSError, ImportError):
        for name in [m for m in sys.modules if m == "weasyprint" or m.startswith("weasyprint.")]:
            del sys.modules[name]
    else:
        return
    finally:
        ctypes.util.find_library = original
    import weasyprint  # noqa: F401,F811


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

    def __init__(self, ffi) -> None:
        self._ffi = ffi

    def __getattr__(self, name: str):
        return getattr(self._ffi, name)

    def new(self, cdecl, init=None):
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
