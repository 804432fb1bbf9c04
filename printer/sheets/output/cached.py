"""The face cache (:mod:`printer.sheets.cache`) as one job sees it: each face's key there in the job's context
(:class:`CachedFaces`), the faces found in it with their text-fit sizes, the batches stored in it, and which faces
found there to lay out again together (:func:`scattered`)."""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlparse

from printer.paths import url2pathname
from printer.problems import Problem
from printer.sheets.cache import FaceCache, referenced_files
from printer.sheets.faces.items import PrintItem
from printer.sheets.fit import Overflow
from printer.sheets.job import SheetJob
from printer.sheets.parallel import FacePdf

#: a batch from which a build uses fewer faces than this is *small* (an edit's batch holds the faces it changed);
#: past :data:`SMALL_BATCHES` small batches their faces are laid out again together (see :func:`scattered`)
SMALL_BATCH, SMALL_BATCHES = 8, 4

#: each face laid out: the PDF of its batch (bytes, or the file they were written to) and its page there
LaidOut = dict[str, tuple[FacePdf, int]]


class CachedFaces:
    """``cache`` as ``job`` sees it: :attr:`keys` gives each face's cache key (:meth:`FaceCache.key`) in the job's
    context (its options, stylesheets, WeasyPrint and printer versions), once :meth:`found` has looked its faces
    up."""

    def __init__(self, job: SheetJob, cache: FaceCache) -> None:
        self.job = job
        self.cache = cache
        self.keys: dict[str, str] = {}  # face key -> its key in the face cache
        self._found_context: tuple[str, str] | None = None

    def context(self) -> str:
        """The job's context and base URL in one string: what names a card front's face key entry beside the card
        (:meth:`printer.sheets.faces.registry.FaceRegistry.use_cache`)."""
        return "\0".join(self._context())

    def _context(self) -> tuple[str, str]:
        """``(context, base URL)`` of the job's faces in the cache, found once (the stylesheets read, the files they
        name hashed; the sheet template each face's page is laid out in, and the files it names, hashed too: its
        styles and anything it shows outside the sheet label are part of every face)."""
        if self._found_context is None:
            self._found_context = self._make_context()
        return self._found_context

    def _make_context(self) -> tuple[str, str]:
        from printer import __version__
        from printer.sheets.export.faces import page_layout
        from printer.sheets.libraries import weasyprint_identity

        job = self.job
        base_url = job.engine.base.resolve().as_uri() + "/"
        face_layout = page_layout(job, with_bleed=True)
        sheets = [Path(url2pathname(unquote(urlparse(u).path))) for u in job.renderer.stylesheets()]
        parts: tuple[Any, ...] = (__version__, weasyprint_identity(), face_layout.page, face_layout.slots()[0])
        parts += (job.opts.card, job.opts.bleed, job.opts.safe, job.engine.extra_css)
        parts += (repr(job.engine.render_options), repr(job.engine.write_options))
        context = self.cache.context(parts, sheets, base_url)
        template = job.renderer.find_file("sheet.html.j2")
        try:
            text = template.read_text(encoding="utf-8", errors="replace") if template is not None else ""
        except OSError:
            text = "\0unreadable"  # the build reports it when it renders the sheets
        return self.cache.key(f"{template}\0{text}", context, base_url), base_url

    def chrome_key_of(self, made_of: object, html: Callable[[], str]) -> tuple[str, list[str]]:
        """``(key, files)``: the cache key of the sheets' HTML without faces that ``html()`` gives, in this job's
        context, and the local files that HTML names (an image a sheet template shows, the stylesheets), without
        calling it when a build had it for the same ``made_of`` (everything that HTML is rendered from, with a
        ``repr`` that says all of it) and each of those files has the size and time it had then: a watch's save
        renders no sheet template for the 200 sheets of 900 cards (0.06-0.1 s of each save's 0.3 s), nor does a
        command's one-card edit (the key kept in the face cache, a ``text:`` entry, for the next process). A file
        the HTML names is not part of ``made_of``: one that changed (or went) makes the key again from the HTML, so
        that its new content prints."""
        context, base_url = self._context()
        memo = hashlib.sha256(repr((context, base_url, made_of)).encode()).hexdigest()
        known = self.cache.chrome_keys.get(memo) or _chrome_entry(self.cache.get_text(memo))
        if known is None or any(_stat(path) != (size, time) for path, size, time in known[1]):
            text = html()
            files = sorted({str(path) for path in referenced_files(text, base_url)})
            stats = [(path, *_stat(path)) for path in files]  # taken before the key reads the files
            known = (self.cache.key(text, context, base_url), stats)
            self.cache.put_text(memo, json.dumps({"key": known[0], "files": stats}))
        self.cache.chrome_keys[memo] = known
        return known[0], [path for path, _, _ in known[1]]

    def found(self, keys: Sequence[str]) -> tuple[LaidOut, list[Problem]]:
        """The faces of ``keys`` found in the cache, with their text-fit sizes put back into the job's fitter, and
        the warnings stored with them."""
        context, base_url = self._context()
        faces = self.job.faces
        html, known = faces.html, faces.cache_keys
        self.keys = {}
        for k in keys:  # a card front's key kept from the last build, else found from its HTML (and kept)
            found_key = known.get(k)
            if found_key is None:
                text = str(html[k])
                found_key = self.cache.key(text, context, base_url)
                faces.keep_cache_key(k, found_key, referenced_files(text, base_url))
            self.keys[k] = found_key
        fitter = self.job.fitter
        found: LaidOut = {}
        problems: list[Problem] = []
        for key in keys:
            hit = self.cache.get(self.keys[key])
            if hit is None:
                continue
            data, index, sizes, unfit, warnings = hit
            found[key] = (data, index)
            problems += [p for p in warnings if p not in problems]
            fitter.sizes.update({(key, name): size for name, size in sizes.items()})
            fitter.unfit.update({(key, name): replace(over, face=key) for name, over in unfit.items()})
        return found, problems

    def store(self, laid_out: LaidOut, problems: list[Problem]) -> None:
        """Store each batch that was laid out, with each face's text-fit sizes and unfit boxes."""
        fitter = self.job.fitter
        batches: dict[int, tuple[FacePdf, dict[str, tuple[int, dict[str, float], dict[str, Overflow]]]]] = {}
        for key, (data, index) in laid_out.items():
            sizes = {name: size for (face, name), size in fitter.sizes.items() if face == key}
            unfit = {name: over for (face, name), over in fitter.unfit.items() if face == key}
            batches.setdefault(id(data), (data, {}))[1][self.keys[key]] = (index, sizes, unfit)
        for data, faces in batches.values():
            self.cache.put(data.read_bytes() if isinstance(data, Path) else data, faces, problems)

    def names(self, keys: Sequence[str]) -> dict[str, str]:
        """Each face's name in the PDF (``/F`` and the start of its cache key: the same face, the same name, build
        after build, so that an edit's build can update the last PDF)."""
        return {k: "/F" + self.keys[k][:24] for k in keys}


#: a file the sheets' chrome names, with its size and time (``None``, ``None`` when missing)
NamedStat = tuple[str, int | None, int | None]


def _stat(path: str) -> tuple[int | None, int | None]:
    """``(size, modification time in ns)`` of the file ``path``; ``(None, None)`` when it cannot be read."""
    try:
        found = os.stat(path)
    except OSError:
        return None, None
    return found.st_size, found.st_mtime_ns


def _chrome_entry(text: str | None) -> tuple[str, list[NamedStat]] | None:
    """The chrome's key and named files from their ``text:`` entry (:meth:`CachedFaces.chrome_key_of`); ``None`` for
    no entry, or one written otherwise (a damaged one, or a bare key: its files unknown)."""
    try:
        entry = json.loads(text or "null")
        files = [(str(path), size, time) for path, size, time in entry["files"]]
        return str(entry["key"]), files
    except (ValueError, TypeError, KeyError):  # TypeError: no entry (None), or a bare key (a string)
        return None


def named_files(job: SheetJob, items: Sequence[PrintItem], keys: Sequence[str]) -> list[Path]:
    """The files the faces ``keys`` of ``items`` show, sorted: each
    card's art (its own file, not the copy prepared for print) and each local file their HTML names (an icon, an
    image a template names by its path). A build keeps them for its up-to-date check
    (:func:`printer.sheets.uptodate.remember`): a card's art may be anywhere in the project, outside the folders
    that check walks."""
    base_url = job.engine.base.resolve().as_uri() + "/"
    found: set[str] = set()  # paths as text: a Path each would cost more than the rest (0.02 s for 900 faces)
    for item in items:
        for card in (item.card, item.back_card):
            art = card.art_path() if card is not None else None
            if art is not None:
                found.add(str(art))
    registry = job.faces
    for key in keys:  # a card front's as its key was found (FaceRegistry.named_by_cache_key), else read from its HTML
        kept = registry.named_by_cache_key.get(registry.cache_keys.get(key, ""))
        found.update(kept if kept is not None else map(str, referenced_files(str(registry.html[key]), base_url)))
    return [Path(path) for path in sorted(found)]


def scattered(faces: LaidOut) -> set[str]:
    """The faces to lay out again so that the PDF does not grow with every edit: each batch carries its own subset
    of every font its faces use (a CJK font's is 0.1-0.4 MB), so a face laid out alone by an edit adds a copy of
    each. When the faces found come from more than :data:`SMALL_BATCHES` small batches (under
    :data:`SMALL_BATCH` faces used from each), the faces of the small batches are laid out again, together: one
    batch and one copy of each font instead of one per edit; once a batch made so holds :data:`SMALL_BATCH`
    faces, it is left as it is, so that no edit lays out more than about 40 faces. Measured on 900 real cards:
    7.1 MB after the cold build, 14 MB after 30 one-card edits without this, 4.6-5.1 MB with it."""
    by_batch: dict[int, list[str]] = {}
    for key, (data, _) in faces.items():
        by_batch.setdefault(id(data), []).append(key)
    small = [keys for keys in by_batch.values() if len(keys) < SMALL_BATCH]
    return {key for keys in small for key in keys} if len(small) > SMALL_BATCHES else set()
