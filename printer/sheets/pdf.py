"""HTML to PDF with WeasyPrint, contained to the project and written atomically.

The URL fetcher allows only ``data:`` URLs and files under the allowed
roots (the project and printer's bundled templates); anything else, a
``http:`` URL or a file outside the project reached through ``..`` or a
symbolic link, stops the build with a :class:`RenderError`. WeasyPrint's
own warnings (bad CSS, say) are collected as printer warnings.
"""

from __future__ import annotations

import contextlib
import inspect
import logging
import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path
from types import FrameType
from typing import TYPE_CHECKING, Any, NoReturn
from urllib.parse import unquote, urljoin, urlparse

from PIL import Image

from printer.paths import url2pathname
from printer.sheets.fontsubsets import reuse_subsets
from printer.sheets.libraries import import_weasyprint, lazy_font_files, open_arrays, parse_c_types

import_weasyprint()  # before any other import of WeasyPrint: its libraries loaded without starting programs
open_arrays()  # font subsets' glyph arrays made without cffi parsing a new type name for each length
lazy_font_files()  # a font's whole file read only when WeasyPrint needs it, not for every document
reuse_subsets()  # a font's subset made once a process while the next documents need no other glyph

from weasyprint import HTML, Document  # noqa: E402
from weasyprint.text.fonts import FontConfiguration  # noqa: E402
from weasyprint.urls import FatalURLFetchingError, URLFetcher, URLFetcherResponse  # noqa: E402

from printer.fsutil import atomic_open  # noqa: E402
from printer.problems import WARNING, Problem, RenderError  # noqa: E402
from printer.process import chunk_painted  # noqa: E402
from printer.sheets import (  # noqa: E402
    backgrounds,
    computedstyles,
    htmlparse,
    layoutcontexts,
    marginboxes,
    percentages,
    stylesheets,
    svgforms,
    useragent,
)

if TYPE_CHECKING:
    from weasyprint.document import Page


class _HTML(HTML):  # type: ignore[misc]  # WeasyPrint is untyped
    """``weasyprint.HTML`` that lays out with :func:`printer.sheets.useragent.stylesheet` when ``lighter``."""

    lighter = False

    def _ua_stylesheets(self, forms: bool = False) -> list[Any]:
        sheet = useragent.stylesheet() if self.lighter and not forms else None
        return [sheet] if sheet is not None else super()._ua_stylesheets(forms)


class BlockedFetch(FatalURLFetchingError):  # type: ignore[misc]  # WeasyPrint is untyped
    """A template or card asked for a resource outside the project."""


class _NeedsFullStylesheet(FatalURLFetchingError):  # type: ignore[misc]  # WeasyPrint is untyped
    """A stylesheet read while laying out with the lighter user-agent stylesheet needs WeasyPrint's own."""


class ProjectFetcher(URLFetcher):  # type: ignore[misc]  # WeasyPrint is untyped
    """Fetches ``data:`` URLs and files under ``roots`` only; raises :class:`BlockedFetch` otherwise."""

    def __init__(self, roots: list[Path]) -> None:
        super().__init__(allowed_protocols={"file", "data"}, timeout=5, allow_redirects=False, fail_on_errors=True)
        self.roots = [Path(r).resolve() for r in roots]
        #: every blocked fetch as (url, why, file that asked for it or None); WeasyPrint swallows some fetch errors
        #: (inside SVG images, fonts), so callers check this list after laying out and writing (:func:`_check_blocked`)
        self.blocked: list[tuple[str, str, Path | None]] = []
        self._fetched: list[Path] = []  # stylesheets and SVG files read, searched for the reference to a blocked URL
        #: while a document is laid out with the lighter user-agent stylesheet: whether a stylesheet file's body
        #: allows it (:func:`printer.sheets.useragent.stylesheet_suits`); one that does not stops the layout
        self.stylesheet_check: Callable[[bytes], bool] | None = None
        self.needs_full_stylesheet = False

    def fetch(self, url: str, headers: dict[str, str] | None = None) -> URLFetcherResponse:
        scheme = url.split(":", 1)[0].lower()
        if scheme == "data":
            return super().fetch(url, headers)
        if scheme != "file":
            self._block(url, "only files inside the project and data: URLs may be used")
        parsed = urlparse(url)
        if parsed.netloc not in ("", "localhost"):  # file://host/... would make the URL library look the host up
            self._block(url, "a file: URL naming a host; only files inside the project may be used")
        path = Path(url2pathname(unquote(parsed.path))).resolve()
        if not any(path.is_relative_to(root) for root in self.roots):
            self._block(url, "the file is outside the project")
        if path.suffix.lower() in (".css", ".svg") and path not in self._fetched:
            self._fetched.append(path)
        if path.suffix.lower() in _RASTER and _too_many_pixels(path):
            self._block(url, f"the image has more than {Image.MAX_IMAGE_PIXELS:,} pixels (a decompression bomb?)")
        response = super().fetch(url, headers)
        if self.stylesheet_check is None or path.suffix.lower() != ".css":
            return response
        try:
            body = response.read()
        finally:
            response.close()
        if not self.stylesheet_check(body):
            self.needs_full_stylesheet = True
            raise _NeedsFullStylesheet(f"{url} needs WeasyPrint's own user-agent stylesheet")
        return URLFetcherResponse(response.url, body, response.headers, response.status)

    def _block(self, url: str, why: str) -> NoReturn:
        blocked = (url, why, _referrer(url, self._fetched))
        if blocked not in self.blocked:
            self.blocked.append(blocked)
        raise BlockedFetch(_blocked_message(*blocked))


_RASTER = (".png", ".jpg", ".jpeg", ".gif", ".webp", ".bmp", ".tif", ".tiff")


def _too_many_pixels(path: Path) -> bool:
    """Whether the raster image at ``path`` is over Pillow's pixel limit (read from its header, not decoded)."""
    try:
        with Image.open(path) as image:
            width, height = image.size
    except Exception:  # not an image Pillow knows: WeasyPrint reports it
        return False
    return Image.MAX_IMAGE_PIXELS is not None and width * height > Image.MAX_IMAGE_PIXELS


def _blocked_message(url: str, why: str, source: object) -> str:
    short = url if len(url) <= 100 else url[:99] + "\u2026"
    return f"blocked {short}" + (f" (asked for by {source})" if source else "") + f": {why}"


_REFERENCE = re.compile(
    r"""(?:url\(\s*["']?|@import\s+["']|(?:href|src|data)\s*=\s*["']|!\[[^\]]*\]\(\s*<?)([^"')\s>]+)""", re.IGNORECASE
)  # CSS url() and @import, HTML and SVG attributes, Markdown images


def _refers_to(text: str, base: str, url: str) -> str | None:
    """The reference in ``text`` (CSS, SVG or HTML) that resolves against ``base`` to ``url``, if any."""
    return next((ref for ref in _REFERENCE.findall(text) if urljoin(base, ref.strip()) == url), None)


def _referrer(url: str, files: list[Path]) -> Path | None:
    """The stylesheet or SVG file among ``files`` (most recent first) holding a reference that resolves to ``url``."""
    for file in reversed(files):
        try:
            text = file.read_text(encoding="utf-8", errors="replace")
        except OSError:
            continue
        if _refers_to(text, file.as_uri(), url):
            return file
    return None


def _template_referrer(url: str, html: str, base_url: str, roots: Sequence[Path]) -> str | None:
    """For a URL written in the HTML itself: the template (``*.j2`` under ``roots``) that writes it, else where it came from."""
    ref = _refers_to(html, base_url, url)
    if ref is None:
        return None
    for root in roots:
        for template in sorted(Path(root).rglob("*.j2")):
            try:
                if ref in template.read_text(encoding="utf-8", errors="replace"):
                    return str(template)
            except OSError:
                continue
    for root in roots:  # a rules chapter's Markdown image, whose relative path became a file URL
        for chapter in sorted(Path(root).rglob("*.md")):
            try:
                text = chapter.read_text(encoding="utf-8", errors="replace")
            except OSError:
                continue
            written = _refers_to(text, chapter.as_uri(), url)
            if written:
                at = text.find(written)
                return f"{chapter}:{text.count(chr(10), 0, at) + 1}:{at - text.rfind(chr(10), 0, at)}"
    return "a card field or a template's output"


def _check_blocked(
    fetchers: Iterable[object], where: str, html: str | None = None, base_url: str = "", roots: Sequence[Path] = ()
) -> None:
    """Raise :class:`RenderError` naming every URL the ``fetchers`` blocked (WeasyPrint may have swallowed them).

    Each blocked URL is one problem located at ``where``, naming the file
    that asked for it when it can be found (a stylesheet or SVG file, or a
    template writing it into ``html``).
    """
    problems: list[Problem] = []
    for fetcher in fetchers:
        for url, why, source in getattr(fetcher, "blocked", ()):
            if source is None and html:
                source = _template_referrer(url, html, base_url, roots)
            located = isinstance(source, Path) or (
                isinstance(source, str) and re.search(r"\.(j2|md(:\d+:\d+)?)$", source)
            )
            problem = Problem(
                str(source) if located else where,
                _blocked_message(url, why, None if located else source),
                "put the file inside the project folder, or use a data: URL",
                code="blocked-fetch",
            )
            if problem not in problems:
                problems.append(problem)
    if problems:
        raise RenderError(problems[0].message, problems)


class _Collect(logging.Handler):
    """Collects WeasyPrint's warnings as ``(stylesheet or None, message)``."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.messages: list[tuple[Path | None, str]] = []

    def emit(self, record: logging.LogRecord) -> None:
        # a warning of a stylesheet parsed earlier, logged again (printer.sheets.stylesheets), says its file itself
        sheet = record.stylesheet if hasattr(record, "stylesheet") else _stylesheet_being_read()
        self.messages.append((sheet, record.getMessage()))


def _stylesheet_being_read() -> Path | None:
    """The CSS file WeasyPrint is reading while it logs (the ``base_url`` of its CSS parser's frames), if any.

    WeasyPrint's CSS warnings ("Ignored `colr: red` at 1:9, unknown
    property") give a line and column but not the file; its stylesheet
    parser has the file's URL in a local ``base_url``. Anything else (a
    ``<style>`` in the document, no such frame) gives ``None``.
    """
    here = inspect.currentframe()
    frame: FrameType | None = here.f_back.f_back if here is not None and here.f_back is not None else None
    while frame is not None:
        if frame.f_code.co_filename.replace("\\", "/").find("/weasyprint/css/") >= 0:
            url = frame.f_locals.get("base_url")
            if isinstance(url, str) and url.startswith("file:") and url.lower().endswith(".css"):
                return Path(url2pathname(unquote(urlparse(url).path)))
        frame = frame.f_back
    return None


stylesheets.install(_stylesheet_being_read)  # each stylesheet parsed once per process, not once per document
svgforms.install()  # each SVG image (and SVG background at one place) drawn once per PDF, painted where it is used
marginboxes.install()  # a page whose stylesheets style no margin box gets none without making sixteen empty ones
htmlparse.install()  # tinyhtml5 finds the expressions it reads text runs with again instead of making each anew
layoutcontexts.install()  # a chunk's layout freed as its last page is painted, not left to the garbage collector
computedstyles.install()  # each computed value worked out once for styles alike in any document of the process
backgrounds.install()  # a box with no background, border image or rounded corner decided once per style
percentages.install()  # a box's used margins, paddings and sizes worked out once for the same values and block

_FONTS: FontConfiguration | None = None


def font_config() -> FontConfiguration:
    """One shared :class:`FontConfiguration` for every document of the process."""
    global _FONTS
    if _FONTS is None:
        _FONTS = FontConfiguration()
    return _FONTS


@contextlib.contextmanager
def _contained(where: str) -> Iterator[list[tuple[Path | None, str]]]:
    """Collect WeasyPrint's warnings; turn blocked or failed fetches into :class:`RenderError`."""
    collect = _Collect()
    logger = logging.getLogger("weasyprint")
    logger.addHandler(collect)
    try:
        yield collect.messages
    except BlockedFetch as exc:
        raise RenderError(
            str(exc),
            [
                Problem(
                    where, str(exc), "put the file inside the project folder, or use a data: URL", code="blocked-fetch"
                )
            ],
        ) from None
    except FatalURLFetchingError as exc:
        cause = exc.__cause__
        reason = getattr(cause, "reason", cause)  # urllib wraps the OSError in a URLError
        if (
            isinstance(reason, OSError) and reason.filename
        ):  # a file inside the project that is not there (or unreadable)
            message = f"cannot read {reason.filename}: {reason.strerror or reason}"
        else:
            message = f"{exc}: {cause}" if cause else str(exc)
        raise RenderError(
            message,
            [
                Problem(
                    where,
                    message,
                    "check the path: in a template it is relative to the project "
                    "folder; in a stylesheet, an SVG or a rules chapter, to that file",
                    code="fetch",
                )
            ],
        ) from None
    finally:
        logger.removeHandler(collect)


_AT = re.compile(r" at (\d+):(\d+)")


def _warnings(messages: list[tuple[Path | None, str]], where: str) -> list[Problem]:
    """WeasyPrint's warnings as problems: at ``stylesheet:line:col`` when the stylesheet is known, else at ``where``."""
    problems: list[Problem] = []
    for sheet, message in messages:
        at = _AT.search(message) if sheet else None
        location = f"{sheet}:{at.group(1)}:{at.group(2)}" if at else str(sheet) if sheet else where
        problem = Problem(location, f"WeasyPrint: {message}", severity=WARNING, code="weasyprint")
        if problem not in problems:
            problems.append(problem)
    return problems


def prepare(roots: list[Path], stylesheet_urls: Sequence[str]) -> None:
    """Do now what the first document a process lays out would do first: make the lighter user-agent stylesheet
    (:func:`printer.sheets.useragent.stylesheet`), have cffi parse the C types a face's text needs
    (:func:`printer.sheets.libraries.parse_c_types`) and parse each stylesheet of ``stylesheet_urls`` as a document
    linking it would (kept by :mod:`printer.sheets.stylesheets`), read through a fetcher that reads only under
    ``roots``. A worker does it while the build reads its cards (0.3-0.4 s of the first face it lays out).
    Raises nothing: what fails is reported by the first document that needs it."""
    from weasyprint.css import CSS
    from weasyprint.css.counters import CounterStyle

    with contextlib.suppress(Exception):
        useragent.stylesheet()
    parse_c_types()
    fetcher = ProjectFetcher(roots)
    for url in stylesheet_urls:
        with contextlib.suppress(Exception):
            CSS(url=url, url_fetcher=fetcher, media_type="print", font_config=font_config(),
                counter_style=CounterStyle(), color_profiles={}, page_rules=[], layers=[], _check_mime_type=True)  # fmt: skip


def render_documents(
    chunks: Iterable[str],
    roots: list[Path],
    base: Path,
    where: str = "",
    on_chunk: Callable[[int], None] | None = None,
    **options: Any,
) -> tuple[list[Document], list[Problem]]:
    """Lay out each HTML document of ``chunks`` with WeasyPrint; returns ``(documents, warnings)``.

    ``options`` go to ``HTML.render`` (e.g. ``output_intent``). A document
    that :func:`printer.sheets.useragent.suits` is laid out with that
    module's lighter user-agent stylesheet (the same pages, fewer styles
    worked out). Raises :class:`RenderError` when a resource was blocked
    or missing.
    """
    fetcher = ProjectFetcher(roots)
    base_url = base.resolve().as_uri() + "/"
    documents: list[Document] = []
    with _contained(where) as messages:
        for index, html in enumerate(chunks):
            try:
                documents.append(_lay_out(html, base_url, fetcher, options))
            except BlockedFetch:
                pass  # reported below, with the template that asked for it
            _check_blocked([fetcher], where, html, base_url, roots)
            if on_chunk:
                on_chunk(index)
    return documents, _warnings(messages, where)


def _lay_out(html: str, base_url: str, fetcher: ProjectFetcher, options: dict[str, Any]) -> Document:
    """``html`` laid out: with the lighter user-agent stylesheet when :func:`printer.sheets.useragent.suits` it,
    and again with WeasyPrint's own when a stylesheet it reads does not allow that or the layout fails (a failed
    fetch is not tried again: it would fail the same way)."""

    def render(lighter: bool) -> Document:
        document = _HTML(string=html, base_url=base_url, url_fetcher=fetcher)
        document.lighter = lighter
        return document.render(font_config=font_config(), optimize_images=False, **options)

    if useragent.suits(html, options) and useragent.stylesheet() is not None:
        list_items = useragent.has_list_items(html)
        fetcher.stylesheet_check = lambda body: useragent.stylesheet_suits(body, list_items)
        fetcher.needs_full_stylesheet = False
        try:
            return render(True)
        except FatalURLFetchingError:
            if not fetcher.needs_full_stylesheet:
                raise
        except Exception:  # noqa: BLE001 (laid out again below with WeasyPrint's own stylesheet, which reports)
            pass
        finally:
            fetcher.stylesheet_check = None
    return render(False)


def render_one(
    html: str, roots: list[Path], base: Path, where: str = "", **options: Any
) -> tuple[Document, list[Problem]]:
    """One HTML document laid out: ``(document, warnings)``."""
    documents, problems = render_documents([html], roots, base, where, **options)
    return documents[0], problems


def pdf_bytes(documents: list[Document], where: str = "", **options: Any) -> tuple[bytes, list[Problem]]:
    """The pages of every document joined into one PDF, as bytes; ``options`` go to ``write_pdf`` (``pdf_variant``)."""
    if not documents:
        raise RenderError("nothing to print", [Problem(where or "build", "nothing to print", code="empty")])
    pages = [page for document in documents for page in document.pages]
    with _contained(where) as messages:
        data = documents[0].copy(pages).write_pdf(**options)
    _check_blocked([getattr(d, "url_fetcher", None) for d in documents], where)  # SVG images fetch while drawing
    return data, _warnings(messages, where)


# -- long documents: laid out while they are written --------------------------------------------------------------


class _Restart(Exception):
    """A lazily written PDF cannot go on as it started: write it again with every page laid out first."""


class _Chunk:
    """``count`` pages that ``make()`` lays out (a WeasyPrint document), kept only until they are painted; then the
    layout contexts made while laying them out (``contexts``, :mod:`printer.sheets.layoutcontexts`) are released."""

    def __init__(
        self,
        make: Callable[[], Document],
        count: int,
        document: Document | None = None,
        contexts: list[Any] | None = None,
    ) -> None:
        self.make = make
        self.count = count
        self.contexts: list[Any] = contexts if contexts is not None else []
        self.pages: list[Page] | None = list(document.pages) if document is not None else None
        self.fetchers: list[object] = [getattr(document, "url_fetcher", None)] if document is not None else []
        self.painted = 0
        self.blind = False  # WeasyPrint was told "no links, no anchors" before this chunk was laid out
        self.released = False

    def page(self, index: int) -> Page:
        if self.pages is None:
            if self.released:
                raise _Restart("a page was asked for again after its chunk was painted")
            with layoutcontexts.recorded(self.contexts):
                document = self.make()
            self.fetchers.append(getattr(document, "url_fetcher", None))
            pages = list(document.pages)
            if len(pages) != self.count or (self.blind and any(p.links or p.anchors for p in pages)):
                raise _Restart("the chunk is not as announced")
            self.pages = pages
        return self.pages[index]

    def painted_one(self) -> None:
        self.painted += 1
        if self.painted >= self.count:
            self.pages, self.released = None, True
            layoutcontexts.release(self.contexts)
            chunk_painted()  # what the chunk left in reference cycles, collected while a batch turns collections off


_META = ("width", "height", "bleed", "bookmarks", "links", "anchors", "forms")


class LazyPage:
    """Stands for page ``index`` of a :class:`_Chunk` in a WeasyPrint document being written.

    It has the public attributes of ``weasyprint.Page`` (``width``,
    ``height``, ``bleed``, ``bookmarks``, ``links``, ``anchors``, ``forms``)
    and ``paint()``; the chunk is laid out on first use and its box trees
    dropped once all its pages are painted (only these attributes are kept).
    ``links`` and ``anchors`` of a chunk not laid out yet are empty; should
    it have some once laid out, writing restarts the ordinary way.
    """

    def __init__(self, chunk: _Chunk, index: int) -> None:
        self._chunk = chunk
        self._index = index
        self._meta: dict[str, Any] | None = None

    def _get(self, name: str) -> Any:
        if self._meta is not None:
            return self._meta[name]
        return getattr(self._chunk.page(self._index), name)

    def _blind(self, name: str, empty: object) -> Any:
        if self._meta is None and self._chunk.pages is None:
            self._chunk.blind = True
            return empty
        return self._get(name)

    width = property(lambda self: self._get("width"))
    height = property(lambda self: self._get("height"))
    bleed = property(lambda self: self._get("bleed"))
    bookmarks = property(lambda self: self._get("bookmarks"))
    forms = property(lambda self: self._get("forms"))
    links = property(lambda self: self._blind("links", []))
    anchors = property(lambda self: self._blind("anchors", {}))

    def paint(self, stream: Any, scale: float = 1) -> None:
        page = self._chunk.page(self._index)
        page.paint(stream, scale)
        self._meta = {name: getattr(page, name) for name in _META}
        self._chunk.painted_one()


def stream_pdf(
    parts: list[tuple[int, Callable[[], Document]]], where: str = "", **options: Any
) -> tuple[bytes, list[Problem]]:
    """One PDF of many documents laid out one at a time while it is written; ``(bytes, warnings)``.

    ``parts`` are ``(pages, make)``: ``make()`` lays out a WeasyPrint
    document of exactly ``pages`` pages (e.g. :func:`render_one` of a chunk
    of sheets). Only one part's pages are in memory at a time (a laid-out
    card face holds about 0.8 MB), yet the parts share one set of embedded
    fonts and images, as if written from one document. Should WeasyPrint
    need a page again after its part was painted, or a part have links or
    anchors (WeasyPrint reads them for every page before painting the
    first), every part is laid out again and the PDF written the ordinary
    way: the same output, without the memory saving. ``options`` go to
    ``write_pdf``. Raises :class:`RenderError` when a resource was blocked.
    """
    if not parts:
        raise RenderError("nothing to print", [Problem(where or "build", "nothing to print", code="empty")])
    with layoutcontexts.recorded([]) as contexts:
        first = parts[0][1]()
    chunks = [_Chunk(parts[0][1], parts[0][0], first, contexts)] + [_Chunk(make, count) for count, make in parts[1:]]
    shell = first.copy([])  # the first document's metadata, fonts and colour profiles, none of its pages
    del first
    pages = [LazyPage(chunk, i) for chunk in chunks for i in range(chunk.count)]
    try:
        with _contained(where) as messages:
            data = shell.copy(pages).write_pdf(**options)
    except _Restart:
        del pages, chunks
        return pdf_bytes([make() for _, make in parts], where, **options)
    _check_blocked([f for chunk in chunks for f in chunk.fetchers], where)  # SVG images fetch while drawing
    return data, _warnings(messages, where)


def write_documents(documents: list[Document], target: Path, where: str = "", **options: Any) -> list[Problem]:
    """Write the pages of every document as one PDF to ``target``, atomically; returns WeasyPrint's warnings."""
    data, problems = pdf_bytes(documents, where or str(target), **options)
    with atomic_open(target) as handle:
        handle.write(data)
    return problems


def write_pdf(
    chunks: Iterable[str],
    target: Path,
    roots: list[Path],
    base: Path,
    where: str = "",
    on_chunk: Callable[[int], None] | None = None,
) -> list[Problem]:
    """Lay out each HTML document of ``chunks`` and write all their pages as one PDF to ``target``.

    Laying out in chunks lets a caller show progress (``on_chunk`` is called
    with the chunk's index after each); the pages are joined before writing,
    so fonts and images are embedded once. ``roots`` are the folders
    resources may come from; ``base`` is the base folder for relative URLs.
    Returns WeasyPrint's warnings as problems located at ``where``. Raises
    :class:`RenderError` when a resource was blocked or missing; ``target``
    is then left as it was (the write is atomic).
    """
    where = where or str(target)
    documents, problems = render_documents(chunks, roots, base, where, on_chunk)
    return problems + write_documents(documents, target, where)
