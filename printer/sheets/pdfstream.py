"""A PDF written object by object as it is made, with objects copied in from other PDFs read through pikepdf.

QPDF (pikepdf) keeps every object of the PDF it writes in memory until the save: imposing 9,000 faces held about
300 MB in the printer process, growing with the cards. :class:`StreamingPdf` writes each object to the file as soon
as it is complete and keeps only its byte offset for the cross-reference table, so that the imposition holds what
the sheet being written needs (:mod:`printer.sheets.impose`).

The file is a PDF of PDF 32000-1:2008, section 7.5: a header, the objects, a cross-reference stream; or, given an
:class:`Update`, another PDF's bytes followed by an incremental update of it (7.5.6: the objects added or written
anew, a cross-reference section for them alone, a trailer pointing back to the last one). Objects that
are not streams are packed :data:`PACKED` at a time into compressed object streams (7.5.7), as QPDF writes them
(without, a 9,000-card PDF was 12 % larger); a PDF version before 1.5 gets a classic cross-reference table and no
object streams. An object copied from a source PDF (:meth:`StreamingPdf.copy`) brings every object it
refers to, each written once per source, however often it is used; its streams are copied with their data as
stored (compressed or not), never decoded.
"""

from __future__ import annotations

import hashlib
import re
import zlib
from array import array
from collections.abc import Iterable
from dataclasses import dataclass
from decimal import Decimal
from typing import TYPE_CHECKING, BinaryIO

if TYPE_CHECKING:
    import pikepdf

#: objects packed into one object stream
PACKED = 100

#: an indirect reference in unparsed PDF (``12 0 R``), or a literal string to pass over (QPDF writes its
#: parentheses and backslashes escaped, so the first unescaped ``)`` ends it)
_REFERENCE = re.compile(rb"\((?:[^\\)]|\\.)*\)|(\d+) (\d+) R(?![^\s\[\]<>()/%])", re.S)


@dataclass(frozen=True)
class Update:
    """What an incremental update of the PDF ``data`` needs: the objects numbered below ``size`` (its trailer's
    ``/Size``) are there already, ``xref`` is the byte offset of its last cross-reference section (its
    ``startxref``), ``last_id`` the second string of its ``/ID`` in PDF syntax (``b"<...>"``)."""

    data: bytes
    size: int
    xref: int
    last_id: bytes = b""


class StreamingPdf:
    """A PDF written to ``handle`` (a binary file open for writing) one object at a time.

    Numbers are handed out by :meth:`reserve`; :meth:`write` and :meth:`write_stream` write an object's body,
    :meth:`copy` an object of a source PDF with everything it refers to; :meth:`finish` writes the
    cross-reference stream (or table) and the trailer. Memory: where each object was written (12 bytes an object),
    the objects waiting to be packed into the next object stream and, for each open source, the number given to
    each of its objects copied (:meth:`forget` drops them once a source is closed).

    With ``update``, ``handle`` gets ``update.data`` first and the objects after it are an incremental update:
    new numbers start at ``update.size``, an object numbered below it may be written anew (:meth:`write` with its
    own number), and a source opened on ``update.data`` itself with ``same=True`` (:meth:`source`) refers to its
    objects by their own numbers, copying none. ``version`` must then be the PDF's own.
    """

    def __init__(self, handle: BinaryIO, version: str = "1.7", update: Update | None = None):
        self._handle = handle
        kept = update.size if update is not None else 1
        #: by object number: its byte offset, or the number of the object stream holding it; 0 while not written
        self._offsets = array("q", [0]) * kept
        self._slots = array("l", [-1]) * kept  # by object number: its index in that object stream, or -1
        self._kept = kept  # objects numbered below this are in the PDF updated (none for a new PDF)
        self._update = update
        self._packing = tuple(int(part) for part in version.split(".")[:2]) >= (1, 5)
        self._pack: list[tuple[int, bytes]] = []
        self._at = 0
        self._numbers: dict[int, dict[tuple[int, int], int]] = {}  # source -> (num, gen) there -> number here
        self._sources: dict[int, pikepdf.Pdf] = {}
        self._same: set[int] = set()  # sources that are the PDF updated: their objects keep their numbers
        self._pending: list[tuple[int, tuple[int, int], int]] = []
        self._tokens = 0
        # of every byte written: the file's /ID (an update's, of the bytes it adds and the last /ID: a 37 MB PDF is
        # not read again for it)
        self._digest = hashlib.md5(update.last_id if update is not None else b"", usedforsecurity=False)
        if update is None:
            self._out(b"%PDF-" + version.encode("ascii") + b"\n%\xb5\xed\xae\xfb\n")
        else:
            self._handle.write(update.data if update.data.endswith(b"\n") else update.data + b"\n")
            self._at = len(update.data) + (not update.data.endswith(b"\n"))

    def _out(self, data: bytes) -> None:
        self._handle.write(data)
        self._digest.update(data)
        self._at += len(data)

    def reserve(self) -> int:
        """A new object number, for an object written later (a page's parent written after its pages)."""
        self._offsets.append(0)
        self._slots.append(-1)
        return len(self._offsets) - 1

    def write(self, number: int, body: bytes) -> None:
        """Write object ``number`` (from :meth:`reserve`) with ``body``, its PDF syntax (not a stream): into the
        next object stream, written once it holds :data:`PACKED` objects."""
        if not self._packing:
            self._offsets[number] = self._at
            self._out(b"%d 0 obj\n%s\nendobj\n" % (number, body))
            return
        self._pack.append((number, body))
        if len(self._pack) >= PACKED:
            self._write_pack()

    def _write_pack(self) -> None:
        if not self._pack:
            return
        stream, header, at = self.reserve(), [], 0
        for index, (number, body) in enumerate(self._pack):
            header.append(b"%d %d" % (number, at))
            at += len(body) + 1
            self._offsets[number], self._slots[number] = stream, index
        head = b" ".join(header) + b"\n"
        data = head + b"".join(body + b"\n" for _, body in self._pack)
        self._pack = []
        self.write_stream(stream, b" /Type /ObjStm /N %d /First %d" % (len(header), len(head)), data, compress=True)

    def write_stream(self, number: int, entries: bytes, data: bytes, compress: bool = False) -> None:
        """Write stream object ``number``: its dictionary's ``entries`` (PDF syntax between ``<<`` and ``>>``,
        without ``/Length``, with ``/Filter`` when ``data`` is encoded) and its ``data``; with ``compress``,
        ``data`` is compressed here (``/FlateDecode`` added)."""
        if compress:
            data, entries = zlib.compress(data), entries + b" /Filter /FlateDecode"
        self._offsets[number] = self._at
        self._out(b"%d 0 obj\n<<%s /Length %d >>\nstream\n" % (number, entries, len(data)))
        self._out(data)
        self._out(b"\nendstream\nendobj\n")

    def source(self, pdf: pikepdf.Pdf, same: bool = False) -> int:
        """A token for ``pdf``, to copy its objects with (:meth:`copy`) until :meth:`forget`; with ``same``, ``pdf``
        is the PDF this one updates (see :class:`StreamingPdf`): its objects are referred to, not copied."""
        self._tokens += 1
        self._numbers[self._tokens], self._sources[self._tokens] = {}, pdf
        if same:
            self._same.add(self._tokens)
        return self._tokens

    def forget(self, token: int) -> None:
        """Drop what was kept of the source ``token`` (it may be closed then); copying from it again is an error."""
        self._copy_pending()
        del self._numbers[token], self._sources[token]

    def alias(self, token: int, objgen: tuple[int, int], number: int) -> None:
        """Make references to the source's object ``objgen`` refer to ``number`` here, instead of copying it (a
        page written anew, the page tree)."""
        self._numbers[token][objgen] = number

    def copy(self, token: int, obj: object) -> bytes:
        """``obj`` of the source ``token`` in PDF syntax for this file: a reference to its copy when it is an
        indirect object, else its body with every indirect object it refers to copied (each once). Values pikepdf
        gives as Python scalars (``int``, ``Decimal``, ``bool``, ``None``) are written as such."""
        text = self._value(token, obj)
        self._copy_pending()
        return text

    def entries(self, token: int, items: Iterable[tuple[str, object]]) -> bytes:
        """Dictionary entries (``/Key value ...``, between ``<<`` and ``>>``) of ``items`` from the source
        ``token``, each value as :meth:`copy` writes it."""
        text = b"".join(b" " + name(key) + b" " + self._value(token, value) for key, value in items)
        self._copy_pending()
        return text

    def finish(self, root: int, info: int | None = None, first_id: bytes | None = None) -> None:
        """Write the last object stream and the cross-reference stream (a table and a trailer before PDF 1.5),
        naming the catalog ``root``, the document information dictionary ``info`` when given, and the ``/ID``:
        ``first_id`` (a string in PDF syntax: the identifier the document was first given) or else, like the second
        identifier, the MD5 digest of the bytes written (PDF 32000-1:2008, 14.4: the second changes with the
        content; the same file written again gets the same). Raises ``ValueError`` when an object was reserved
        and never written."""
        self._copy_pending()
        self._write_pack()
        missing = [n for n in range(self._kept, len(self._offsets)) if not self._offsets[n]]
        if missing:
            raise ValueError(f"objects reserved and never written: {missing[:10]}")
        digest = b"<%s>" % self._digest.hexdigest().encode("ascii")
        trailer = b"/Size %d /Root %d 0 R" % (len(self._offsets) + self._packing, root)
        if info is not None:
            trailer += b" /Info %d 0 R" % info
        trailer += b" /ID [ %s %s ]" % (first_id or digest, digest)
        if self._update is not None:
            trailer += b" /Prev %d" % self._update.xref
        start = self._at
        if self._packing:  # a cross-reference stream (7.5.8): type, offset or object stream, generation or index
            number = self.reserve()
            self._offsets[number] = start
            width = max(1, (max(self._offsets).bit_length() + 7) // 8)
            # one buffer, not a bytes object a row: 40,000 objects (9,000 faces) took 4.4 MiB more of Python's memory
            rows = bytearray(b"\x00" + bytes(width) + b"\xff\xff") if self._update is None else bytearray()
            for first, count in self._sections():
                for at, slot in zip(self._offsets[first : first + count], self._slots[first : first + count]):
                    rows += b"\x01" if slot < 0 else b"\x02"
                    rows += at.to_bytes(width, "big") + max(slot, 0).to_bytes(2, "big")
            index = b" ".join(b"%d %d" % section for section in self._sections()) if self._update else b""
            entries = b" /Type /XRef /W [ 1 %d 2 ]%s %s" % (width, b" /Index [ %s ]" % index if index else b"", trailer)
            self.write_stream(number, entries, bytes(rows), compress=True)
        else:
            table = bytearray(b"xref\n" if self._update else b"xref\n0 %d\n0000000000 65535 f \n" % len(self._offsets))
            for first, count in self._sections():
                table += b"%d %d\n" % (first, count) if self._update else b""
                for at in self._offsets[first : first + count]:
                    table += b"%010d 00000 n \n" % at
            self._out(bytes(table) + b"trailer\n<< " + trailer + b" >>\n")
        self._out(b"startxref\n%d\n%%%%EOF\n" % start)

    def _sections(self) -> list[tuple[int, int]]:
        """The cross-reference sections to write, ``(first number, count)``: every object after the first of a new
        PDF; the runs of objects written (added or anew) of an update."""
        if self._update is None:
            return [(1, len(self._offsets) - 1)]
        runs: list[tuple[int, int]] = []
        for number in range(1, len(self._offsets)):
            if self._offsets[number]:
                if runs and sum(runs[-1]) == number:
                    runs[-1] = (runs[-1][0], runs[-1][1] + 1)
                else:
                    runs.append((number, 1))
        return runs

    def _value(self, token: int, obj: object) -> bytes:
        """``obj`` in PDF syntax, the objects it refers to numbered here and left pending."""
        import pikepdf

        if not isinstance(obj, pikepdf.Object):
            return _scalar(obj)
        if obj.is_indirect:
            return b"%d 0 R" % self._number(token, obj.objgen)
        return self._renumber(token, obj.unparse())

    def _number(self, token: int, objgen: tuple[int, int]) -> int:
        if token in self._same:
            if objgen[1] or not 0 < objgen[0] < self._kept:
                raise ValueError(f"object {objgen[0]} {objgen[1]} is not one this update keeps")
            return objgen[0]
        numbers = self._numbers[token]
        number = numbers.get(objgen)
        if number is None:
            number = numbers[objgen] = self.reserve()
            self._pending.append((token, objgen, number))
        return number

    def _renumber(self, token: int, text: bytes) -> bytes:
        def swap(match: re.Match[bytes]) -> bytes:
            if match.group(1) is None:
                return match.group(0)  # a string
            return b"%d 0 R" % self._number(token, (int(match.group(1)), int(match.group(2))))

        return _REFERENCE.sub(swap, text) if b" R" in text else text

    def _copy_pending(self) -> None:
        import pikepdf

        while self._pending:
            token, objgen, number = self._pending.pop()
            obj = self._sources[token].get_object(objgen)
            if isinstance(obj, pikepdf.Stream):
                items = obj.stream_dict.items()
                entries = b"".join(b" " + name(k) + b" " + self._value(token, v) for k, v in items if k != "/Length")
                self.write_stream(number, entries, obj.read_raw_bytes())
            elif isinstance(obj, pikepdf.Object):
                self.write(number, self._renumber(token, obj.unparse(resolved=True)))
            else:
                self.write(number, _scalar(obj))


def name(key: str) -> bytes:
    """A dictionary key as pikepdf spells it (``/Font``) in PDF syntax, with ``#xx`` escapes where needed."""
    if key.isascii() and key[1:].isalnum():
        return key.encode("ascii")
    import pikepdf

    return pikepdf.Name(key).unparse()


def _scalar(value: object) -> bytes:
    if value is None:
        return b"null"
    if value is True or value is False:
        return b"true" if value else b"false"
    if isinstance(value, int):
        return b"%d" % value
    if isinstance(value, (Decimal, float)):
        text = f"{value:f}"
        text = text.rstrip("0").rstrip(".") if "." in text else text
        return (text if text not in ("", "-", "-0") else "0").encode("ascii")
    raise TypeError(f"not a PDF value: {value!r}")
