"""HTML to PDF with WeasyPrint, contained to the project and written atomically.

The URL fetcher allows only ``data:`` URLs and files under the allowed
roots (the project and printer's bundled templates); anything else, a
``http:`` URL or a file outside the project reached through ``..`` or a
symbolic link, stops the build with a :class:`RenderError`. WeasyPrint's
own warnings (bad CSS, say) are collected as printer warnings.
"""

from __future__ import annotations

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
    collect = _Collect()
    logger = logging.getLogger("weasyprint")
    logger.addHandler(collect)
    fetcher = ProjectFetcher(roots)
    base_url = base.resolve().as_uri() + "/"
    try:
        documents = []
        for index, html in enumerate(chunks):
            documents.append(HTML(string=html, base_url=base_url, url_fetcher=fetcher).render(
                font_config=font_config(), optimize_images=False))
            if on_chunk:
                on_chunk(index)
        if not documents:
            raise RenderError("nothing to print", [Problem(where or str(target), "nothing to print", code="empty")])
        pages = [page for document in documents for page in document.pages]
        with atomic_open(target) as handle:
            documents[0].copy(pages).write_pdf(handle)
    except BlockedFetch as exc:
        raise RenderError(str(exc), [Problem(where or str(target), str(exc), "put the file inside the project folder",
                                             code="blocked-fetch")]) from None
    except FatalURLFetchingError as exc:
        cause = exc.__cause__
        message = f"{exc}: {cause}" if cause else str(exc)
        raise RenderError(message, [Problem(where or str(target), message, code="fetch")]) from None
    finally:
        logger.removeHandler(collect)
    return [Problem(where or str(target), f"WeasyPrint: {m}", severity=WARNING, code="weasyprint") for m in collect.messages]
