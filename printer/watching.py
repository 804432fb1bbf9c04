"""The files of a folder that change, watched on a thread from the moment it starts (watchfiles).

``printer build --watch`` builds, then waits for the next save. A watcher
started anew after each build would miss a save made while the build ran
(an editor saving a second card, or the same one again): the PDF would stay
a save behind until the next one. :class:`Changes` watches the whole time
and keeps what changed until it is asked.
"""

from __future__ import annotations

import queue
import threading
import time
from collections.abc import Callable
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


class Changes:
    """The paths changed under ``root`` (those ``wanted(path)`` accepts), gathered on a thread.

    Changes are grouped as watchfiles groups them: one group is yielded once
    no file changed for ``step_ms`` milliseconds, or after ``debounce_ms``.
    Use it as a context manager: watching starts on entering (before the
    first build) and ends on leaving. Raises
    :class:`~printer.problems.UsageError` when watchfiles is not installed.
    """

    def __init__(self, root: Path, wanted: Callable[[str], bool], debounce_ms: int = 50, step_ms: int = 25):
        try:
            from watchfiles import DefaultFilter, watch
        except ImportError:
            message = "watching needs the watchfiles package, which is not installed"
            hint = "pip install 'printer[serve]' (or pip install watchfiles)"
            raise UsageError(message, [Problem("command line", message, hint, code="usage")]) from None

        class _Filter(DefaultFilter):
            def __call__(self, change: object, path: str) -> bool:
                return super().__call__(change, path) and wanted(path)  # type: ignore[arg-type]

        self._found: queue.Queue[set[str]] = queue.Queue()
        self._halt = threading.Event()
        self._ready = threading.Event()
        self._watch = watch
        self._filter, self._debounce, self._step = _Filter(), debounce_ms, step_ms
        self._root = root
        self._thread = threading.Thread(target=self._run, name="printer-watch", daemon=True)
        #: what ended the watching thread, if anything did before leaving the block
        self.error: Exception | None = None

    def _run(self) -> None:
        # rust_timeout: the watcher wakes this often without changes; yield_on_timeout lets the first wake-up say
        # that the watch is set up (the notify backend is listening)
        try:
            changes = self._watch(
                self._root,
                watch_filter=self._filter,
                debounce=self._debounce,
                step=self._step,
                stop_event=self._halt,
                rust_timeout=200,
                yield_on_timeout=True,
                raise_interrupt=False,
            )
            for found in changes:
                self._ready.set()
                if found:
                    self._found.put({path for _, path in found})
        except Exception as exc:  # noqa: BLE001 (the folder went away...): wait() raises it in the caller's thread
            self.error = exc

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
