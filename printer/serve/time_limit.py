"""A time limit for a block of code in the main thread of a process: a face's layout in ``printer serve``'s render
processes (:func:`printer.serve.pictures.render_faces`)."""

from __future__ import annotations

import contextlib
import signal
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from types import FrameType

#: the least time between two raises once the limit is over (seconds)
REPEAT = 0.05


class TooLong(BaseException):
    """The time limit of a render ran out (a ``BaseException``: WeasyPrint's own ``except Exception`` lets it by)."""


@dataclass
class Clock:
    """What :func:`time_limit` yields: whether it can interrupt the block (``bounded``) and whether its time ran
    out (``over``: a block that goes on after an interruption was dropped should not write its results)."""

    bounded: bool
    over: bool = False


@contextlib.contextmanager
def time_limit(seconds: float) -> Iterator[Clock]:
    """Interrupt the block with :class:`TooLong` after ``seconds`` (a ``SIGALRM`` timer); yields a :class:`Clock`.

    Only the main thread of a process on a system with ``setitimer`` (Linux, macOS) can be interrupted: the
    render processes of ``printer serve`` are. Elsewhere (a thread, for tests) the block runs unbounded.
    """
    if seconds <= 0 or threading.current_thread() is not threading.main_thread() or not hasattr(signal, "setitimer"):
        yield Clock(False)
        return

    armed, clock = [True], Clock(True)

    def stop(signum: int, frame: FrameType | None) -> None:
        if armed[0]:
            clock.over = True
            raise TooLong()

    previous = signal.signal(signal.SIGALRM, stop)
    # The timer fires again every tenth of a second (or sooner, but not under REPEAT) after the limit: raised inside
    # a garbage collector callback or a ``__del__``, the exception is only printed, and the block would run on
    # unbounded. Should every raise be dropped so (a library's gc callback runs Python code at each collection:
    # hypothesis installs one), the block still ends as too long. A dropped raise goes to ``sys.unraisablehook``,
    # which formats its traceback: a repeat every 2 ms (a limit of 2 ms) interrupted that hook too, and pytest's
    # hook then failed the test that ran the block.
    signal.setitimer(signal.ITIMER_REAL, seconds, max(REPEAT, min(seconds, 0.1)))
    try:
        yield clock
        # every raise landed in a garbage collector callback and was dropped: over the limit all the same
        if clock.over:
            raise TooLong()
    finally:
        armed[0] = False  # first, and without a call (no signal handler runs before it): no second raise from here on
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
