"""Bytes a build sets aside on disk while it does not need them: :class:`Spill`.

A large build holds, for every card, things it reads again only at the end or not at all: the card's data (pickled,
:meth:`printer.cards.record.Record.pack`) and its face's HTML (deflated, :class:`printer.sheets.compose.FaceHtml`).
Held in memory they grow with the number of cards (about 10 MB at 9,000 cards); set aside in a spill file they
take an integer each.
"""

from __future__ import annotations

import os
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
    defeat the purpose. Raises ``OSError`` when the file cannot be made, written or read (a full disk); callers that
    can keep the bytes in memory instead catch it.
    """

    def __init__(self, folder: Path | str | None = None) -> None:
        self._file = tempfile.TemporaryFile(dir=folder, prefix=".spill.")
        self._lock = threading.Lock()
        self._written = 0  # bytes in the file
        self._pending = bytearray()  # bytes put after those, not written yet

    def put(self, data: bytes) -> int:
        """Store ``data`` (under 4 GiB); returns its handle for :meth:`get`."""
        if len(data) >> LENGTH_BITS:
            raise OSError(f"{len(data):,} bytes is too large to set aside")
        with self._lock:
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
            data = os.pread(self._file.fileno(), length, offset)
        if len(data) != length:
            raise OSError(f"the spill file lost {length - len(data)} bytes")
        return data

    @property
    def size(self) -> int:
        """Bytes stored so far."""
        return self._written + len(self._pending)

    def _write(self) -> None:
        data, done = bytes(self._pending), 0  # a copy: the buffer is resized below, whatever pwrite kept of it
        try:
            while done < len(data):
                done += os.pwrite(self._file.fileno(), data[done:] if done else data, self._written + done)
        finally:  # what was written leaves the buffer, even when the disk is full part way
            self._written += done
            del self._pending[:done]

    def close(self) -> None:
        """Remove the file (also done when the spill is freed); handles must not be read afterwards."""
        self._file.close()
