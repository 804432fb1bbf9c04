"""A job's PDF from its faces: each distinct face laid out once (in this process, on workers, or found in the face
cache), the sheets' marks and labels laid out without faces, and the faces imposed on the sheets.

:func:`build_sheets` is the step :func:`printer.api.build` takes for each game once the
:class:`~printer.sheets.job.SheetJob` has rendered the faces' HTML: :mod:`printer.sheets.parallel` lays the
faces out (a process pool or a Dask cluster), :mod:`printer.sheets.output.cached` keeps them between builds,
:mod:`printer.sheets.output.chrome` lays out the sheets without faces and :mod:`printer.sheets.output.imposition`
places the faces on the sheets as form XObjects.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from printer.cards.model import pack_cards
from printer.problems import WARNING, Problem
from printer.sheets.compose import layout_sheets
from printer.sheets.faces.items import PrintItem
from printer.sheets.job import SheetJob
from printer.sheets.layout import SheetLayout
from printer.sheets.output import chrome as sheet_chrome
from printer.sheets.output.cached import CachedFaces, LaidOut, named_files, scattered
from printer.sheets.output.chrome import Chrome
from printer.sheets.output.imposition import Imposition, impose_faces
from printer.sheets.output.outcome import SheetsOutcome
from printer.sheets.parallel import Workplace
from printer.sheets.placed import Sheet
from printer.sheets.verify import Checked as Checked  # the count build_sheets fills (printer.api makes one)
from printer.sheets.verify import Verify, blank_faces, check_sheets
from printer.spill import Spill

#: a build that leaves faces untidy (a watch's save) and lays out at most this many faces pads their fonts' new
#: subsets (:func:`printer.sheets.fontsubsets.padded`): the next save finds the glyphs it adds in them (a new subset
#: of a Noto CJK font took 20-50 ms), and its faces are laid out again together once edits have left enough of them
#: (:func:`printer.sheets.output.cached.scattered`)
PADDED_UP_TO = 8
#: a build that lays out this many faces or more packs its cards' data meanwhile (:func:`pack_cards`: a few
#: microseconds a card, against 10-30 milliseconds a face laid out)
PACK_CARDS_FROM = 64


@dataclass(frozen=True)
class SheetsRequest:
    """What :func:`build_sheets` writes: the PDF ``target`` (``title`` in its metadata and warnings), ``strict``,
    ``tidy`` and ``verify`` as that function says."""

    target: Path
    title: str = ""
    strict: bool = False
    tidy: bool = True
    verify: Verify | None = None


def build_sheets(
    job: SheetJob,
    items: Sequence[PrintItem],
    layout: SheetLayout,
    request: SheetsRequest,
    place: Workplace | None = None,
    progress: Callable[[int], None] | None = None,
    checked: Checked | None = None,
    meanwhile: Callable[[], object] | None = None,
) -> SheetsOutcome:
    """Print ``items`` on sheets to the PDF ``request.target``; returns the problems found and what was left untidy.

    Each distinct face is laid out once, on a page of its own at the trim
    size plus the bleed (text fitted there), and imposed on the sheets as a
    form XObject (:mod:`printer.sheets.impose`); the marks, guides and labels
    of every sheet are laid out in one document without the faces. Faces are
    laid out in batches on ``place.workers`` when given (they rebuild the job from
    ``place.spec``; :mod:`printer.sheets.parallel`), else in this process. Faces
    found in ``place.cache`` (:mod:`printer.sheets.cache`) are not laid out again,
    and those laid out are stored there; faces found there that edits laid
    out one by one are laid out again together once there are enough of them
    (:func:`printer.sheets.output.cached.scattered`), or, with ``tidy`` false, left for a later build and
    counted in the outcome's ``untidy_faces`` (the same for a PDF to write
    whole, its ``write_whole``: :func:`printer.sheets.output.imposition.impose_faces`); with ``tidy`` false, up to
    :data:`PADDED_UP_TO` faces laid out have their fonts' subsets padded. With ``strict``, any warning (text that does not
    fit, missing art, a face that prints blank: :func:`printer.sheets.verify.blank_faces`) leaves ``target``
    unwritten. With ``verify``, the written sheets are checked against the faces laid out alone
    (:func:`printer.sheets.verify.check_sheets`, counted in ``checked``). ``meanwhile()`` is called once, in this
    process (the build's manifest is made then): before the cards' data is set aside when many faces are to be
    laid out, else while workers lay the faces out, else once the PDF is written, so that a watch's one-card save
    laid out here updates the PDF first. Raises
    :class:`~printer.problems.RenderError` when a template fails or a
    resource is blocked.
    """
    from printer.sheets.parallel import lay_out_faces

    target, title, strict, tidy, verify = request.target, request.title, request.strict, request.tidy, request.verify
    workers, spec, cache = (place.workers, place.spec, place.cache) if place is not None else (None, None, None)
    cached = CachedFaces(job, cache) if cache is not None else None
    job.faces.use_cache(cache, cached.context() if cached is not None else None)
    sheets, keys, faces, problems = _faces_found(job, items, layout, cached)
    per_page = 1 if layout.fold or job.opts.duplex == "none" else 2
    n_sheets = len(sheets) // per_page
    on_batch = _sheets_progress(progress, n_sheets)
    outcome = SheetsOutcome(named=named_files(job, items, keys) if cached is not None else [])  # HTML not aside yet
    again = scattered(faces)
    if again and not tidy:
        outcome.untidy_faces = len(again)
        again = set()
    todo = [k for k in keys if k not in faces or k in again]
    target.parent.mkdir(parents=True, exist_ok=True)
    run_meanwhile = _once(meanwhile)
    if len(todo) >= PACK_CARDS_FROM:  # their HTML is made: their data is not needed while the faces are laid out
        run_meanwhile()  # before the cards' data is set aside
        _set_cards_aside(job, items, target.parent)
    chrome: list[Chrome] = []  # the sheets without faces, made while workers lay out
    # the batches' PDFs until imposed, beside the output (a system temporary folder may be memory: tmpfs), named as
    # atomic_open names its temporary file, so that the next build removes one a killed build left
    spill_dir = tempfile.TemporaryDirectory(prefix=f".{target.name}.{os.getpid()}.", suffix=".tmp", dir=target.parent)

    def while_laid_out(waiting: bool) -> None:  # the sheets' chrome; the manifest too while workers lay out
        chrome.append(sheet_chrome.sheets_chrome(job, sheets, layout, title, cached))
        if waiting:
            run_meanwhile()

    with spill_dir as spill:
        laid_out, more = lay_out_faces(
            job, todo, title, workers, spec, on_batch, meanwhile=while_laid_out, spill=Path(spill),
            padded=not tidy and len(todo) <= PADDED_UP_TO,
        )  # fmt: skip
        problems += [p for p in more if p not in problems]
        if cached is not None and laid_out:
            cached.store(laid_out, more)
        faces.update(laid_out)
        del laid_out  # held in faces now: not a second table of every face while imposing
        _check_blank(job, items, keys, faces, verify, problems)
        job.engine.stats["faces from cache"] += len(keys) - len(todo)
        job.engine.stats["faces laid out"] += len(todo)
        names = cached.names(keys) if cached is not None else None
        outcome.named = sorted({*outcome.named, *map(Path, chrome[0].named)})  # an image the sheet template shows
        step = Imposition(job, sheets, layout, faces, chrome[0], names, target, cache, not again, tidy, strict)
        found = impose_faces(step, problems, outcome)
        if verify is not None and not (strict and found):
            more = check_sheets(
                job, items, sheets, faces, target, verify.dpi, verify.tolerance, verify.severity, checked
            )
            found += [p for p in more if p not in found]
    run_meanwhile()  # few faces were laid out here: the PDF is written first (what a watch waits for)
    outcome.problems = found
    return outcome


def _faces_found(
    job: SheetJob, items: Sequence[PrintItem], layout: SheetLayout, cached: CachedFaces | None
) -> tuple[list[Sheet], list[str], LaidOut, list[Problem]]:
    """The sheets of ``items`` (their faces' HTML rendered), the distinct faces' keys, and the faces the face cache
    holds with their warnings. The entries rendering the faces makes in the cache (each card front's HTML and key)
    are written together at the end (:meth:`~printer.sheets.cache.FaceCache.deferred`)."""
    from printer.sheets import sandbox
    from printer.sheets.cputime import row
    from printer.sheets.export.faces import distinct_faces

    deferred = cached.cache.deferred() if cached is not None else contextlib.nullcontext()
    with deferred, row(sandbox.RENDER_SECONDS):  # every face's render watched by one timer
        sheets = layout_sheets(job.faces, items, layout, with_html=False)
        keys = [face.key for face in distinct_faces(job, items)]
        faces, problems = cached.found(keys) if cached is not None else ({}, [])
    return sheets, keys, faces, problems


def _check_blank(
    job: SheetJob,
    items: Sequence[PrintItem],
    keys: list[str],
    faces: LaidOut,
    verify: Verify | None,
    problems: list[Problem],
) -> None:
    """Add to ``problems`` each face of ``keys`` that prints blank (:func:`printer.sheets.verify.blank_faces`; an
    error with ``verify``'s severity), the time it took counted in the job's stats."""
    started = time.perf_counter()
    blank = blank_faces(job, items, keys, faces, verify.severity if verify is not None else WARNING)
    problems += [p for p in blank if p not in problems]
    job.engine.stats["blank check seconds"] += time.perf_counter() - started


def _once(action: Callable[[], object] | None) -> Callable[[], None]:
    """A call of ``action`` that does it the first time only (``None``: nothing)."""
    pending = [action] if action is not None else []

    def run() -> None:
        while pending:
            pending.pop()()

    return run


def _sheets_progress(progress: Callable[[int], None] | None, n_sheets: int) -> Callable[[int, int], None]:
    """What the face batches call with ``(finished, total)``: ``progress`` told how many more of the ``n_sheets``
    sheets that reaches."""
    done = [0]

    def on_batch(finished: int, total: int) -> None:
        if progress:
            reached = n_sheets * finished // total
            progress(reached - done[0])
            done[0] = reached

    return on_batch


def _set_cards_aside(job: SheetJob, items: Sequence[PrintItem], folder: Path) -> None:
    """Pack the cards' data and the faces' HTML into a spill file in ``folder`` while the faces are laid out."""
    aside = _spill(folder)
    pack_cards((card for item in items for card in (item.card, item.back_card)), aside)
    if aside is not None:
        job.faces.html.set_aside(aside)


def rehearse(job: SheetJob, items: Sequence[PrintItem], layout: SheetLayout) -> None:
    """Make in this process what :func:`build_sheets` makes here for ``items`` (a card), and throw it away: the
    faces' HTML and the HTML of their sheet's marks (the templates compiled: Jinja keeps them for the process,
    :mod:`printer.sheets.sandbox`), with the modules imposing imports. Nothing is laid out or written. A watch
    does it once it has built, so that its first save does not pay for it (0.15 s on 900 real cards)."""
    import pikepdf  # noqa: F401

    from printer.sheets import impose, pdfstream  # noqa: F401

    sheets = layout_sheets(job.faces, items, layout, with_html=False)
    job.renderer.document([replace(s, faces=[]) for s in sheets], layout, marks=False, css=job.engine.extra_css)


def _spill(folder: Path) -> Spill | None:
    """A spill file in the output folder for the cards' data and the faces' HTML while the faces are laid out (not
    the system's temporary folder, which may be memory), or ``None`` when it cannot be made there."""
    try:
        return Spill(folder)
    except OSError:
        return None
