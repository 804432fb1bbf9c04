"""The memory policy of the process, in one place: its C heaps and Python's garbage collector.

:func:`one_malloc_arena` is called as a build's :class:`printer.api.runtime.Runtime` opens, when it says so
(``printer build``'s does), before any thread or worker starts: a build's threads
(the batches handed to workers, their PDFs read back and written to disk) each got a C heap of their own from
glibc, and what one thread freed could not serve another's next allocation. :func:`objects_frozen` keeps the
objects alive out of the collections a build makes while it lays out its sheets' marks
(:func:`printer.sheets.output.chrome.chrome_pdf`); :func:`collector_for_layout` does the same while a batch of faces
is laid out, and collects only when a chunk of faces is painted; :func:`collector_paused` turns the collector off while
many decklists are checked (:func:`printer.api.check_decks`).

Both act on state of the whole process (glibc's heaps, :func:`gc.freeze`), so they are functions of this module
and the count of builds inside :func:`objects_frozen` is kept here, shared by the threads of the process: it is the
one module-level state of the build that is meant to be global.
"""

from __future__ import annotations

import contextlib
import gc
import sys
import threading
from collections.abc import Iterator
from typing import Any

#: glibc's mallopt(3) parameters
M_MMAP_THRESHOLD, M_ARENA_MAX = -3, -8
#: allocations from this size up get pages of their own, given back to the system when freed (bytes)
MMAP_THRESHOLD = 128 * 1024


def one_malloc_arena() -> bool:
    """Have glibc's malloc keep one heap for every thread of this process and map blocks of
    :data:`MMAP_THRESHOLD` bytes and more on their own; returns whether it could (``False`` off Linux or with
    another C library: nothing changes).

    By default glibc gives each new thread a heap (an *arena*) of its own and raises its mapping threshold as large
    blocks are freed, so that a batch's PDF read back by one thread and written to disk by another stays in that
    heap afterwards. Measured with ``bench/memory.py`` (9,000 cards, 2 jobs): the printer process's peak 187 MiB
    with the defaults, 171 MiB with one heap and a fixed threshold; 900 cards 121 and 116 MiB. Call it before any
    thread is started: heaps already made stay. See the mallopt(3) manual page (M_ARENA_MAX, M_MMAP_THRESHOLD).
    """
    if not sys.platform.startswith("linux"):
        return False
    try:
        import ctypes

        mallopt = ctypes.CDLL(None).mallopt  # the symbols of the process: its C library's
    except (ImportError, OSError, AttributeError):  # a Python without ctypes; musl and others have no mallopt
        return False
    mallopt.argtypes, mallopt.restype = [ctypes.c_int, ctypes.c_int], ctypes.c_int
    return bool(mallopt(M_ARENA_MAX, 1)) and bool(mallopt(M_MMAP_THRESHOLD, MMAP_THRESHOLD))


_FREEZING = threading.Lock()
_freezing = [0, False]  # builds inside objects_frozen(), and whether the first of them froze


@contextlib.contextmanager
def objects_frozen() -> Iterator[None]:
    """The objects alive frozen (:func:`gc.freeze`, after collecting the garbage) while this process's builds lay
    out their marks: the first build in freezes, the last out unfreezes (:func:`gc.unfreeze` unfreezes every
    object, so two builds at once on threads share one freeze). When objects were frozen already (by a program
    using printer, before it forks, say), they are left so and nothing more is frozen."""
    with _FREEZING:
        if _freezing[0] == 0:
            _freezing[1] = gc.get_freeze_count() == 0
            if _freezing[1]:
                gc.collect()
                gc.freeze()
        _freezing[0] += 1
    try:
        yield
    finally:
        with _FREEZING:
            _freezing[0] -= 1
            if _freezing[0] == 0 and _freezing[1]:
                gc.unfreeze()


_layout: list[Any] = [0, None]  # batches inside collector_for_layout(), and the thresholds before the first


@contextlib.contextmanager
def collector_for_layout() -> Iterator[None]:
    """Python's garbage collector set for laying out many faces, as long as a batch is inside (the first in sets
    it, the last out puts the thresholds back): the objects alive frozen (:func:`objects_frozen`), no collection
    made by allocations, and the youngest generation collected when a chunk's pages are painted
    (:func:`chunk_painted`).

    A face's layout makes many short-lived objects, and each collection walks every object of its generations:
    the oldest holds the project, the cards, the fonts and the job, besides the chunk being laid out. A chunk
    leaves little in reference cycles once its layout contexts are released
    (:mod:`printer.sheets.layoutcontexts`): tinyhtml5's parse tree, WeasyPrint's anonymous styles. In a cold
    ``printer build --jobs 1`` of 900 real cards with the contexts released, the collector took 1.29 s with
    Python's defaults, 0.70 s with the objects alive frozen, 0.58 s with the youngest generation collected every
    5,000 allocations as well, and 0.21 s this way, for the same peak memory (128 to 131 MB).
    """
    with objects_frozen():
        with _FREEZING:
            if _layout[0] == 0:
                _layout[1] = gc.get_threshold()
                gc.set_threshold(0)  # no collection made by allocations
            _layout[0] += 1
        try:
            yield
        finally:
            with _FREEZING:
                _layout[0] -= 1
                if _layout[0] == 0:
                    gc.set_threshold(*_layout[1])


def chunk_painted() -> None:
    """A chunk's pages are painted and its layout let go: inside :func:`collector_for_layout`, collect the youngest
    generation, which holds everything made since the last chunk (what the chunk left in reference cycles among
    it); elsewhere nothing."""
    if _layout[0]:
        gc.collect(0)


@contextlib.contextmanager
def collector_paused() -> Iterator[None]:
    """Python's cyclic garbage collector off while many decklists are checked, on again after.

    Each decklist's check allocates many small objects, and every collection of the oldest generation walks all
    the loaded cards as well: a third of the time of a folder of decklists. Reference counting still frees what
    each check drops; the reports are kept anyway. On the way out, what the checks made is moved to the oldest
    generation without a walk (:func:`gc.freeze` then :func:`gc.unfreeze`; only when nothing is frozen, so a
    caller's own freeze is left alone): else the first allocation after :func:`gc.enable` walked every report
    made meanwhile as young objects (0.04 s after 317 decklists, in ``printer deck check`` just before it prints).
    """
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            if not gc.get_freeze_count():
                gc.freeze()
                gc.unfreeze()
            gc.enable()
