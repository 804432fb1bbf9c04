"""Settings of the whole process that a command makes before it starts any thread or worker.

:func:`one_malloc_arena` is called by ``printer build``: a build's threads (the batches handed to workers, their
PDFs read back and written to disk) each got a C heap of their own from glibc, and what one thread freed could not
serve another's next allocation.
"""

from __future__ import annotations

import sys

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
