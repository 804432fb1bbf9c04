"""Atomic file output: write to a temporary file beside the target, then rename.

A build or import that fails or is killed half-way leaves the previous
output as it was, never a truncated file.

The temporary file is ``.<name>.<pid>.<random>.tmp`` in the target's
folder. A failed write, an exception, Ctrl-C and SIGTERM (the CLI turns it
into an exit) remove it; only SIGKILL (or a power cut) in the instant
between creating it and renaming it can leave it behind, and the next
write of the same target removes such leftovers whose process is gone.
"""

from __future__ import annotations

import contextlib
import errno
import glob
import os
import re
import shutil
import stat
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import BinaryIO


@contextlib.contextmanager
def atomic_open(path: Path) -> Iterator[BinaryIO]:
    """Open a temporary file for binary writing (and reading back) that replaces ``path`` on success.

    The folder of ``path`` is created when missing. The new file keeps the
    permissions of the file it replaces (a 0600 card file stays 0600); a new
    file is 0644. On any exception the temporary file is removed and ``path``
    is untouched. An ``OSError`` of the file system (no space left, permission denied, a read-only folder) is
    raised again naming ``path``, the file the user asked for, not the temporary file.
    """
    path = Path(path)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        mode = _kept_mode(path)
        remove_stale_temps(path)
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.{os.getpid()}.", suffix=".tmp", dir=path.parent)
    except OSError as exc:
        raise _naming(exc, path) from exc
    try:
        with os.fdopen(fd, "w+b") as handle:
            yield handle
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(tmp, mode)
        os.replace(tmp, path)
    except BaseException as exc:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        if isinstance(exc, OSError) and exc.errno in _WRITING and exc.filename in (None, tmp, str(path)):
            raise _naming(exc, path) from exc
        raise


#: the errors of writing a file (space, quota, size, permission, a read-only or failing disk): about the output
_WRITING = frozenset(
    {errno.ENOSPC, errno.EDQUOT, errno.EFBIG, errno.EACCES, errno.EPERM, errno.EROFS, errno.EIO, errno.ENAMETOOLONG}
)


def _naming(error: OSError, path: Path) -> OSError:
    """``error`` (its kind and reason) about ``path``."""
    return type(error)(error.errno, f"cannot write it: {error.strerror or error}", str(path))


def _kept_mode(path: Path) -> int:
    """The permission bits of the regular file at ``path`` (not through a link), else 0644."""
    try:
        st = os.lstat(path)
    except OSError:
        return 0o644
    return stat.S_IMODE(st.st_mode) & 0o777 if stat.S_ISREG(st.st_mode) else 0o644


def remove_stale_temps(path: Path) -> list[Path]:
    """Remove the temporary files a killed write of ``path`` left behind; returns those removed.

    A leftover is ``.<name>.<pid>.<random>.tmp`` whose process ``pid`` no
    longer runs (another process writing the same file at the same time
    keeps its own): a file, or a folder a build keeps its face batches in
    until it writes ``path`` (:mod:`printer.sheets.assemble`).
    """
    path = Path(path)
    removed = []
    prefix = f".{path.name}."
    for tmp in path.parent.glob(f"{glob.escape(prefix)}*.tmp"):
        match = _TEMP.match(tmp.name[len(prefix) :])
        if match is None or (match["pid"] and _running(int(match["pid"]))):
            continue  # another file's temporary file (``.mygame.pdf.bak....``), or a write still going on
        with contextlib.suppress(OSError):
            if tmp.is_dir() and not tmp.is_symlink():
                shutil.rmtree(tmp)
            else:
                tmp.unlink()
            removed.append(tmp)
    return removed


#: after ``.<name>.``: ``<pid>.<random>.tmp``, or ``<random>.tmp`` (written before the pid was part of the name)
_TEMP = re.compile(r"^(?:(?P<pid>\d+)\.)?[a-z0-9_]+\.tmp$")


def _running(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # e.g. PermissionError: the process exists but belongs to someone else
        return True
    return True


def atomic_write_bytes(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` atomically."""
    with atomic_open(path) as handle:
        handle.write(data)


def atomic_write_text(path: Path, text: str) -> None:
    """Write ``text`` as UTF-8 to ``path`` atomically."""
    atomic_write_bytes(path, text.encode("utf-8"))
