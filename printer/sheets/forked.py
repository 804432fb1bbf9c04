"""Work split over forked processes that start from this process's state (:func:`in_forks`).

``printer validate`` renders thousands of card templates to HTML (:mod:`printer.sheets.preflight`); a forked
process inherits the loaded cards, the compiled templates and the renderer as they are, so that nothing is
pickled on the way in and only a small answer comes back. Forking needs the ``fork`` start method (Linux,
and the BSDs); elsewhere :func:`can_fork` is false and the caller does the work itself.

A process forked from a program that runs threads may inherit a lock another thread held: callers fork only
from a command-line run with no other thread (:func:`can_fork`).
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, TypeVar

if TYPE_CHECKING:  # multiprocessing is imported when work is forked (10 ms a start otherwise)
    import multiprocessing
    from multiprocessing.connection import Connection

T = TypeVar("T")
R = TypeVar("R")


def cores() -> int:
    """The cores this process may run on (at least 1)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)


def can_fork() -> bool:
    """Whether :func:`in_forks` can run here: the ``fork`` start method exists and this is the only thread."""
    return hasattr(os, "fork") and threading.active_count() == 1  # the platforms where multiprocessing offers fork


def chunks(items: Sequence[T], parts: int) -> list[list[T]]:
    """``items`` cut into ``parts`` runs of consecutive items, as even as can be (fewer when there are fewer items);
    their concatenation is ``items``."""
    parts = max(1, min(parts, len(items)))
    size, extra = divmod(len(items), parts)
    cut, start = [], 0
    for index in range(parts):
        end = start + size + (index < extra)
        cut.append(list(items[start:end]))
        start = end
    return cut


def in_forks(work: Callable[[list[T]], R], chunks: Sequence[list[T]]) -> Callable[[], list[R | None]]:
    """Start ``work(chunk)`` for each of ``chunks``, each in a process forked from this one; returns the call that
    waits for them and gives their results in order: ``None`` for a chunk whose process died or whose ``work``
    raised (the caller does that chunk again itself). This process goes on meanwhile."""
    import multiprocessing

    context = multiprocessing.get_context("fork")
    running: list[tuple[multiprocessing.process.BaseProcess, Connection]] = []
    for chunk in chunks:
        receive, send = context.Pipe(duplex=False)
        process = context.Process(target=_answer, args=(work, chunk, send), daemon=True)
        process.start()
        send.close()
        running.append((process, receive))

    def results() -> list[R | None]:
        answers: list[R | None] = []
        for process, receive in running:
            try:
                answers.append(receive.recv())
            except (EOFError, OSError):  # the process died before it answered
                answers.append(None)
            finally:
                receive.close()
                process.join()
        running.clear()
        return answers

    return results


def _answer(work: Callable[[list[T]], R], chunk: list[T], send: Connection) -> None:
    """In the forked process: ``work(chunk)`` sent back, or ``None`` when it raised."""
    try:
        answer: R | None = work(chunk)
    except BaseException:  # noqa: BLE001 (the parent does this chunk again and reports what it finds)
        answer = None
    send.send(answer)
    send.close()
