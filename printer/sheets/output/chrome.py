"""The sheets without their faces (marks, guides, labels), laid out on this process a few documents at a time while
the faces are laid out, and kept in the face cache."""

from __future__ import annotations

import gc
from dataclasses import replace
from typing import NamedTuple

from printer.problems import Problem
from printer.process import objects_frozen
from printer.sheets.job import SheetJob
from printer.sheets.layout import SheetLayout
from printer.sheets.output.cached import CachedFaces
from printer.sheets.placed import Sheet

#: sheets without faces (marks, guides, labels) laid out per WeasyPrint document
CHROME_PER_CHUNK = 64


class Chrome(NamedTuple):
    """The sheets without their faces: a PDF per document of :data:`CHROME_PER_CHUNK` sheets, their key in the face
    cache (``None`` without a cache), the problems laying them out found and the local files their HTML names
    (found with a face cache: :meth:`~printer.sheets.output.cached.CachedFaces.chrome_key_of`; a build keeps them
    for its up-to-date check)."""

    pdfs: list[bytes]
    key: str | None
    problems: list[Problem]
    named: tuple[str, ...] = ()


def sheets_chrome(
    job: SheetJob, sheets: list[Sheet], layout: SheetLayout, title: str, cached: CachedFaces | None
) -> Chrome:
    """The PDFs of ``sheets`` without their faces (marks, guides, labels: one page a sheet, :data:`CHROME_PER_CHUNK`
    sheets a PDF), from the face cache (``cached``) when it holds them."""
    chrome = [replace(sheet, faces=[]) for sheet in sheets]
    parts = [chrome[i : i + CHROME_PER_CHUNK] for i in range(0, len(chrome), CHROME_PER_CHUNK)]
    made: list[str] = []

    def htmls() -> list[str]:
        if not made:
            css = job.engine.extra_css
            made.extend(job.renderer.document(part, layout, marks=False, title=title, css=css) for part in parts)
        return made

    key: str | None = None
    named: tuple[str, ...] = ()
    if cached is not None:
        key, files = cached.chrome_key_of(_made_of(job, chrome, layout, title), lambda: "".join(htmls()))
        named = tuple(files)
    if cached is not None and key:
        found = [cached.cache.get_blob(f"{key}:{i}") for i in range(len(parts))]
        if all(data is not None for data in found):
            return Chrome([data for data in found if data is not None], key, [], named)
    pdfs, problems = chrome_pdf(job, htmls(), title or "build")
    if cached is not None and key and not problems:
        for i, data in enumerate(pdfs):
            cached.cache.put_blob(f"{key}:{i}", data)
    return Chrome(pdfs, key, problems, named)


def _made_of(job: SheetJob, chrome: list[Sheet], layout: SheetLayout, title: str) -> tuple[object, ...]:
    """What the HTML of the sheets without faces ``chrome`` is rendered from (:meth:`Renderer.document`
    with ``sheet.html.j2``): the sheets (marks, guides, numbers, captions), the page, the title, the CSS added, the
    language's words, the game's settings, and the sheet template found (its place, size and time; the game's
    template folders are in :meth:`~printer.sheets.faces.registry.FaceRegistry.signature`), by printer's version.
    The files its HTML names are checked apart (:meth:`~printer.sheets.output.cached.CachedFaces.chrome_key_of`)."""
    from printer import __version__

    template = job.renderer.find_file("sheet.html.j2")
    try:
        stat = (template.stat().st_size, template.stat().st_mtime_ns) if template is not None else None
    except OSError:
        stat = None
    renderer = job.renderer
    view = renderer.game.template_view()
    made_of = (__version__, str(template), stat, chrome, layout.page, title, job.engine.extra_css, renderer.lang, view)
    return (*made_of, job.faces.signature())  # the template folders and options too: the key outlives the process


def chrome_pdf(job: SheetJob, htmls: list[str], where: str) -> tuple[list[bytes], list[Problem]]:
    """The sheets without their faces (marks, guides, labels): a PDF of each document of ``htmls``, laid out and
    written one at a time (one PDF of all of them held every page's drawing until written: 40 MB for 2,000
    pages).

    A laid-out document's boxes refer to each other, so only Python's cyclic collector frees them, and it walks
    the oldest generation (where a document's boxes are by the time it is written) only once it has grown by a
    quarter: with the cards and tables of a large job alive, rarely. Left to it, the documents of 9,000 cards
    (32) piled up 12 MB of garbage, and the process's peak grew by 7 MB (measured with glibc's ``mallinfo2`` and
    Python's arena count at each step). So each document is collected once written, with the objects alive before
    the first frozen (:func:`gc.freeze`: not walked by these collections, about 0.06 s each at 9,000 cards instead
    of 0.16) and unfrozen after the last (see :func:`printer.process.objects_frozen`). The garbage already there is collected first, not
    frozen with them (a build laying its faces out in this process leaves their documents': frozen, they raised its
    peak by 2 MB)."""
    pdfs: list[bytes] = []
    found: list[Problem] = []
    with objects_frozen():
        for html in htmls:
            documents, warnings = job.engine.documents([html], where)
            data, more = job.engine.pdf_bytes(documents, where)
            del documents
            gc.collect()
            pdfs.append(data)
            found += [w for w in warnings + more if w not in found]
    return pdfs, found
