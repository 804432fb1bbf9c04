"""The process-level decisions of a build, in one value: :class:`Runtime`, owned by the caller.

A :func:`printer.api.build` call or a :func:`printer.api.watch` session runs its builds with one runtime: the worker
pool and when it starts, the face cache, the up-to-date check, and the memory policy of the C heaps. Nothing of it
is kept between calls in a module: two calls with their own runtimes behave as two processes would. A caller that
wants something kept from one call to the next (a warm pool, say) keeps it in the runtime it passes again.

What stays with :mod:`printer.process` is the collector's state, which belongs to the whole process
(:func:`gc.freeze` is one per process): :func:`printer.process.objects_frozen` and
:func:`printer.process.collector_paused` are shared by every runtime of the process.
"""

from __future__ import annotations

import contextlib
import hashlib
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from printer.api.results import GameBuild
from printer.paths import cache_folder
from printer.problems import Problem
from printer.project import Game, Project
from printer.sheets.plan import BuildRequest

if TYPE_CHECKING:
    from printer.sheets.cache import FaceCache
    from printer.sheets.parallel import JobSpec, Workers


@dataclass
class Runtime:
    """Where and how one call's builds run: a process pool, a face cache, the up-to-date check, the C heaps.

    Policy (set by the caller):

    - ``warm_pool``: the first build of the runtime starts the worker pool as soon as its options are resolved
      (:meth:`ready`), so that the workers import WeasyPrint while this process reads the cards (a command, whose
      process has not imported it). ``False`` for a long-lived process (``printer serve``), whose builds lay a few
      faces out themselves and start the pool only for batches worth sharing out.
    - ``one_arena``: one malloc heap for every thread (:func:`printer.process.one_malloc_arena`), set as the
      runtime opens, before any of its threads starts (``printer build``: a lower peak of memory).

    State (set while it is :meth:`open`): ``workers`` (:class:`printer.sheets.parallel.Workers`) and ``cache``
    (:class:`printer.sheets.cache.FaceCache`, also the store of the up-to-date check; ``None`` with ``--no-cache``).
    A runtime that was never opened builds in this process without a cache.
    """

    warm_pool: bool = True
    one_arena: bool = False
    workers: Workers | None = None
    cache: FaceCache | None = None
    #: whether the pool is still to be started by the first build's plan (see :meth:`ready`)
    pool_due: bool = field(default=True, init=False)

    @contextlib.contextmanager
    def open(self, project: Project, request: BuildRequest, rehearse: bool = False) -> Iterator[Runtime]:
        """This runtime with its pool (``request.jobs``, ``request.scheduler``; with ``rehearse``, each worker lays
        out a face as it starts, for a watch) and face cache (under the project's build folder, unless
        ``request.cache`` is off) for ``request``'s builds; both are closed on the way out (the pool cancelled on an
        exception)."""
        from printer.process import one_malloc_arena
        from printer.sheets.parallel import Workers

        if self.one_arena:
            one_malloc_arena()  # before the pool's and the build's threads start
        folder = cache_folder(project.root, project.build_dir, "faces") if request.cache else None
        if folder is not None:
            from printer.sheets.cache import FaceCache

            self.cache = FaceCache(folder)
        try:
            with Workers(request.jobs, request.scheduler, rehearse) as workers:
                self.workers = workers
                yield self
        finally:
            self.workers = None
            if self.cache is not None:
                self.cache.close()
                self.cache = None

    def ready(self, spec: JobSpec) -> None:
        """Called by a build's plan once the options are resolved: the runtime's first build starts the pool then
        (with ``warm_pool``; :meth:`printer.sheets.parallel.Workers.warm`), later builds find it started or not."""
        due, self.pool_due = self.pool_due, False
        if due and self.warm_pool and self.workers is not None:
            self.workers.warm(spec)

    def before_build(self, project: Project, game: Game, request: BuildRequest) -> None:
        """Before ``game``'s build: a watch's pool (its workers rehearse) is started now, so that it is ready for the
        first save even when the first build is up to date."""
        from printer.api.plan import _job_spec

        workers = self.workers
        if workers is not None and workers.rehearse and workers.can_warm:
            workers.warm(_job_spec(project, game, request))

    def inputs(self, project: Project, game: Game, request: BuildRequest) -> BuildInputs | None:
        """Which build ``request``'s of ``game`` is and what its inputs are now, taken before it reads them; ``None``
        when the up-to-date check does not apply (no cache; ``--since``: a reprint depends on more than the files)."""
        if self.cache is None or request.since:
            return None
        from printer.sheets.uptodate import named_before

        key = build_key(project, game, request)
        return BuildInputs(key, build_signature(project, game, request), named_before(self.cache.store, key))

    def recall(self, inputs: BuildInputs | None) -> GameBuild | None:
        """The last build's result when the build of ``inputs`` is up to date (:mod:`printer.sheets.uptodate`: same
        request, same input files, outputs unchanged), with a note that says so; ``None`` to build."""
        from printer.sheets.uptodate import recall

        if self.cache is None or inputs is None:
            return None
        stored = recall(self.cache.store, inputs.key, inputs.digest)
        remembered = _game_build_from(stored) if stored is not None else None
        if remembered is not None:
            remembered.notes = [*remembered.notes, "up to date: nothing changed since the last build"]
            remembered.stats, remembered.up_to_date = {}, True
            remembered.untidy_faces, remembered.write_whole = 0, False
        return remembered

    def remember(self, inputs: BuildInputs | None, outcome: GameBuild) -> None:
        """Keep ``outcome`` of a build that printed from ``inputs``, for :meth:`recall` while nothing changes."""
        from printer.sheets.uptodate import remember

        if self.cache is None or inputs is None or outcome.failure or outcome.target is None:
            return
        data, named = _game_build_data(outcome), outcome.named_files
        remember(self.cache.store, inputs.key, inputs.digest, data, outcome.paths, named, inputs.named)


@dataclass(frozen=True)
class BuildInputs:
    """A build's ``key`` (:func:`build_key`), its inputs' ``digest`` (:func:`build_signature`; ``None``: too many
    files to tell, it always builds) and the files the last such build named, as they are before this one reads
    them (:func:`printer.sheets.uptodate.named_before`)."""

    key: str
    digest: str | None
    named: dict[str, list[int] | None] = field(default_factory=dict)


def _game_build_data(outcome: GameBuild) -> dict[str, Any]:
    """``outcome`` as JSON data (for :mod:`printer.sheets.uptodate`; see :func:`_game_build_from`)."""
    from dataclasses import asdict

    data = asdict(outcome)
    data["target"] = str(outcome.target) if outcome.target is not None else None
    data["paths"] = [str(p) for p in outcome.paths]
    data["problems"] = [p.as_dict() for p in outcome.problems]
    data.pop("named_files", None)  # kept apart, with each file's size and time (printer.sheets.uptodate.remember)
    return data


def _game_build_from(data: dict[str, Any]) -> GameBuild | None:
    """The :class:`GameBuild` :func:`_game_build_data` made, or ``None`` when ``data`` is not of its shape."""
    try:
        fields = dict(data)
        fields["target"] = Path(data["target"]) if data.get("target") is not None else None
        fields["paths"] = [Path(p) for p in data.get("paths", [])]
        fields["problems"] = [
            Problem(**{k: v for k, v in p.items() if k != "location"}) for p in data.get("problems", [])
        ]
        return GameBuild(**fields)
    except (TypeError, ValueError, KeyError):
        return None


def build_key(project: Project, game: Game, request: BuildRequest) -> str:
    """Which build this is: the project, the game and every field of the request that changes the output."""
    asked = request.output_values()  # the fields that change the output (printer.sheets.plan.request)
    return hashlib.sha256(repr((str(project.root), game.id, asked)).encode()).hexdigest()


def build_signature(project: Project, game: Game, request: BuildRequest) -> str | None:
    """The inputs' signature (:func:`printer.sheets.uptodate.signature`) for a build of ``game``."""
    from printer import __version__
    from printer.sheets.uptodate import game_inputs, signature

    inputs = game_inputs(project, game)
    files = [*inputs.files, *request.read_paths("file")]
    layout_file = request.sheet_layout_file(project, game)
    if layout_file is not None:
        files.append(layout_file)
    folders = [request.cards_dir or inputs.cards, *inputs.templates, *inputs.schemas, inputs.aids, *project.read_also]
    if request.lang is not None:  # a language's player aids (the translations are in the card folder, walked above)
        folders.append(project.root / "rules" / game.id)
    return signature([__version__, build_key(project, game, request)], files, folders)
