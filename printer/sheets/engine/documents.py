"""WeasyPrint behind one interface: :class:`Engine` lays out a job's HTML documents and writes PDFs, with the
job's output settings (:class:`EngineOptions`), counting what it did. WeasyPrint (0.4 s to import) is imported
only when a document is laid out (:mod:`printer.sheets.pdf`)."""

from __future__ import annotations

import time
from collections import defaultdict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from printer.problems import Problem


@dataclass(frozen=True)
class EngineOptions:
    """What every document of a job is laid out and written with: ``extra_css`` added to each document (the ICC
    profile of a PDF/X output), ``render`` options for WeasyPrint's ``HTML.render`` (``output_intent``) and
    ``write`` options for ``write_pdf`` (``pdf_variant``); :func:`printer.sheets.export.pdfx.cmyk_options` gives
    those of a CMYK PDF/X-4."""

    extra_css: str = ""
    render: Mapping[str, Any] = field(default_factory=dict)
    write: Mapping[str, Any] = field(default_factory=dict)


class Engine:
    """Lays out a job's documents with WeasyPrint and writes their PDFs, reading only files under ``roots``
    (relative URLs from ``base``), with ``options``.

    :attr:`stats` counts the work done, for display only: ``layouts`` and ``pages`` laid out (again after text
    fit: ``pages again``; text-fit pages: ``fit layouts``, ``fit pages``) and seconds spent.
    """

    def __init__(self, roots: list[Path], base: Path, options: EngineOptions | None = None) -> None:
        self.roots = roots
        self.base = base
        self.options = options or EngineOptions()
        self.stats: defaultdict[str, float] = defaultdict(int)

    @property
    def extra_css(self) -> str:
        return self.options.extra_css

    @property
    def render_options(self) -> dict[str, Any]:
        """Options for WeasyPrint's ``HTML.render`` (a copy)."""
        return dict(self.options.render)

    @property
    def write_options(self) -> dict[str, Any]:
        """Options for WeasyPrint's ``write_pdf`` (a copy)."""
        return dict(self.options.write)

    def fresh(self) -> Engine:
        """An engine with the same roots, base and options and no counts (a worker's, for one batch)."""
        return Engine(self.roots, self.base, self.options)

    def documents(self, htmls: Sequence[str], where: str, **options: Any) -> tuple[list[Any], list[Problem]]:
        """Each HTML document of ``htmls`` laid out (:func:`printer.sheets.pdf.render_documents`):
        ``(documents, warnings)``; ``options`` are added to the render options. Raises
        :class:`~printer.problems.RenderError` when a template fails or a resource is blocked."""
        from printer.sheets.pdf import render_documents  # imports WeasyPrint (0.4 s): not before a layout needs it

        return render_documents(list(htmls), self.roots, self.base, where, **{**self.options.render, **options})

    def pdf_bytes(self, documents: list[Any], where: str) -> tuple[bytes, list[Problem]]:
        """The pages of ``documents`` as one PDF (:func:`printer.sheets.pdf.pdf_bytes`): ``(bytes, warnings)``."""
        from printer.sheets.pdf import pdf_bytes

        return pdf_bytes(documents, where, **self.options.write)

    def stream(self, parts: list[tuple[int, Callable[[], Any]]], where: str) -> tuple[bytes, list[Problem]]:
        """One PDF of ``parts`` (``(pages, make)``), each laid out while it is written
        (:func:`printer.sheets.pdf.stream_pdf`): ``(bytes, warnings)``; its seconds count as ``pdf seconds``."""
        from printer.sheets.pdf import stream_pdf

        started = time.perf_counter()
        data, problems = stream_pdf(parts, where, **self.options.write)
        self.stats["pdf seconds"] += time.perf_counter() - started
        return data, problems
