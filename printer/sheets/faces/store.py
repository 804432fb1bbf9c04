"""Each distinct face's HTML, held compact while a build lays its faces out (:class:`FaceHtml`), and the digest
that tells one face's HTML from another's (:func:`html_digest`)."""

from __future__ import annotations

import hashlib
import zlib
from collections.abc import Iterator, MutableMapping
from typing import TYPE_CHECKING

from markupsafe import Markup

if TYPE_CHECKING:
    from printer.spill import Spill


class FaceHtml(MutableMapping[str, Markup]):
    """Each distinct face's HTML by face key (:attr:`FaceRegistry.html <printer.sheets.faces.registry.FaceRegistry.html>`), held as UTF-8 bytes, compressed past
    :attr:`RAW_BUDGET` and, once :meth:`set_aside` is called, kept in a spill file; reading one gives a new
    ``Markup``.

    Past the budget a face is kept deflated (zlib, raw deflate, level 1) with the first face stored as a preset
    dictionary: the faces of one game share most of their markup, so a card front of the bundled games (about
    2.3 KB as a Python string, 1.1 KB as UTF-8) takes about 0.4 KB (9,000 cards: about 5 MB instead of 10), and a
    handle in the spill file (:class:`printer.spill.Spill`) about 40 bytes. Deflating one takes about 25
    microseconds and inflating one 6: within the budget (a project of a few hundred cards, whose every build
    composes all its faces, an edit's too) faces are held as they are."""

    #: raw deflate (no header) with a 4 KB window: the window holds the dictionary's last 4 KB
    WBITS, LEVEL, MEMORY = -12, 1, 4
    #: bytes of faces held as they are before the next ones are deflated
    RAW_BUDGET = 2 * 1024 * 1024

    def __init__(self) -> None:
        # b"=" + the UTF-8 bytes, b"z" + them deflated, or the handle of them deflated in the spill file
        self._data: dict[str, bytes | int] = {}
        self._dictionary = b""
        self._raw = 0  # bytes held as they are
        self._spill: Spill | None = None
        self._spilling = False  # whether faces deflated from now on go to the spill file

    def set_aside(self, spill: Spill) -> None:
        """Keep every face held, deflated, and those deflated from now on, in ``spill`` (a job's first spill only:
        faces already set aside are read from it); the budget is free again for faces stored later (an edit's).
        When the spill cannot take more (a full disk), the rest stay in memory."""
        if self._spill is None:
            self._spill = spill
            self._spilling = True
        for key, held in self._data.items():
            if not self._spilling or not isinstance(held, bytes):
                continue
            data = held[1:]
            if held[:1] == b"=":  # as it is: deflated first
                self._raw -= len(data)
                data = self._deflate(data)
            self._data[key] = self._put_aside(data)

    def _put_aside(self, deflated: bytes) -> bytes | int:
        assert self._spill is not None
        try:
            return self._spill.put(deflated)
        except OSError:
            self._spilling = False
            return b"z" + deflated

    def __getitem__(self, key: str) -> Markup:
        held = self._data[key]
        if isinstance(held, int):
            assert self._spill is not None
            return self._inflate(self._spill.get(held))
        if held[:1] == b"z":
            return self._inflate(memoryview(held)[1:])
        return Markup(str(memoryview(held)[1:], "utf-8", "surrogatepass"))

    def _inflate(self, deflated: bytes | memoryview) -> Markup:
        unpack = zlib.decompressobj(self.WBITS, zdict=self._dictionary)
        return Markup((unpack.decompress(deflated) + unpack.flush()).decode("utf-8", "surrogatepass"))

    def __setitem__(self, key: str, html: str) -> None:
        if key in self._data:
            del self[key]
        data = str(html).encode("utf-8", "surrogatepass")
        if not self._dictionary:
            self._dictionary = data[-(1 << -self.WBITS) :] or b" "
        if self._raw + len(data) <= self.RAW_BUDGET:
            self._raw += len(data)
            self._data[key] = b"=" + data
            return
        deflated = self._deflate(data)
        self._data[key] = self._put_aside(deflated) if self._spilling else b"z" + deflated

    def _deflate(self, data: bytes) -> bytes:
        pack = zlib.compressobj(self.LEVEL, zlib.DEFLATED, self.WBITS, self.MEMORY, zdict=self._dictionary)
        return pack.compress(data) + pack.flush()

    def __delitem__(self, key: str) -> None:
        held = self._data.pop(key)
        if isinstance(held, bytes) and held[:1] == b"=":
            self._raw -= len(held) - 1

    def __contains__(self, key: object) -> bool:
        return key in self._data

    def __iter__(self) -> Iterator[str]:
        return iter(self._data)

    def __len__(self) -> int:
        return len(self._data)


def html_digest(html: str) -> bytes:
    """What tells one face's HTML from another's in :attr:`FaceRegistry.keys <printer.sheets.faces.registry.FaceRegistry.keys>`: a 16-byte BLAKE2b digest of it (the HTML
    itself as the key held a second copy of every face's, 19 MB for 9,000 cards)."""
    return hashlib.blake2b(html.encode("utf-8", "surrogatepass"), digest_size=16).digest()
