"""The faces imposed on the sheets and written (:func:`impose_faces`): each face page placed on its slots over the
sheets' chrome (:mod:`printer.sheets.impose`), the PDF written whole or, for an edit's build, as an update of the
last one while it has not grown past :data:`GROWN`."""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NamedTuple

from printer.fsutil import atomic_open
from printer.problems import Problem
from printer.sheets.cache import FaceCache
from printer.sheets.job import SheetJob
from printer.sheets.layout import SheetLayout
from printer.sheets.output.cached import LaidOut
from printer.sheets.output.chrome import Chrome
from printer.sheets.output.outcome import SheetsOutcome
from printer.sheets.placed import Sheet

#: an edit's build updates the last PDF (:func:`printer.sheets.impose.impose`) until it has grown past this many
#: times its size when last written whole; then it writes it whole again, without the faces no page draws any more
GROWN = 1.5


@dataclass(frozen=True)
class Imposition:
    """What imposing a job's faces takes: the ``sheets`` of ``layout`` (faces without HTML), every face laid out
    (``faces``), the sheets' ``chrome``, the PDF's ``names`` of the faces (from the face cache, so that an edit's
    build can update the last PDF; ``None`` without a cache) and the ``target`` PDF. ``cache`` keeps what was
    written, to update it next time; ``update`` false writes it whole (faces laid out again together keep their
    names: the last PDF would keep their old copies); ``tidy`` false updates a last PDF grown past :data:`GROWN`
    all the same (a watch's save). With ``strict``, nothing is written when there is a problem."""

    job: SheetJob
    sheets: list[Sheet]
    layout: SheetLayout
    faces: LaidOut
    chrome: Chrome
    names: dict[str, str] | None
    target: Path
    cache: FaceCache | None = None
    update: bool = True
    tidy: bool = True
    strict: bool = False


def impose_faces(step: Imposition, problems: list[Problem], outcome: SheetsOutcome) -> list[Problem]:
    """The faces imposed on the sheets' chrome and written to ``step.target``, after ``problems`` found before;
    returns the problems. A last PDF grown past :data:`GROWN` but updated all the same sets
    ``outcome.write_whole``."""
    from printer.sheets.export.faces import page_layout
    from printer.sheets.impose import impose, same_places

    job, cache, target = step.job, step.cache, step.target
    started = time.perf_counter()
    problems += [p for p in step.chrome.problems if p not in problems]
    problems += [p for p in job.fitter.fit_problems() if p not in problems]
    face_layout = page_layout(job, with_bleed=True)
    slot = face_layout.slots()[0]
    previous = previous_output(cache, target, step.chrome.key) if cache is not None and step.update else None
    if previous is not None and len(previous.data) > GROWN * previous.base:
        if step.tidy:
            previous = None  # written whole: the faces no page draws any more are left out
        else:
            outcome.write_whole = True
    problems = list(job.renderer.problems) + problems
    if step.strict and problems:
        return problems
    digest = ""
    last = (previous.data, previous.drawing) if previous is not None else None
    with atomic_open(target) as handle:  # saved straight into the file: no copy of the whole PDF in memory
        args = (step.chrome.pdfs, step.sheets, step.faces, face_layout.page, (slot.x, slot.y), step.layout.page[1])
        try:
            _, drawing = impose(*args, step.names, last, into=handle)
        except Exception:  # noqa: BLE001 (the last PDF could not be updated: it is written whole)
            if last is None:
                raise
            handle.seek(0)
            handle.truncate()
            previous = None
            _, drawing = impose(*args, step.names, None, into=handle)
        job.engine.stats["impose seconds"] += time.perf_counter() - started
        handle.flush()
        size = os.fstat(handle.fileno()).st_size
        job.engine.stats["pdf bytes"] = size
        updated = previous is not None and same_places(previous.drawing, drawing)  # the last PDF, and an update
        if cache is not None and step.chrome.key:  # the bytes this build wrote, read back before they replace target
            handle.seek(len(previous.data) if previous is not None and updated else 0)
            sha = previous.sha.copy() if previous is not None and updated else hashlib.sha256()
            for block in iter(lambda: handle.read(1 << 20), b""):
                sha.update(block)
            digest = sha.hexdigest()
    if cache is not None and digest:
        base = previous.base if previous is not None and updated else size
        plan = {"digest": digest, "chrome": step.chrome.key, "drawing": drawing, "base": base}
        cache.put_blob("impose:" + str(target), json.dumps(plan).encode())
        with contextlib.suppress(OSError):
            cache.written[str(target)] = (_file_state(target), digest, sha.copy())
    if job.engine.write_options.get("pdf_variant"):
        from printer.sheets.export.pdfx import rgb_report

        problems += rgb_report(target)
    return problems


def _file_state(path: Path) -> tuple[int, int, int, int]:
    """``path``'s file number, size, and times of change (ns; the inode's cannot be set back): another file, or the
    same one written again, has others."""
    stat = path.stat()
    return (stat.st_ino, stat.st_size, stat.st_mtime_ns, stat.st_ctime_ns)


class Previous(NamedTuple):
    """The PDF a build wrote to its target: its bytes, the plan it was drawn from (:func:`printer.sheets.impose.plan`),
    the size it had when last written whole (``base``) and the SHA-256 of its bytes, to go on hashing an update."""

    data: bytes
    drawing: list[list[tuple[str, str]]]
    base: int
    sha: Any


def previous_output(cache: FaceCache, target: Path, chrome_key: str | None) -> Previous | None:
    """The PDF last written to ``target`` from the same sheets' chrome, with its plan, if it is there unchanged."""
    stored = cache.get_blob("impose:" + str(target)) if chrome_key else None
    if stored is None:
        return None
    try:
        plan = json.loads(stored)
        digest, key, base = plan["digest"], plan["chrome"], int(plan.get("base", 0))
        drawing = [[(str(name), str(ops)) for name, ops in sheet] for sheet in plan["drawing"]]
        state = _file_state(target)
        data = target.read_bytes()
        known = cache.written.get(str(target))
        same = known is not None and known[0] == state == _file_state(target) and known[1] == digest
        if same and known is not None and len(data) == state[1]:
            sha = known[2].copy()  # the file this process wrote, as it wrote it: not hashed again (15 MB: 12 ms)
        else:
            sha = hashlib.sha256(data)
    except Exception:  # no such file, or a damaged entry
        return None
    if key != chrome_key or sha.hexdigest() != digest:
        return None
    return Previous(data, drawing, base, sha)
