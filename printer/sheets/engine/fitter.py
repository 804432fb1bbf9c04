"""Text fit as a loop of layouts: :class:`Fitter` lays a job's sheets out through its
:class:`~printer.sheets.engine.documents.Engine`, finds the fit boxes that overflow (:mod:`printer.sheets.fit`)
and shrinks them on small one-face-per-page documents until each fits or is at its minimum, laying out again only
the sheets that hold them; it writes PDFs of sheets so laid out, one chunk in memory at a time."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import replace
from functools import partial
from typing import Any

from markupsafe import Markup

from printer.problems import WARNING, Problem
from printer.sheets.engine.documents import Engine
from printer.sheets.faces.registry import FaceRegistry, Owner, owner_where
from printer.sheets.fit import FitSizes, Overflow, find_overflows, page_overflows
from printer.sheets.layout import SheetLayout, single_card_layout
from printer.sheets.placed import Face, Sheet

#: the most rounds of layouts a face's text fit takes
FIT_ROUNDS = 10


class Fitter(FitSizes):
    """The text-fit sizes of one job's faces (:class:`~printer.sheets.fit.FitSizes`: the search for each fit box)
    and the loop of layouts that finds them, through ``engine``, for the faces of ``faces``."""

    def __init__(self, faces: FaceRegistry, engine: Engine) -> None:
        super().__init__()
        self.faces = faces
        self.engine = engine
        self._measured: set[str] = set()  # faces fitted by fit_faces

    def fitted(self, face: Face) -> Face:
        """``face`` with the text-fit font sizes chosen so far written into its HTML."""
        if not face.key:
            return face
        html = self.apply(face.key, face.html)
        return face if html is face.html else replace(face, html=html)

    def document_html(self, sheets: list[Sheet], layout: SheetLayout, title: str = "", label: bool = True) -> str:
        """The HTML of ``sheets`` (one page each), faces at their fitted sizes."""
        fitted = [replace(sheet, faces=[self.fitted(f) for f in sheet.faces]) for sheet in sheets]
        return self.faces.renderer.document(
            fitted, layout, marks=False, title=title, css=self.engine.extra_css, label=label
        )

    def _fit_faces(self, keys: set[str]) -> None:
        """Shrink the fit boxes of the faces ``keys`` on a one-face-per-page document until each fits or is at its minimum."""
        layout = single_card_layout(self.faces.opts.card, 0.0)
        slot = layout.slots()[0]
        pending = set(keys)
        for _ in range(FIT_ROUNDS):
            if not pending:
                break
            sheets = [
                Sheet(
                    "front",
                    [Face(self.faces.html[k], slot.x, slot.y, *self.faces.opts.card, key=k, safe=self.faces.opts.safe)],
                    i + 1,
                )
                for i, k in enumerate(sorted(pending))
            ]
            html = self.document_html(sheets, layout, label=False)
            documents, _ = self.engine.documents([html], "text fit")
            self.engine.stats["fit layouts"] += 1
            self.engine.stats["fit pages"] += len(sheets)
            pending = self.shrink(find_overflows(documents[0]), pending)
        for key, (lo, _) in self.bounds.items():
            if lo is not None and key[0] in keys:
                self.sizes[key] = lo  # the largest size seen to fit, should the search stop early

    def fit_faces(self, faces: Sequence[tuple[Markup, Owner]]) -> list[Markup]:
        """Each face's HTML with its text fitted, as on card sheets, for printing it anywhere else (rules books).

        ``faces`` are ``(html, owner)``, the owner ``(where, name, card or
        None)`` naming the card in warnings; faces are laid out one per page
        at the job's card size and their fit boxes shrunk as in :meth:`lay_out`.
        Boxes that do not fit even at their minimum are in :meth:`fit_problems`.
        """
        keys = [self.faces.key_of(html, owner) for html, owner in faces]
        todo = {k for k in keys if "data-fit" in self.faces.html[k]} - self._measured
        if todo:
            self._fit_faces(todo)
            self._measured |= todo
        return [self.apply(k, self.faces.html[k]) for k in keys]

    def lay_out(
        self, chunk: list[Sheet], layout: SheetLayout, title: str = "", label: bool = True, **options: Any
    ) -> tuple[Any, list[Problem]]:
        """Lay out ``chunk`` (one page per sheet) with text fit; returns ``(document, problems)``.

        The chunk is laid out once at the sizes known so far. Fit boxes that
        overflow are shrunk on one-face-per-page documents of just those faces
        (:meth:`_fit_faces`), then only the sheets that hold them are laid out
        again and their pages put in place of the first ones. A box that still
        overflows at its minimum is remembered for :meth:`fit_problems`.
        """
        where = title or "build"
        options = {**self.engine.render_options, **options}
        started = time.perf_counter()
        document, problems = self._document_of(chunk, layout, title, label, options)
        self.engine.stats["layouts"] += 1
        self.engine.stats["pages"] += len(chunk)
        try:
            overflows = page_overflows(document.pages)
        except RuntimeError as exc:
            return document, problems + [Problem(where, str(exc), severity=WARNING, code="text-fit")]
        todo = {o.face for o in overflows if (o.face, o.name) not in self.unfit}
        if todo and all(len(sheet.faces) == 1 for sheet in chunk):  # face pages: fit on the pages themselves
            document, more = self._fit_face_pages(document, chunk, overflows, todo, layout, title, label, options)
            problems += more
            overflows = page_overflows(document.pages)
        elif todo:
            self.shrink([o for o in overflows if o.face in todo])
            self._fit_faces({o.face for o in overflows if (o.face, o.name) not in self.unfit})
            again = [i for i, sheet in enumerate(chunk) if any(f.key in todo for f in sheet.faces)]
            redone, more = self._document_of([chunk[i] for i in again], layout, title, label, options)
            problems += more
            self.engine.stats["layouts"] += 1
            self.engine.stats["pages again"] += len(again)
            pages = list(document.pages)
            if len(redone.pages) == len(again) and len(pages) == len(chunk):
                for i, page in zip(again, redone.pages):
                    pages[i] = page
                document.pages = pages
            else:  # a sheet did not make exactly one page: lay the whole chunk out again
                document, more = self._document_of(chunk, layout, title, label, options)
                problems += [p for p in more if p not in problems]
            overflows = page_overflows(document.pages)
        for over in overflows:
            self.unfit.setdefault((over.face, over.name), over)
        self.engine.stats["layout seconds"] += time.perf_counter() - started
        return document, problems

    def _fit_face_pages(
        self,
        document: Any,
        chunk: list[Sheet],
        overflows: list[Overflow],
        todo: set[str],
        layout: SheetLayout,
        title: str,
        label: bool,
        options: dict[str, Any],
    ) -> tuple[Any, list[Problem]]:
        """Text fit for a chunk of face pages (one face a page): the search of :meth:`_fit_faces`, each round laid
        out on the faces' own pages rather than on pages of the trim size, so that a face whose last round was at
        its final sizes keeps that round's page and is not laid out once more (a one-card edit whose text
        overflows: 5 layouts -> 3 or 4). Returns ``(document, problems)``, the chunk's pages with the fitted ones
        in place."""
        problems: list[Problem] = []
        keys = [sheet.faces[0].key for sheet in chunk]
        pages = list(document.pages)
        tried: dict[
            int, tuple[tuple[str, float], ...]
        ] = {}  # page index -> the sizes its face was laid out at in the last round
        pending = self.shrink([o for o in overflows if o.face in todo])
        pending = {o.face for o in overflows if (o.face, o.name) not in self.unfit} & pending
        for _ in range(FIT_ROUNDS):
            if not pending:
                break
            indexes = [i for i, key in enumerate(keys) if key in pending]
            laid_out, more = self._document_of([chunk[i] for i in indexes], layout, title, label, options)
            laid = list(laid_out.pages)
            problems += more
            self.engine.stats["fit layouts"] += 1
            self.engine.stats["fit pages"] += len(indexes)
            if len(laid) != len(indexes):  # a face did not make exactly one page: the general way
                self._fit_faces(pending)
                tried = {}
                break
            for i, page in zip(indexes, laid):
                pages[i], tried[i] = page, self._sizes_of(keys[i])
            pending = self.shrink(page_overflows(laid), pending)
        for key, (lo, _) in self.bounds.items():
            if lo is not None and key[0] in todo:
                self.sizes[key] = lo  # the largest size seen to fit, should the search stop early
        again = [i for i, key in enumerate(keys) if key in todo and tried.get(i) != self._sizes_of(key)]
        if again:
            redone, more = self._document_of([chunk[i] for i in again], layout, title, label, options)
            problems += more
            self.engine.stats["layouts"] += 1
            self.engine.stats["pages again"] += len(again)
            if len(redone.pages) != len(again):  # a sheet did not make exactly one page: lay the whole chunk out again
                full, more = self._document_of(chunk, layout, title, label, options)
                return full, problems + more
            for i, page in zip(again, redone.pages):
                pages[i] = page
        document.pages = pages
        return document, problems

    def _document_of(
        self, sheets: list[Sheet], layout: SheetLayout, title: str, label: bool, options: dict[str, Any]
    ) -> tuple[Any, list[Problem]]:
        """``sheets`` laid out at the text-fit sizes chosen so far, as one WeasyPrint document:
        ``(document, problems)``."""
        documents, problems = self.engine.documents(
            [self.document_html(sheets, layout, title, label)], title or "build", **options
        )
        return documents[0], problems

    def _sizes_of(self, face: str) -> tuple[tuple[str, float], ...]:
        """The text-fit sizes chosen so far for ``face``'s boxes."""
        return tuple(sorted((name, size) for (f, name), size in self.sizes.items() if f == face))

    def pdf(
        self,
        chunks: list[list[Sheet]],
        layout: SheetLayout,
        title: str = "",
        label: bool = True,
        progress: Callable[[int], None] | None = None,
        fit_problems: bool = True,
        **options: Any,
    ) -> tuple[bytes, list[Problem]]:
        """The PDF of ``chunks`` of sheets (one page per sheet), text fitted; returns ``(pdf bytes, problems)``.

        Chunks are laid out one at a time while the PDF is written
        (:func:`printer.sheets.pdf.stream_pdf`), so memory holds one chunk's pages,
        not the whole job's. ``progress`` is called with the index of each
        chunk laid out. ``fit_problems`` adds :meth:`fit_problems` to the
        problems. ``options`` go to WeasyPrint's ``render``.
        """
        problems: list[Problem] = []

        def part(index: int, chunk: list[Sheet]) -> Any:
            document, found = self.lay_out(chunk, layout, title, label, **options)
            problems.extend(p for p in found if p not in problems)
            if progress:
                progress(index)
            return document

        data, more = self.engine.stream(
            [(len(chunk), partial(part, i, chunk)) for i, chunk in enumerate(chunks)], title or "build"
        )
        return data, problems + more + (self.fit_problems() if fit_problems else [])

    def fit_problems(self) -> list[Problem]:
        """A warning for each fit box that overflows even at its minimum size, naming each card and field."""
        problems: list[Problem] = []
        for (face, name), over in sorted(self.unfit.items()):
            for owner in self.faces.owners.get(face, ()):
                _, card_name, card = owner
                at = (
                    self.faces.renderer.field_where(card, name)
                    if card is not None and name in card
                    else owner_where(owner)
                )
                problem = Problem(
                    at,
                    f"{card_name}: the {name} does not fit its box even at {over.min_pt:g}pt "
                    f"(the template's minimum); about {(over.ratio - 1) * 100:.0f}% too much",
                    "shorten the text, or lower data-fit-min in the template",
                    WARNING,
                    "text-overflow",
                )
                if problem not in problems:
                    problems.append(problem)
        return problems
