"""The files of a folder that change, watched on a thread from the moment it starts (watchfiles).

``printer build --watch`` builds, then waits for the next save. A watcher
started anew after each build would miss a save made while the build ran
(an editor saving a second card, or the same one again): the PDF would stay
a save behind until the next one. :class:`Changes` watches the whole time
and keeps what changed until it is asked.

Only the project's real tree is watched (:func:`real_folders`): each of its
folders is watched by itself (not recursively), found without going through
a symbolic link, so a link in the project to ``/usr`` or ``/`` adds no watch
(watchfiles' recursive watch follows links: thousands of watches, and a
folder it may not read stops the watch). A folder made later is watched from
when it appears, and the files already in it count as changed.
"""

from __future__ import annotations

import os
import queue
import threading
import time
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from types import TracebackType

from printer.problems import Problem, UsageError


class ChangesLost(Exception):
    """Watching ``root`` stopped before it was asked to (``error``: why, when watchfiles said)."""

    def __init__(self, root: Path, error: Exception | None):
        super().__init__(f"watching {root} stopped" + (f": {error}" if error else ""))
        self.root, self.error = root, error


#: how often (s) :meth:`Changes.wait` looks at its ``stop`` event
STOP_POLL = 0.1
#: how long (ms) no file may change before a group of changes is given: watchfiles looks this often, and gives a
#: group once a look finds nothing new, so a save is seen 1-2 steps after it. 5 ms: a save seen 13 ms after it
#: (25 ms: 33 ms, 40 ms: 54 ms, medians of 15 saves), for 1 % of a core while nothing changes (0.3 % at 40 ms)
STEP_MS = 5


def real_folders(roots: Iterable[Path], wanted: Callable[[str], bool] = lambda path: True) -> list[Path]:
    """Each folder among ``roots`` and every folder under it reached without going through a symbolic link.

    Hidden folders (``.git``) and those ``wanted(path)`` refuses are left out with what is under them; a root that
    is itself a link, or not a folder, is left out too. Folders that cannot be read are listed, not entered.
    """
    found: list[Path] = []
    for root in roots:
        if os.path.islink(root) or not os.path.isdir(root) or not wanted(str(root)):
            continue
        for folder, dirs, _ in os.walk(root, followlinks=False):
            found.append(Path(folder))
            dirs[:] = sorted(
                d
                for d in dirs
                if not d.startswith(".")
                and not os.path.islink(os.path.join(folder, d))
                and wanted(os.path.join(folder, d))
            )
    return found


def outermost(paths: Iterable[Path]) -> list[Path]:
    """``paths`` (absolute) without those inside another of them, in their first order; each kept once."""
    unique = list(dict.fromkeys(paths))
    return [p for p in unique if not any(p != q and p.is_relative_to(q) for q in unique)]


def _files_under(folders: Iterable[Path], wanted: Callable[[str], bool]) -> set[str]:
    """The files in ``folders`` and their real sub-folders (a folder that appeared: what was saved in it before its
    watch began)."""
    return {
        str(folder / name)
        for folder in real_folders(folders, wanted)
        for name in _names(folder)
        if not name.startswith(".") and (folder / name).is_file() and wanted(str(folder / name))
    }


def _names(folder: Path) -> list[str]:
    try:
        return os.listdir(folder)
    except OSError:
        return []


class Changes:
    """The paths changed under ``root`` (a folder or file, or several: those ``wanted(path)`` accepts), gathered on a
    thread; only the real tree is watched (:func:`real_folders`). A file root is watched through its folder (by
    itself, for that file only), so that a file an editor replaces (writes anew and renames) is still seen.

    Changes are grouped as watchfiles groups them: one group is yielded once
    no file changed for ``step_ms`` milliseconds, or after ``debounce_ms``.
    Use it as a context manager: watching starts on entering (before the
    first build) and ends on leaving. Raises
    :class:`~printer.problems.UsageError` when watchfiles is not installed.
    """

    def __init__(
        self,
        root: Path | Sequence[Path],
        wanted: Callable[[str], bool],
        debounce_ms: int = 50,
        step_ms: int = STEP_MS,
    ):
        try:
            from watchfiles import DefaultFilter, watch
        except ImportError:
            message = "watching needs the watchfiles package, which is not installed"
            hint = "pip install 'printer[serve]' (or pip install watchfiles)"
            raise UsageError(message, [Problem("command line", message, hint, code="usage")]) from None

        class _Filter(DefaultFilter):
            def __call__(self, change: object, path: str) -> bool:
                return super().__call__(change, path) and wanted(path) and inside(path)  # type: ignore[arg-type]  # watchfiles passes its Change

        def inside(path: str) -> bool:  # a file root's folder is watched for that file only
            return path in self._files or any(Path(path).is_relative_to(r) for r in self._folders)

        self._found: queue.Queue[set[str]] = queue.Queue()
        self._halt = threading.Event()
        self._ready = threading.Event()
        self._watch = watch
        self._filter, self._debounce, self._step = _Filter(), debounce_ms, step_ms
        self._roots = [Path(root)] if isinstance(root, (str, os.PathLike)) else [Path(r) for r in root]
        self._root = self._roots[0] if len(self._roots) == 1 else Path(os.path.commonpath(self._roots))
        self._files = {str(r) for r in self._roots if r.is_file() and not r.is_symlink()}
        self._folders = [r for r in self._roots if str(r) not in self._files]
        self._wanted = wanted
        self._thread = threading.Thread(target=self._run, name="printer-watch", daemon=True)
        #: what ended the watching thread, if anything did before leaving the block
        self.error: Exception | None = None

    def _run(self) -> None:
        new: list[Path] = []  # folders that appeared: watched from the next round, their files then counted as changed
        tries = 0
        while not self._halt.is_set():
            parents = dict.fromkeys(Path(f).parent for f in sorted(self._files))  # a file replaced by a rename is seen
            paths = [*(p for p in parents if p.is_dir()), *real_folders(self._folders, self._wanted)]
            paths = list(dict.fromkeys(paths))
            try:
                new = self._watch_round(paths, new)
            except FileNotFoundError as exc:  # a folder went away between listing it and watching it: list again
                tries += 1
                if tries > 5 or not paths:
                    self.error = exc
                    return
                continue
            except Exception as exc:  # noqa: BLE001 (the folder went away...): wait() raises it in the caller's thread
                self.error = exc
                return
            if not new:
                return
            tries = 0

    def _watch_round(self, paths: list[Path], new: list[Path]) -> list[Path]:
        """Watch ``paths`` (each by itself) until stopped, or until a folder appears: then return the new folders."""
        # rust_timeout: the watcher wakes this often without changes; yield_on_timeout lets the first wake-up say
        # that the watch is set up (the notify backend is listening)
        changes = self._watch(
            *paths,
            watch_filter=self._filter,
            debounce=self._debounce,
            step=self._step,
            stop_event=self._halt,
            rust_timeout=200,
            yield_on_timeout=True,
            raise_interrupt=False,
            recursive=False,
        )
        try:
            for found in changes:
                self._ready.set()
                paths_found = {path for _, path in found}
                if new:  # the folders that appeared before this round: what was saved in them before their watch began
                    paths_found |= _files_under(new, self._wanted)
                    new = []
                if paths_found:
                    self._found.put(paths_found)
                appeared = [
                    Path(path)
                    for change, path in found
                    if change.name == "added" and not os.path.islink(path) and os.path.isdir(path)
                ]
                if appeared:
                    return appeared
            return []
        finally:
            changes.close()  # the watches are removed before the next round adds its own

    def __enter__(self) -> Changes:
        self._thread.start()
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        self._halt.set()
        self._thread.join(5)

    def wait_ready(self, seconds: float = 5.0) -> bool:
        """Wait until the watch is set up (changes from then on are seen); whether it is."""
        return self._ready.wait(seconds)

    def wait(self, seconds: float | None = None, stop: threading.Event | None = None) -> set[str]:
        """The paths changed since the last call: at once when some changed meanwhile (during a build), else the
        first group to come within ``seconds`` (``None``: however long it takes). An empty set when none came or
        when ``stop`` is set. Raises :class:`ChangesLost` when the watching thread ended (the folder is gone)."""
        deadline = None if seconds is None else time.monotonic() + seconds
        while not (stop is not None and stop.is_set()):
            left = STOP_POLL if deadline is None else min(STOP_POLL, deadline - time.monotonic())
            if left <= 0:
                return set()
            try:
                found = self._found.get(timeout=left)
            except queue.Empty:
                if not self._thread.is_alive():
                    raise ChangesLost(self._root, self.error) from None
                continue
            while True:  # every group that came while the last build ran: one build for them all
                try:
                    found |= self._found.get_nowait()
                except queue.Empty:
                    return found
        return set()
