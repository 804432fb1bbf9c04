"""Bytes a build sets aside on disk while it does not need them: :class:`Spill`.

A large build holds, for every card, things it reads again only at the end or not at all: the card's data (pickled,
:meth:`printer.cards.record.Record.pack`) and its face's HTML (deflated, :class:`printer.sheets.faces.store.FaceHtml`).
Held in memory they grow with the number of cards (about 10 MB at 9,000 cards); set aside in a spill file they
take an integer each.
"""

from __future__ import annotations

import tempfile
import threading
from pathlib import Path

#: bytes gathered in memory before they are written to the file in one call
BUFFER = 256 * 1024
#: the bits of a handle that hold the length of what it names (the rest hold its offset in the file)
LENGTH_BITS = 32


class Spill:
    """An append-only temporary file in ``folder``: :meth:`put` stores bytes and gives a handle (an ``int``),
    :meth:`get` gives them back. Safe to use from several threads.

    The file has no name where the system allows it (Linux's ``O_TMPFILE``; elsewhere it is named and removed at
    once), so nothing is left behind, even by a killed process; it is closed when the last object holding the
    spill is freed. ``folder`` should be on disk: the system's temporary folder may be memory (tmpfs), which would
    defeat the purpose. Bytes are gathered in a buffer of :data:`BUFFER` bytes and written a buffer at a time, so
    that a handle names bytes either in the file or in the buffer. When a write fails (a full disk) the buffer is
    kept, every handle given stays readable, and :meth:`put` refuses more with ``OSError``: callers keep those
    bytes in memory instead. ``OSError`` is also raised when the file cannot be made or read.
    """

    def __init__(self, folder: Path | str | None = None) -> None:
        self._file = tempfile.TemporaryFile(dir=folder, prefix=".spill.")
        self._lock = threading.Lock()
        self._written = 0  # bytes in the file
        self._pending = bytearray()  # bytes put after those, not written yet
        self._failed: OSError | None = None  # why the file could not be written

    def put(self, data: bytes) -> int:
        """Store ``data`` (under 4 GiB); returns its handle for :meth:`get`."""
        if len(data) >> LENGTH_BITS:
            raise OSError(f"{len(data):,} bytes is too large to set aside")
        with self._lock:
            if self._failed is not None:
                raise OSError(f"the spill file cannot be written: {self._failed}")
            offset = self._written + len(self._pending)
            self._pending += data
            if len(self._pending) >= BUFFER:
                self._write()
        return offset << LENGTH_BITS | len(data)

    def get(self, handle: int) -> bytes:
        """The bytes :meth:`put` gave ``handle`` for."""
        offset, length = handle >> LENGTH_BITS, handle & ((1 << LENGTH_BITS) - 1)
        with self._lock:
            if offset >= self._written:
                start = offset - self._written
                return bytes(self._pending[start : start + length])
            self._file.seek(offset)
            data = self._file.read(length)
        if len(data) != length:
            raise OSError(f"the spill file lost {length - len(data)} bytes")
        return data

    @property
    def size(self) -> int:
        """Bytes stored so far."""
        return self._written + len(self._pending)

    def _write(self) -> None:
        """The buffer to the file, whole or not at all (so that no handle names bytes partly in each)."""
        try:
            self._file.seek(self._written)
            self._file.write(self._pending)
            self._file.flush()
        except OSError as exc:
            self._failed = exc  # the buffer stays: its handles are read from it
            return
        self._written += len(self._pending)
        self._pending = bytearray()

    def close(self) -> None:
        """Remove the file (also done when the spill is freed); handles must not be read afterwards."""
        self._file.close()
