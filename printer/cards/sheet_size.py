"""The area a workbook's sheets span, found before the workbook is loaded: :func:`oversized_sheets`.

python-calamine loads a sheet as one block of cells from its first filled cell to its last, empty ones
included: a 5 KB XLSX with one value at ``XFD1048576`` asks it for 17 billion cells (about 512 GiB), and the
process aborts. This module reads the sheets' XML from the file's zip archive without loading it (a byte scan
of an XLSX sheet, a streamed parse of an ODS ``content.xml``), finds the first and last filled row and column
of each sheet (cells holding nothing but a style do not count: calamine skips them too) and reports a sheet
whose area is over :data:`MAX_SHEET_CELLS`.

It also bounds what the workbook unpacks to (:data:`MAX_UNPACKED_BYTES`, every part together): a zip bomb of a
megabyte can hold a sheet of gigabytes, which calamine would hold in memory. The sizes the zip says are checked,
then each part is unpacked (streamed, nothing kept) to check that it is no larger than it says.
"""

from __future__ import annotations

import re
import zipfile
from collections.abc import Callable
from dataclasses import dataclass
from operator import itemgetter
from pathlib import Path, PurePosixPath
from xml.etree import ElementTree

from printer.problems import Problem

#: cells one sheet may span, rows × columns between its first and last filled cells, empty ones included
MAX_SHEET_CELLS = 5_000_000
#: bytes all the parts of one workbook may unpack to
MAX_UNPACKED_BYTES = 512 * 2**20
#: bytes of a sheet's XML read at a time
_CHUNK = 1 << 20
#: bytes of the end of one read scanned again with the next (a cell tag cut in two)
_OVERLAP = 4096

# a cell with a value, a formula or inline text (not one that holds only a style), its reference first (as
# spreadsheet programs write it): its column letters and row number
_CELL = re.compile(rb'<c r="([A-Z]{1,4})([0-9]{1,9})"[^>]*+(?<!/)>\s*+<[vfi]')
_REF = re.compile(rb'\br="([A-Z]{1,4})([0-9]{1,9})"')
# what the scan does not read, though calamine does: white space other than one space after a cell tag's name, a
# reference that is not upper-case letters then digits, a comment
_ODD = re.compile(rb'<c[\t\r\n]|<c r="(?![A-Z]{1,4}[0-9]{1,9}")|<!--')
# a cell tag with a namespace prefix (<x:c>)
_PREFIXED = re.compile(rb"<\w+:c[\s>]")

_MAIN = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
_DOC_REL = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
_PKG_REL = "http://schemas.openxmlformats.org/package/2006/relationships"
_TABLE = "urn:oasis:names:tc:opendocument:xmlns:table:1.0"
_OFFICE = "urn:oasis:names:tc:opendocument:xmlns:office:1.0"


@dataclass
class _Span:
    """The first and last filled row and column (1-based) of a sheet."""

    top: int = 0
    bottom: int = 0
    left: int = 0
    right: int = 0

    def add(self, row: int, col: int) -> None:
        if not self.top:
            self.top = self.bottom = row
            self.left = self.right = col
            return
        self.top, self.bottom = min(self.top, row), max(self.bottom, row)
        self.left, self.right = min(self.left, col), max(self.right, col)

    @property
    def cells(self) -> int:
        return 0 if not self.top else (self.bottom - self.top + 1) * (self.right - self.left + 1)

    @property
    def ref(self) -> str:
        return f"{_letters(self.left)}{self.top}:{_letters(self.right)}{self.bottom}"


def _letters(col: int) -> str:
    out = ""
    while col:
        col, rest = divmod(col - 1, 26)
        out = chr(65 + rest) + out
    return out


def _column(letters: bytes) -> int:
    col = 0
    for byte in letters:
        col = col * 26 + byte - 64
    return col


def oversized_sheets(path: Path, sheet_prefix: Callable[[str], str]) -> list[Problem]:
    """A problem for each sheet of the XLSX or ODS workbook at ``path`` spanning over :data:`MAX_SHEET_CELLS`
    cells, located at the sheet's last filled cell (``crew.xlsx:Sheet1!XFD1048576``); ``sheet_prefix`` gives a
    sheet name as a location prefix (``Sheet1!``). Other file types, and files that are not a readable zip,
    give nothing here (the reader reports those)."""
    suffix = path.suffix.lower()
    if suffix == ".xls":
        return _xls_problems(path)
    if suffix not in (".xlsx", ".xlsm", ".ods"):
        return []
    try:
        with zipfile.ZipFile(path) as archive:
            unpacked = _unpacked_problem(path, archive)
            if unpacked is not None:
                return [unpacked]
            if suffix in (".xlsx", ".xlsm"):
                spans = [(name, _xlsx_span(archive, member)) for name, member in _xlsx_sheets(archive)]
            elif suffix == ".ods":
                spans = _ods_spans(archive)
            else:
                return []
    except (OSError, zipfile.BadZipFile, KeyError, ElementTree.ParseError, ValueError, RuntimeError):
        return []  # not a workbook calamine could read either: its own error says so
    problems = []
    for name, span in spans:
        if span.cells > MAX_SHEET_CELLS:
            problems.append(
                Problem(
                    f"{path}:{sheet_prefix(name)}{_letters(span.right)}{span.bottom}",
                    f"the sheet spans {span.ref}, {span.cells:,} cells (empty ones included), "
                    f"over the limit of {MAX_SHEET_CELLS:,} cells for one sheet",
                    "clear the far cells (Ctrl+End goes to the last one) and delete the empty rows and columns "
                    "before them, or split the sheet",
                    code="too-large",
                )
            )
    return problems


def _xls_problems(path: Path) -> list[Problem]:
    """The pre-load check of an Excel 97-2003 workbook (BIFF8 in an OLE file, not compressed): its size against
    :data:`MAX_UNPACKED_BYTES`, since calamine reads the whole file into memory. A BIFF8 sheet holds at most
    65,536 rows x 256 columns (Microsoft's [MS-XLS] specification), so its area is bounded at 16,777,216 cells;
    that area is not read here (it would take parsing the OLE file)."""
    try:
        size = path.stat().st_size
    except OSError:
        return []  # the reader reports a file it cannot read
    if size <= MAX_UNPACKED_BYTES:
        return []
    message = f"the workbook is {size:,} bytes, over the limit of {MAX_UNPACKED_BYTES:,} bytes"
    return [Problem(str(path), message, "save it as .xlsx or .csv, or split it", code="too-large")]


def _unpacked_problem(path: Path, archive: zipfile.ZipFile) -> Problem | None:
    """A problem when the parts of ``archive`` unpack to more than :data:`MAX_UNPACKED_BYTES` together, by the
    sizes the zip says or, unpacked, by their real sizes (a part that says it is smaller than it is), else
    ``None``. Raises ``zipfile.BadZipFile`` for a damaged part."""
    hint = "save the workbook again from your spreadsheet program, or split it"
    infos = archive.infolist()
    said = sum(info.file_size for info in infos)
    if said > MAX_UNPACKED_BYTES:
        message = f"the workbook unpacks to {said:,} bytes, over the limit of {MAX_UNPACKED_BYTES:,} bytes"
        return Problem(str(path), message, hint, code="too-large")
    total = 0
    for info in infos:
        bounded = zipfile.ZipInfo(info.filename, info.date_time)
        for name in ("compress_type", "compress_size", "CRC", "flag_bits", "header_offset", "extra"):
            setattr(bounded, name, getattr(info, name))
        bounded.file_size = MAX_UNPACKED_BYTES + 1  # read up to the limit, whatever the part says
        real = 0
        with archive.open(bounded) as part:
            while chunk := part.read(_CHUNK):
                real += len(chunk)
                if total + real > MAX_UNPACKED_BYTES:
                    message = f"the workbook unpacks to more than {MAX_UNPACKED_BYTES:,} bytes, the limit"
                    return Problem(str(path), message, hint, code="too-large")
        if real != info.file_size:
            message = (
                f"the workbook's part {info.filename} unpacks to {real:,} bytes, not the {info.file_size:,} it says"
            )
            return Problem(str(path), message, hint, code="too-large")
        total += real
    return None


def _xlsx_sheets(archive: zipfile.ZipFile) -> list[tuple[str, str]]:
    """``(sheet name, zip member)`` of every worksheet of an XLSX archive."""
    book = ElementTree.fromstring(archive.read("xl/workbook.xml"))
    rels = ElementTree.fromstring(archive.read("xl/_rels/workbook.xml.rels"))
    targets = {r.get("Id"): r.get("Target", "") for r in rels.iter(f"{{{_PKG_REL}}}Relationship")}
    out = []
    for sheet in book.iter(f"{{{_MAIN}}}sheet"):
        target = targets.get(sheet.get(f"{{{_DOC_REL}}}id"), "")
        if not target:
            continue
        member = target.lstrip("/") if target.startswith("/") else str(PurePosixPath("xl", target))
        if member in archive.NameToInfo:
            out.append((sheet.get("name", ""), member))
    return out


def _xlsx_span(archive: zipfile.ZipFile, member: str) -> _Span:
    """The span of one XLSX worksheet's filled cells, from a scan of its XML's bytes (about half the time
    calamine takes to read the sheet). A cell tag written otherwise (no reference, the reference not first or not
    in upper case, other white space than one space after the tag's name, a namespace prefix, a comment) sends the
    sheet to :func:`_xlsx_span_parsed`."""
    span = _Span()
    tail = b""
    with archive.open(member) as stream:
        while True:
            chunk = stream.read(_CHUNK)
            data = tail + chunk
            cut = data.rfind(b"<") if chunk else len(data)  # a tag cut at the end is read whole with the next
            # calamine reads a cell however it is written; the scan only the common way: any other (a tab or line
            # break after the tag's name, a reference in lower case, a comment in a cell) is parsed instead
            tags = data.count(b"<c ", 0, cut) + data.count(b"<c>", 0, cut) + data.count(b"<c/", 0, cut)
            if tags != data.count(b'<c r="', 0, cut) or _PREFIXED.search(data, 0, cut) or _ODD.search(data, 0, cut):
                return _xlsx_span_parsed(archive, member)
            refs = _CELL.findall(data)  # a cell cut at the end is found again in the overlap
            if refs:  # the distinct rows and columns are few: each is converted once
                rows = [int(row) for row in set(map(itemgetter(1), refs))]
                cols = [_column(letters) for letters in set(map(itemgetter(0), refs))]
                span.add(min(rows), min(cols))
                span.add(max(rows), max(cols))
            if not chunk:
                return span
            tail = data[-_OVERLAP:]


def _xlsx_span_parsed(archive: zipfile.ZipFile, member: str) -> _Span:
    """The span of one XLSX worksheet whose cells may lack a reference: each such cell is in the row's next
    column (and a row without a number is the next row), as spreadsheet programs read them."""
    span = _Span()
    row = col = 0
    with archive.open(member) as stream:
        for event, element in ElementTree.iterparse(stream, events=("start", "end")):
            tag = element.tag.rsplit("}", 1)[-1]
            if event == "start" and tag == "row":
                row = int(element.get("r") or row + 1)
                col = 0
            elif event == "end" and tag == "c":
                ref = element.get("r")
                match = _REF.match(f'r="{ref.upper()}"'.encode()) if ref else None  # calamine reads a1 as A1
                col = _column(match.group(1)) if match else col + 1
                if len(element):
                    span.add(int(match.group(2)) if match else row, col)
                element.clear()
            elif event == "end" and tag == "row":
                element.clear()
    return span


def _ods_spans(archive: zipfile.ZipFile) -> list[tuple[str, _Span]]:
    """``(table name, span)`` of every table of an ODS ``content.xml``, repeated rows and columns counted."""
    out: list[tuple[str, _Span]] = []
    table_tag, row_tag = f"{{{_TABLE}}}table", f"{{{_TABLE}}}table-row"
    cell_tags = {f"{{{_TABLE}}}table-cell", f"{{{_TABLE}}}covered-table-cell"}
    rows_repeated, cols_repeated = f"{{{_TABLE}}}number-rows-repeated", f"{{{_TABLE}}}number-columns-repeated"
    value_type = f"{{{_OFFICE}}}value-type"
    span = _Span()
    row = col = 0
    with archive.open("content.xml") as stream:
        for event, element in ElementTree.iterparse(stream, events=("start", "end")):
            tag = element.tag
            if event == "start":
                if tag == table_tag:
                    span, row = _Span(), 0
                    out.append((element.get(f"{{{_TABLE}}}name", ""), span))
                elif tag == row_tag:
                    col = 0
                continue
            if tag in cell_tags:
                repeat = int(element.get(cols_repeated) or 1)
                if element.get(value_type) or len(element):
                    span.add(row + 1, col + 1)
                    span.add(row + 1, col + repeat)
                col += repeat
                element.clear()
            elif tag == row_tag:
                repeat = int(element.get(rows_repeated) or 1)
                if repeat > 1 and span.bottom == row + 1:  # a filled row repeated: its copies are filled too
                    span.add(row + repeat, span.right)
                row += repeat
                element.clear()
    return out
