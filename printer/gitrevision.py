"""A project's files at a git revision, read from git's objects without running anything the repository names
(:class:`checkout`): what ``printer changes --since REF`` and ``build --since REF`` compare with.

git runs without a shell, with no file-system monitor, no hooks, no transport (a partial clone's missing objects
are not fetched) and no filters; the files' count and total size are checked before any is written, and a path
or link that would leave the temporary folder is refused.
"""

from __future__ import annotations

import os
import subprocess
import tempfile
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from printer.problems import Problem, UsageError

#: git, run without a shell in the project's folder, with no file-system monitor nor hooks the repository's config
#: may name (the commands run are ``rev-parse``, ``ls-tree`` and ``cat-file``, which run no filter either), and no
#: transport: a partial clone would fetch a missing object from its remote, running the ``uploadpack`` or
#: ``sshCommand`` its config names (these settings on the command line win over the repository's)
_NO_TRANSPORT = tuple(
    arg
    for name in ("", "file.", "git.", "ssh.", "http.", "https.", "ext.")
    for arg in ("-c", f"protocol.{name}allow=never")
)
_GIT = ("git", "-c", "core.fsmonitor=false", "-c", "core.hooksPath=/dev/null", *_NO_TRANSPORT, "-C")


def _git_env() -> dict[str, str]:
    """The environment git runs in: ours, with lazy fetching of a partial clone's missing objects off."""
    return {**os.environ, "GIT_NO_LAZY_FETCH": "1"}


#: seconds a git command may take, and the bytes and files of the project at a revision that are read
GIT_TIMEOUT, ARCHIVE_LIMIT, ARCHIVE_FILES = 60, 2 * 2**30, 100_000


def _git(root: Path, *args: str) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(  # noqa: S603, S607
        [*_GIT, str(root), *args], capture_output=True, timeout=GIT_TIMEOUT, check=False, env=_git_env()
    )


def bad_revision(since: str, why: str) -> UsageError:
    hint = "give a git revision of the project's repository (HEAD~1, a tag, a commit) or a manifest file (build/<game>.manifest.json)"
    problem = Problem("--since", f"--since {since}: {why}", hint, code="bad-since")
    return UsageError(problem.message, [problem])


class checkout:
    """The files of the project in the folder ``root`` at the git revision ``since``, in a temporary folder removed
    afterwards (the project's folder inside it is what ``with`` gives).

    The files are read as git stores them (``ls-tree``, then ``cat-file --batch``), never through ``git archive``
    or a checkout, which would run the filters (``smudge``, ``process``) and ``export-subst`` that a stranger's
    repository may name. Their count and total size are checked from the listing before any is written; a path
    git would not check out (``..``, absolute) is refused; a symbolic link is kept only when its real path stays
    in the folder."""

    def __init__(self, root: Path, since: str):
        self.root, self.since = root, since
        self.folder: tempfile.TemporaryDirectory[str] | None = None

    def __enter__(self) -> Path:
        root, since = self.root, self.since
        if since.startswith("-") or not since.strip() or any(c in since for c in "\n\r\0"):
            raise bad_revision(since, "not a revision")
        try:
            found = _git(root, "rev-parse", "--verify", "--quiet", "--end-of-options", f"{since}^{{commit}}")
            prefix = _git(root, "rev-parse", "--show-prefix")
        except (OSError, subprocess.TimeoutExpired) as exc:
            raise bad_revision(since, f"git could not be run ({exc})") from None
        if prefix.returncode != 0:
            raise bad_revision(since, "the project is not in a git repository")
        if found.returncode != 0:
            raise bad_revision(since, "no such revision in the project's git repository")
        commit = found.stdout.decode().strip()
        tree = f"{commit}:{prefix.stdout.decode().strip()}"  # the project's folder at the revision
        self.folder = tempfile.TemporaryDirectory(prefix="printer-since-")
        files = Path(self.folder.name) / "files"
        try:
            blobs, links = _listing(root, tree, since)
            _unpack(root, blobs, links, files, since)
        except BaseException:
            self.__exit__()
            raise
        if not (files / "printer.toml").is_file():
            self.__exit__()
            raise bad_revision(since, "the project has no printer.toml at that revision")
        return files

    def __exit__(self, *exc: object) -> None:
        if self.folder is not None:
            self.folder.cleanup()
            self.folder = None


class _Git:
    """``git ARGS`` run in ``root`` with its output read as it comes (``out``), killed after :data:`GIT_TIMEOUT`
    seconds (``timed_out``); ``stdin`` is a file to read requests from."""

    def __init__(self, root: Path, args: Sequence[str], stdin: Any = subprocess.DEVNULL):
        self.errors = tempfile.TemporaryFile()  # a file, not a pipe: git's messages never fill it and stall git
        self.proc = subprocess.Popen(  # noqa: S603 (no shell; git found on PATH as every git command)
            [*_GIT, str(root), *args], stdin=stdin, stdout=subprocess.PIPE, stderr=self.errors, env=_git_env()
        )
        self.out = self.proc.stdout
        self.timed_out = False
        self.timer = threading.Timer(GIT_TIMEOUT, self._kill)
        self.timer.start()

    def _kill(self) -> None:
        self.timed_out = True
        self.proc.kill()

    def close(self, stop: bool = False) -> tuple[int, str]:
        """Wait for git to end (killed at once with ``stop``, else when its time is up); its exit code and the
        start of its error output."""
        if stop:
            self.proc.kill()
        self.out.close()  # type: ignore[union-attr]  # git's stdout is a pipe: never None
        self.proc.wait()  # the timer kills a git that does not end in time
        self.timer.cancel()
        self.errors.seek(0)
        err = self.errors.read(300).decode(errors="replace").strip()
        self.errors.close()
        return self.proc.returncode, err


def _listing(root: Path, tree: str, since: str) -> tuple[list[tuple[str, str]], list[tuple[str, str]]]:
    """The files of ``tree``: (object id, path) of its blobs and of its symbolic links, their count and total
    size checked against :data:`ARCHIVE_FILES` and :data:`ARCHIVE_LIMIT` as they are listed."""
    git = _Git(root, ["ls-tree", "-r", "-z", "-l", "--full-tree", "--end-of-options", tree])
    blobs: list[tuple[str, str]] = []
    links: list[tuple[str, str]] = []
    total, rest, problem = 0, b"", None
    try:
        while problem is None and (chunk := git.out.read(1 << 16)):  # type: ignore[union-attr]  # a pipe: never None
            *entries, rest = (rest + chunk).split(b"\0")
            for entry in entries:
                head, _, name = entry.partition(b"\t")
                fields = head.split()
                if len(fields) != 4 or not (fields[3].isdigit() or fields[3] == b"-"):
                    problem = f"git ls-tree gave a line printer cannot read: {entry[:100]!r}"
                    break
                mode, kind, oid, size = fields
                path = name.decode("utf-8", "surrogateescape")
                if kind != b"blob" or not _safe_path(path):
                    continue  # a submodule, or a path git would not check out
                (links if mode == b"120000" else blobs).append((oid.decode(), path))
                total += int(size)
                if len(blobs) + len(links) > ARCHIVE_FILES:
                    problem = f"the project has more than {ARCHIVE_FILES:,} files at {since}"
                elif total > ARCHIVE_LIMIT:
                    problem = f"the project's files at {since} are larger than {ARCHIVE_LIMIT // 2**30} GB"
    finally:
        code, err = git.close(stop=problem is not None)
    if problem is not None:
        raise bad_revision(since, problem)
    if git.timed_out:
        raise bad_revision(since, f"git ls-tree took more than {GIT_TIMEOUT} s")
    if code != 0:
        raise bad_revision(since, f"git ls-tree failed: {err}")
    return blobs, links


def _safe_path(path: str) -> bool:
    parts = path.split("/")
    return bool(path) and not path.startswith("/") and all(p not in ("", ".", "..") for p in parts)


def _unpack(root: Path, blobs: list[tuple[str, str]], links: list[tuple[str, str]], files: Path, since: str) -> None:
    """Write ``blobs`` under ``files``, then the ``links`` whose real path stays under it."""
    requests = files.parent / "objects"
    requests.write_text("".join(f"{oid}\n" for oid, _ in [*blobs, *links]), encoding="ascii")
    files.mkdir()
    with requests.open("rb") as stdin:
        git = _Git(root, ["cat-file", "--batch"], stdin)
        try:
            for oid, path in blobs:
                size = _object_size(git, oid, since)
                _write_blob(files / path, git.out, size)
            targets = [(path, git.out.read(_object_size(git, oid, since) + 1)[:-1]) for oid, path in links]  # type: ignore[union-attr]  # a pipe: never None
        except (OSError, ValueError) as exc:
            code, err = git.close(stop=True)
            if git.timed_out:
                raise bad_revision(since, f"git cat-file took more than {GIT_TIMEOUT} s") from None
            raise bad_revision(since, f"the project's files could not be read: {err or exc}") from None
        code, err = git.close()
    if code != 0:
        raise bad_revision(since, f"git cat-file failed: {err}")
    home = os.path.realpath(files)
    for path, target in targets:
        link = files / path
        if link.exists() or link.is_symlink():
            continue
        link.parent.mkdir(parents=True, exist_ok=True)
        link.symlink_to(os.fsdecode(target))
    for path, _ in targets:  # every link made, each one's real path is checked: a link out is removed
        link = files / path
        if link.is_symlink() and not Path(os.path.realpath(link)).is_relative_to(home):
            link.unlink()


def _object_size(git: _Git, oid: str, since: str) -> int:
    header = git.out.readline().split()  # type: ignore[union-attr]  # a pipe: never None
    if len(header) != 3 or header[0].decode() != oid:
        raise ValueError(f"git gave no object {oid}")
    return int(header[2])


def _write_blob(path: Path, out: Any, size: int) -> None:
    """Copy ``size`` bytes of ``out`` (and the newline after them) to the new file ``path``."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o644)
    with os.fdopen(fd, "wb") as file:
        while size > 0:
            chunk = out.read(min(size, 1 << 20))
            if not chunk:
                raise ValueError("git's output ended early")
            file.write(chunk)
            size -= len(chunk)
    out.read(1)
