"""Compiled templates kept for the process and in the user's cache folder (:class:`Compiled`).

Compiling a card template takes longer than rendering it hundreds of times: a game's card front, its back and the
sheet template take about 0.1 s of CPU to compile and 3 ms to load compiled, and every
``printer`` command and every build worker compiled them again. Jinja2 compiles a template again when its source
changed (the source's checksum is kept with the code), so a template edit is never missed.

Where the code is kept: in memory for the process, and in ``$XDG_CACHE_HOME/printer/jinja/<tag>/``
(:func:`printer.paths.user_cache_folder`), one file a template file. Never in a project's folder: compiled code is
run as it is loaded, so it is read only from a folder of the user's own, made by printer with mode 0700 and
refused when another user owns it or others may write to it. ``<tag>`` is a digest of what the compiled code
depends on besides the template (printer's code generator and size checks, :mod:`printer.sheets.sandbox` and
:mod:`printer.sheets.sizes`; the versions of printer, Jinja2 and Python; the environment's options), so that an
upgrade never runs code another version compiled. A file that cannot be read, written or loaded is ignored: the
template is compiled, as without this cache.
"""

from __future__ import annotations

import hashlib
import os
import stat
import sys
from collections.abc import Callable
from pathlib import Path

import jinja2
import jinja2.bccache

from printer.paths import private_folder, user_cache_folder

#: templates kept in memory at most (the least recently stored go first)
LIMIT = 512
#: the largest compiled template read from the cache folder, bytes
MAX_FILE = 8 * 1024 * 1024


def code_tag(options: str, code: tuple[str, ...]) -> str:
    """A digest of what compiled code depends on besides the template's source (module docstring): ``options``
    names the environment's options, ``code`` the files of the code generator and its checks; empty when one of
    them cannot be read."""
    from printer import __version__

    digest = hashlib.sha256(f"{__version__}\0{jinja2.__version__}\0{sys.version}\0{options}".encode())
    for file in code:
        try:
            digest.update(Path(file).read_bytes())
        except OSError:
            return ""
    return digest.hexdigest()[:16]


def user_folder(options: str, code: tuple[str, ...]) -> Path | None:
    """``$XDG_CACHE_HOME/printer/jinja/<tag>`` for an environment with ``options`` whose code generator is in the
    files ``code`` (module docstring)."""
    tag = code_tag(options, code)
    return user_cache_folder("jinja") / tag if tag else None


class Compiled(jinja2.BytecodeCache):
    """Templates compiled once: kept in memory for the process and in the folder ``where()`` gives when first
    needed (module docstring), if :func:`private_folder` accepts it; ``where`` ``None`` keeps them in memory only."""

    def __init__(self, where: Callable[[], Path | None] | None = None) -> None:
        self._store: dict[str, bytes] = {}
        self.where = where
        self.folder: Path | None = None
        self._checked = False

    def _disk(self) -> Path | None:
        if not self._checked:
            self._checked = True
            found = self.where() if self.where is not None else None
            self.folder = private_folder(found) if found is not None else None
        return self.folder

    def load_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        data = self._store.get(bucket.key)
        folder = self._disk() if data is None else None
        if folder is not None:
            data = _read(folder / f"{bucket.key}.jbc")
            if data is not None:
                self._keep(bucket.key, data)
        if data is None:
            return
        try:
            bucket.bytecode_from_string(data)
        except Exception:  # noqa: BLE001 (a damaged file: the template is compiled again and the file replaced)
            bucket.reset()

    def dump_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        data = bucket.bytecode_to_string()
        self._keep(bucket.key, data)
        folder = self._disk()
        if folder is not None:
            from printer.fsutil import atomic_write_bytes

            try:
                atomic_write_bytes(folder / f"{bucket.key}.jbc", data)
            except OSError:
                pass

    def _keep(self, key: str, data: bytes) -> None:
        self._store.pop(key, None)
        if len(self._store) >= LIMIT:
            self._store.pop(next(iter(self._store)))
        self._store[key] = data


def _read(path: Path) -> bytes | None:
    """The bytes of the regular file ``path`` (not a link) up to :data:`MAX_FILE`, else ``None``."""
    try:
        found = os.lstat(path)
        if not stat.S_ISREG(found.st_mode) or found.st_size > MAX_FILE:
            return None
        return path.read_bytes()
    except OSError:
        return None
