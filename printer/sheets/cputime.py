"""The CPU-time limit of a template render (:func:`printer.sheets.sandbox.render_limited`).

A render alone is watched by its own profiling interval timer (``ITIMER_PROF``, which counts this process's CPU
time) and ``SIGPROF`` handler, set when it starts and put back as they were when it ends: four system calls and
two handler swaps, about 9 µs, 6 % of rendering a card front with the bundled templates. A stage that renders
thousands of faces in a row (``printer validate``'s templates, a build's faces) opens a :func:`row` instead: one
timer and one handler for all of them. Its timer fires every :data:`CHECK` of the limit, and the handler stops the
render in progress once that render has run for longer than its limit; a render in the row only notes its start
(:func:`watch`).

Signals reach the main thread only, so a row watches the main thread's renders; a render in another thread is
not watched by a timer at all (its own checks, as the output is produced, still stop it). A forked process does
not inherit the timer (POSIX ``fork``): there, the row is forgotten, and renders are watched one by one again.
"""

from __future__ import annotations

import os
import signal
import threading
import time
import types
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

#: how often a row's timer fires: this fraction of the limit, in CPU time (a render that loops is stopped at most
#: this much past its limit)
CHECK = 0.25


class _Row:
    """The open row, if any: the thread it watches and the render in progress there."""

    thread: int | None = None
    #: the render in progress: its start (``time.process_time()``, s), its limit (s) and what makes the error to
    #: raise past it (given the limit)
    render: tuple[float, float, Callable[[float], BaseException]] | None = None


def _forget_row() -> None:
    _Row.thread, _Row.render = None, None


os.register_at_fork(after_in_child=_forget_row)


def _past_limit(signum: int, frame: types.FrameType | None) -> None:
    """A row's ``SIGPROF`` handler: raise the render's error when it has run for longer than its limit."""
    render = _Row.render
    if render is not None and time.process_time() - render[0] > render[1]:
        _Row.render = None
        raise render[2](render[1])


@contextmanager
def row(seconds: float) -> Iterator[None]:
    """Within: the renders of this thread (the main one) that :func:`watch` limits to about ``seconds`` share one
    timer, which fires every ``CHECK * seconds`` of CPU time. Nothing is changed (each render sets its own timer)
    in another thread, inside a row already open, where signals cannot be set, or when a profiling timer is
    already running (a caller's own, which each render then keeps as it is)."""
    usable = threading.current_thread() is threading.main_thread() and hasattr(signal, "setitimer")
    if not usable or _Row.thread is not None or signal.getitimer(signal.ITIMER_PROF)[0] > 0:
        yield
        return
    previous = signal.signal(signal.SIGPROF, _past_limit)
    every = max(0.001, CHECK * seconds)
    signal.setitimer(signal.ITIMER_PROF, every, every)
    _Row.thread, _Row.render = threading.get_ident(), None
    try:
        yield
    finally:
        _forget_row()
        signal.setitimer(signal.ITIMER_PROF, 0)
        signal.signal(signal.SIGPROF, previous)


#: marks what :func:`watch` gives for a render in a row
_IN_ROW = object()


def watch(started: float, seconds: float, error: Callable[[float], BaseException]) -> tuple[Any, ...]:
    """Start watching a render that started at ``started`` (``time.process_time()``): ``error(seconds)`` is raised
    in it once it has run for more than ``seconds`` of this process's CPU time. Returns what :func:`unwatch` takes
    when it ends (call that in a ``finally``). In an open :func:`row`, this only notes the render; else the render
    gets its own timer and handler (main thread only), and :func:`unwatch` puts back a caller's profiling timer
    with the time it had left."""
    if _Row.thread == threading.get_ident():
        outer, _Row.render = _Row.render, (started, seconds, error)
        return (_IN_ROW, outer)
    if threading.current_thread() is not threading.main_thread() or not hasattr(signal, "setitimer"):
        return ()

    def expired(signum: int, frame: types.FrameType | None) -> None:
        raise error(seconds)

    previous = signal.signal(signal.SIGPROF, expired)
    return (previous, signal.setitimer(signal.ITIMER_PROF, seconds), seconds)


def unwatch(watching: tuple[Any, ...]) -> None:
    """Stop watching a render (what :func:`watch` gave)."""
    if not watching:
        return
    if watching[0] is _IN_ROW:
        _Row.render = watching[1]
        return
    previous, before, seconds = watching
    left = signal.setitimer(signal.ITIMER_PROF, 0)[0]
    signal.signal(signal.SIGPROF, previous)
    if before[0] > 0:  # the caller's profiling timer, less what this render spent
        signal.setitimer(signal.ITIMER_PROF, max(0.001, before[0] - (seconds - left)), before[1])
