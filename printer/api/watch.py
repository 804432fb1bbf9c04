"""``printer build --watch``: build again each time an input changes."""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

from printer.api.build import (
    Tidy,
    _rehearse,
    build_game,
)
from printer.api.common import load_project
from printer.api.results import (
    GameBuild,
)
from printer.api.runtime import Runtime
from printer.problems import PrinterError, Problem, counted
from printer.project import Game, Project
from printer.sheets.plan import BuildRequest


def watched_inputs(project: Project, request: BuildRequest) -> list[Path]:
    """What :func:`watch` watches for ``request``: the project folder (printer.toml, its cards, templates, CSS, icons
    and art), then what the build reads outside it: ``request.cards_dir``, ``request.deck_file``, ``request.icc``,
    the sheet layout file, each chosen game's card folder, template folders and schema folder, and the project's
    ``read_also`` folders. Absolute paths with links resolved, none inside another; printer's own bundled files are
    left out (they are not edited while a build is watched)."""
    from printer.paths import bundled_root
    from printer.watching import outermost

    chosen = [project.games[g] for g in request.games if g in project.games] or list(project.games.values())
    found: list[Path] = [project.root]
    found += request.read_paths()
    for game in chosen:
        found += [game.cards, *game.template_dirs, game.schema.parent]
        layout_file = request.sheet_layout_file(project, game)
        if layout_file is not None:
            found.append(layout_file)
    found += project.read_also
    bundled = [Path(os.path.realpath(bundled_root() / name)) for name in ("schema", "templates")]
    real = [Path(os.path.realpath(p)) for p in found]
    own = [p for p in real if p.is_relative_to(real[0]) or not any(p.is_relative_to(b) for b in bundled)]
    return outermost(p for p in own if os.path.exists(p))


@dataclass
class _WatchBuilds:
    """The builds of a watch: every game (or some) built as ``request`` says, in each of its languages.

    ``untidy`` holds the games whose last build left faces laid out one by one, to lay out again together.
    """

    root: Path
    request: BuildRequest
    on_game: Callable[[GameBuild], None]
    on_error: Callable[[list[Problem]], object] | None
    runtime: Runtime
    untidy: set[str] = field(default_factory=set)

    def run(self, tidy: Tidy, only: Sequence[str] = (), rehearse: bool = False) -> None:
        """Build the games named in ``only`` (else those of the request); problems go to ``on_error``."""
        self.untidy.difference_update(only)  # a tidy build is tried once: a game gone or broken is not tried every 2 s
        try:
            project = load_project(self.root)
            names = [g for g in only if g in project.games] if only else self.request.games
            if only and not names:
                return
            for game in [project.game(g) for g in names] if names else list(project.games.values()):
                self._build(project, game, tidy, rehearse)
        except PrinterError as exc:
            if self.on_error:
                self.on_error(exc.problems)

    def _build(self, project: Project, game: Game, tidy: Tidy, rehearse: bool) -> None:
        """Build ``game`` in each of its languages (``--lang all``) and note whether it is left untidy."""
        from printer.api.languages import build_languages

        request = self.request
        left, built = False, False  # a game is untidy while one of its languages' builds is
        for lang in build_languages(project, [game], request.lang)[game.id]:  # --lang all: each language
            each = request if lang == request.lang else replace(request, lang=lang)
            outcome = build_game(project, game, each, None, self.runtime, tidy)
            if outcome.untidy:
                left = True
            built = built or not outcome.up_to_date  # an up-to-date build is as untidy as it was
            if tidy == "now" and outcome.ok:
                laid = counted(int(outcome.stats.get("faces laid out", 0)), "face")
                outcome.notes = [*outcome.notes, f"tidied: {laid} of earlier edits laid out together"]
            self.on_game(outcome)
            if rehearse:
                _rehearse(project, game, each)
        if left:
            self.untidy.add(game.id)
        elif built:
            self.untidy.discard(game.id)


def watch(  # noqa: PLR0913  the callbacks, the timings and the runtime of a watch, each a keyword with a default
    root: Path | str,
    request: BuildRequest,
    on_game: Callable[[GameBuild], None],
    on_error: Callable[[list[Problem]], object] | None = None,
    stop: threading.Event | None = None,
    debounce_ms: int = 50,
    tidy_after: float = 2.0,
    on_watch: Callable[[list[Path]], object] | None = None,
    runtime: Runtime | None = None,
) -> None:
    """Build as ``request`` says, then again each time one of its inputs changes, until ``stop`` is set.

    One process stays warm: the worker pool, the face cache and the loaded
    modules are kept between builds, so a one-card edit lays out one face;
    after the first build, this process makes one card's HTML and its
    sheet's, so that the first save finds the templates compiled.
    Every input of the build is watched (:func:`watched_inputs`: the project
    folder, ``request.cards_dir`` and ``request.deck_file`` wherever they
    are, the games' templates, the ``read_also`` folders...; ``on_watch``
    gets that list before the first build), from before the first build to
    the end: a file saved while a build runs is built right after it. The
    build folder and ``request.out_dir`` are not watched. A change to
    printer.toml reloads the project. Problems (a broken card, a template error, a broken
    printer.toml) go to ``on_game`` or ``on_error`` and the watch goes on.
    Changes are gathered for ``debounce_ms`` milliseconds before building.
    A save's build leaves the faces edits laid out one by one as they are
    (``tidy="later"``, :func:`build_game`); once no file changed for
    ``tidy_after`` seconds, each game that has some is built again with
    them laid out together (its outcome goes to ``on_game`` too, with a
    note that says so). Ctrl-C ends it (``KeyboardInterrupt`` is not caught
    here). ``runtime`` holds the pool and the face cache for the whole
    watch (:class:`~printer.api.runtime.Runtime`; default: a new one).
    Raises :class:`~printer.problems.PrinterError` when the project
    can no longer be watched (the watching thread ended by itself).
    """
    from printer.watching import Changes, ChangesLost

    root = Path(root).resolve()
    project = load_project(root)
    inputs = watched_inputs(project, request)
    ignored = [project.build_dir.resolve()] + ([request.out_dir.resolve()] if request.out_dir else [])

    def wanted(path: str) -> bool:
        return not any(Path(path).is_relative_to(i) for i in ignored)

    runtime = runtime if runtime is not None else Runtime()
    builds = _WatchBuilds(root, request, on_game, on_error, runtime)
    untidy = builds.untidy  # games whose last build left faces to lay out again together
    build_games = builds.run
    try:
        with runtime.open(project, request, rehearse=True), Changes(inputs, wanted, debounce_ms) as changes:
            if on_watch is not None:
                on_watch(inputs)
            changes.wait_ready()  # set up (0.2 s at most): a file saved as the first build starts is seen
            build_games("later", rehearse=True)  # the first save then finds this process ready too
            while stop is None or not stop.is_set():
                if changes.wait(tidy_after if untidy else None, stop):
                    build_games("later")
                elif untidy and not (stop is not None and stop.is_set()):
                    build_games("now", sorted(untidy))
    except ChangesLost as lost:
        problem = Problem(str(root), str(lost), hint="is the project folder still there? start the watch again")
        raise PrinterError(str(lost), [problem]) from None
