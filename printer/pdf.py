"""HTML to PDF with WeasyPrint, contained to the project and written atomically.

The URL fetcher allows only ``data:`` URLs and files under the allowed
roots (the project and printer's bundled templates); anything else, a
``http:`` URL or a file outside the project reached through ``..`` or a
symbolic link, stops the build with a :class:`RenderError`. WeasyPrint's
own warnings (bad CSS, say) are collected as printer warnings.
"""

from __future__ import annotations

import contextlib
import logging
from pathlib import Path
from typing import Callable, Iterable
from urllib.parse import unquote, urlparse
from urllib.request import url2pathname

from weasyprint import HTML
from weasyprint.text.fonts import FontConfiguration
from weasyprint.urls import FatalURLFetchingError, URLFetcher

from .errors import WARNING, Problem, RenderError
from .fsutil import atomic_open


class BlockedFetch(FatalURLFetchingError):
    """A template or card asked for a resource outside the project."""


class ProjectFetcher(URLFetcher):
    """Fetches ``data:`` URLs and files under ``roots`` only; raises :class:`BlockedFetch` otherwise."""

    def __init__(self, roots: list[Path]):
        super().__init__(allowed_protocols={"file", "data"}, timeout=5, allow_redirects=False, fail_on_errors=True)
        self.roots = [Path(r).resolve() for r in roots]

    def fetch(self, url: str, headers=None):
        scheme = url.split(":", 1)[0].lower()
        if scheme == "data":
            return super().fetch(url, headers)
        if scheme != "file":
            raise BlockedFetch(f"blocked {url}: only files inside the project and data: URLs may be used")
        path = Path(url2pathname(unquote(urlparse(url).path))).resolve()
        if not any(path.is_relative_to(root) for root in self.roots):
            raise BlockedFetch(f"blocked {url}: the file is outside the project")
        return super().fetch(url, headers)


class _Collect(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.messages: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.messages.append(record.getMessage())


_FONTS: FontConfiguration | None = None


def font_config() -> FontConfiguration:
    """One shared :class:`FontConfiguration` for every document of the process."""
    global _FONTS
    if _FONTS is None:
        _FONTS = FontConfiguration()
    return _FONTS


@contextlib.contextmanager
def _contained(where: str):
    """Collect WeasyPrint's warnings; turn blocked or failed fetches into :class:`RenderError`."""
    collect = _Collect()
    logger = logging.getLogger("weasyprint")
    logger.addHandler(collect)
    try:
        yield collect.messages
    except BlockedFetch as exc:
        raise RenderError(str(exc), [Problem(where, str(exc), "put the file inside the project folder",
                                             code="blocked-fetch")]) from None
    except FatalURLFetchingError as exc:
        cause = exc.__cause__
        message = f"{exc}: {cause}" if cause else str(exc)
        raise RenderError(message, [Problem(where, message, code="fetch")]) from None
    finally:
        logger.removeHandler(collect)


def _warnings(messages: list[str], where: str) -> list[Problem]:
    return [Problem(where, f"WeasyPrint: {m}", severity=WARNING, code="weasyprint") for m in messages]


def render_documents(chunks: Iterable[str], roots: list[Path], base: Path, where: str = "",
                     on_chunk: Callable[[int], None] | None = None, **options) -> tuple[list, list[Problem]]:
    """Lay out each HTML document of ``chunks`` with WeasyPrint; returns ``(documents, warnings)``.

    ``options`` go to ``HTML.render`` (e.g. ``output_intent``). Raises
    :class:`RenderError` when a resource was blocked or missing.
    """
    fetcher = ProjectFetcher(roots)
    base_url = base.resolve().as_uri() + "/"
    documents = []
    with _contained(where) as messages:
        for index, html in enumerate(chunks):
            documents.append(HTML(string=html, base_url=base_url, url_fetcher=fetcher).render(
                font_config=font_config(), optimize_images=False, **options))
            if on_chunk:
                on_chunk(index)
    return documents, _warnings(messages, where)


def render_one(html: str, roots: list[Path], base: Path, where: str = "", **options):
    """One HTML document laid out: ``(document, warnings)``."""
    documents, problems = render_documents([html], roots, base, where, **options)
    return documents[0], problems


def pdf_bytes(documents: list, where: str = "", **options) -> tuple[bytes, list[Problem]]:
    """The pages of every document joined into one PDF, as bytes; ``options`` go to ``write_pdf`` (``pdf_variant``)."""
    if not documents:
        raise RenderError("nothing to print", [Problem(where or "build", "nothing to print", code="empty")])
    pages = [page for document in documents for page in document.pages]
    with _contained(where) as messages:
        data = documents[0].copy(pages).write_pdf(**options)
    return data, _warnings(messages, where)


def write_documents(documents: list, target: Path, where: str = "", **options) -> list[Problem]:
    """Write the pages of every document as one PDF to ``target``, atomically; returns WeasyPrint's warnings."""
    data, problems = pdf_bytes(documents, where or str(target), **options)
    with atomic_open(target) as handle:
        handle.write(data)
    return problems


def write_pdf(chunks: Iterable[str], target: Path, roots: list[Path], base: Path, where: str = "",
              on_chunk: Callable[[int], None] | None = None) -> list[Problem]:
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
