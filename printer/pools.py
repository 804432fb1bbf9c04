"""The worker processes of a process pool, named through public APIs only.

A pool that printer stops (the gallery's render processes while a saved card renders) or kills (a build's pool
warmed and never used) needs its workers' ids; ``concurrent.futures`` keeps them private. Here each worker reports
its own id as its initializer starts (:func:`report_pid`), and :class:`WorkerPids` names only the reported ids that
are still this process's live children.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from multiprocessing.context import BaseContext
    from multiprocessing.queues import Queue


class WorkerPids:
    """The process ids of a process pool's live workers, as each reports its own when it starts.

    Give the pool an initializer that calls :func:`report_pid` with :attr:`queue` first; calling the object gives
    the ids of the workers that reported and are still this process's children (``multiprocessing.active_children``),
    so an id the system has since given to another program is never named. A worker that has not reported yet is
    not named: :meth:`wait` waits for a number of reports.
    """

    def __init__(self, context: BaseContext):
        self.queue: Queue[int] = context.Queue()
        self._known: set[int] = set()

    def __call__(self) -> list[int]:
        import queue

        while True:
            try:
                self._known.add(self.queue.get_nowait())
            except queue.Empty:
                break
        import multiprocessing

        self._known &= {child.pid for child in multiprocessing.active_children() if child.pid is not None}
        return sorted(self._known)

    def wait(self, count: int, seconds: float) -> list[int]:
        """As calling the object, once ``count`` workers have reported or ``seconds`` have passed, whichever is
        first (a worker reports as it starts: the wait is a deadline for a stalled machine, not a pause)."""
        import queue
        import time

        deadline = time.monotonic() + seconds
        while len(self._known) < count and (left := deadline - time.monotonic()) > 0:
            try:
                self._known.add(self.queue.get(timeout=left))
            except queue.Empty:
                break
        return self()


def report_pid(queue: Queue[int] | None) -> None:
    """In a pool's worker, as its initializer starts: put this process's id on ``queue`` (:class:`WorkerPids`)."""
    if queue is not None:
        queue.put(os.getpid())
