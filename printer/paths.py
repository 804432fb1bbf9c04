"""The one resolver for every path a project names, and the checks on every name that becomes a file name.

A project may come from a stranger, so every path it names (printer.toml
and rules.toml entries, card files found in its folders, layout files,
chapters and aids, art, icons, schemas) goes through :func:`contained`: the
symbolic links are resolved and the real path must lie inside the project
root, or inside one of the read-only folders printer itself ships
(:func:`printer.project.bundled_root`) or the project's ``read_also`` folders
(``[project] read_also = ["../shared-art"]`` in printer.toml, each one outside the
project allowed by the user: :mod:`printer.userconfig`).
Anything else is a located :class:`~printer.problems.Problem` naming the key
and the file, never a read.

A card file is written (the editor's save, new card, duplicate, delete) only where
:func:`write_problem` allows: inside the project's real root, in none of its
``read_also`` folders and none of printer's bundled files.

Only regular files are read (:func:`regular_file_problem`: a FIFO, a device
or a socket would hang or never end). Names that become file names are
checked (:data:`GAME_ID` for game ids) or made safe (:func:`safe_file_name`:
long names shortened with a short hash). Outputs are checked to lie in the
output folder before anything is written (:func:`output_path`), and an
output folder that is a symbolic link is refused (:func:`output_folder_problem`,
the one check every writer and the preview server use: with the project
root, no folder between the root and the output, nor the output itself, may be a link).
"""

from __future__ import annotations

import hashlib
import os
import re
import stat
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path

from printer.problems import Problem, UsageError


def url2pathname(url: str) -> str:
    """The local path of a ``file:`` URL's path part, as :func:`urllib.request.url2pathname` gives it on this
    platform (percent-escapes decoded; on Windows, drive letters and backslashes), without importing
    ``urllib.request``, which brings HTTP and SSL with it (20-60 ms of a command's start)."""
    if os.name == "nt":
        from nturl2path import url2pathname as nt_path

        return str(nt_path(url))
    from urllib.parse import unquote

    return unquote(url)


#: a game id: it becomes a folder and file name (``cards/<id>/``, ``build/<id>.pdf``)
GAME_ID = re.compile(r"[a-z0-9][a-z0-9-]*")
#: the longest file name printer writes (bytes of UTF-8); most file systems allow 255
MAX_NAME_BYTES = 120


def is_inside(path: Path, roots: Iterable[Path]) -> bool:
    """Whether the real path of ``path`` (links resolved) lies inside one of ``roots`` (also resolved)."""
    real = Path(os.path.realpath(path))
    return any(real.is_relative_to(Path(os.path.realpath(root))) for root in roots)


def contained(
    root: Path, name: str | os.PathLike[str], key: str, where: str, read_also: Sequence[Path] = ()
) -> tuple[Path, Problem | None]:
    """``name`` (relative to ``root``) as a path, and a problem when it leaves ``root`` and ``read_also``.

    ``key`` names the setting (``cards``, ``files[2]``, ``art``) and
    ``where`` its location (``printer.toml``, ``rules.toml::$.files[2]``);
    both appear in the problem, with the real target of a symbolic link.
    Returns ``(path, None)`` when the path is inside (it need not exist).
    """
    text = os.fspath(name)
    path = Path(text) if os.path.isabs(text) else Path(root) / text
    if is_inside(path, [root, *read_also]):
        return path, None
    real = Path(os.path.realpath(path))
    how = (
        "an absolute path"
        if os.path.isabs(text)
        else "a symbolic link"
        if real != Path(os.path.abspath(path))
        else "'..' leads out of it"
    )
    message = f"{key} = {text!r} is outside the project ({how}, to {real})"
    return path, Problem(
        where,
        message,
        "keep every file the project names inside the project folder; to let printer read a folder outside it, "
        "allow the folder yourself: --read-also DIR on the command line or read_also in your own config "
        "(~/.config/printer/config.toml)",
        code="outside-project",
    )


def contained_or_raise(
    root: Path, name: str | os.PathLike[str], key: str, where: str, read_also: Sequence[Path] = ()
) -> Path:
    """:func:`contained`, raising :class:`UsageError` (exit 2) with the problem when the path leaves the project."""
    path, problem = contained(root, name, key, where, read_also)
    if problem is not None:
        raise UsageError(problem.message, [problem])
    return path


def regular_file_problem(path: Path, where: str | None = None) -> Problem | None:
    """A problem when ``path`` exists but is not a regular file (a FIFO, a device, a socket), else ``None``.

    Reading such a file would block forever (a FIFO) or never end
    (``/dev/zero``): printer refuses it before opening it.
    """
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return None
    if stat.S_ISREG(mode) or stat.S_ISDIR(mode):
        return None
    kind = (
        "a named pipe (FIFO)"
        if stat.S_ISFIFO(mode)
        else "a device"
        if stat.S_ISCHR(mode) or stat.S_ISBLK(mode)
        else "a socket"
        if stat.S_ISSOCK(mode)
        else "not a regular file"
    )
    return Problem(where or str(path), f"{kind}, not a file: printer reads only regular files", code="not-a-file")


def safe_file_name(text: str, max_bytes: int = MAX_NAME_BYTES) -> str:
    """``text`` as one safe file name: no path separators, no leading dot, at most ``max_bytes`` of UTF-8.

    Separators and control characters become ``-``; a name that is too long
    is cut and ends in ``-`` and 8 hex digits of its SHA-256, so two long
    names that share a beginning stay apart.
    """
    name = re.sub(r"[\x00-\x1f/\\:]+", "-", text).strip(" .") or "unnamed"
    if name.startswith("-"):
        name = name.lstrip("-") or "unnamed"
    if len(name.encode("utf-8")) <= max_bytes:
        return name
    digest = hashlib.sha256(text.encode("utf-8")).hexdigest()[:8]
    cut = name.encode("utf-8")[: max_bytes - 9].decode("utf-8", errors="ignore")
    return f"{cut}-{digest}"


def output_folder_problem(folder: Path, root: Path | None = None) -> Problem | None:
    """A problem when ``folder`` (an output folder, or a file or folder in one) is reached through a symbolic link.

    Without ``root``: when ``folder`` itself is a link. With ``root`` (the
    project): when ``folder`` does not lie under ``root`` (by its absolute
    path), or when any part of it below ``root`` that exists (``build``,
    ``build/.cache``, ... and ``folder`` itself) is a link, so that its
    real path is the path printer shows. Parts not there yet are not links:
    creating them stays inside. Returns ``None`` when it is safe to write
    or serve. A project could otherwise ship ``build`` (or ``build/.cache``)
    as a link to anywhere: its writes and the server's files would go there.
    """
    folder = Path(os.path.abspath(folder))
    parts = [folder]
    if root is not None:
        base = Path(os.path.abspath(root))
        if not folder.is_relative_to(base):
            return Problem(str(folder), f"{folder} is outside the project {base}", code="output-outside")
        parts = [
            base.joinpath(*folder.relative_to(base).parts[:n])
            for n in range(1, len(folder.parts) - len(base.parts) + 1)
        ]
    for part in parts:
        if part.is_symlink():
            target = os.path.realpath(part)
            message = (
                f"the output folder is a symbolic link (to {target}); printer writes only into a real folder"
                if part == folder
                else f"a symbolic link (to {target}) on the way to {folder}; printer writes only into real folders"
            )
            return Problem(
                str(part),
                message,
                "remove the link: printer makes a real folder there (a build also takes --out DIR)",
                code="output-link",
            )
        if not part.exists():
            break
    return None


def check_output_folder(folder: Path, root: Path | None = None) -> Path:
    """``folder`` when :func:`output_folder_problem` finds nothing; raises :class:`UsageError` (exit 2) otherwise."""
    problem = output_folder_problem(folder, root)
    if problem is not None:
        raise UsageError(problem.message, [problem])
    return Path(folder)


def output_path(out_dir: Path, name: str) -> Path:
    """``out_dir / name``, checked to lie inside ``out_dir``; raises :class:`UsageError` otherwise.

    An ``out_dir`` that is a symbolic link is refused (a project could
    otherwise ship ``build`` as a link to anywhere).
    """
    out_dir = Path(out_dir)
    check_output_folder(out_dir)
    target = out_dir / name
    if not Path(os.path.abspath(target)).is_relative_to(Path(os.path.abspath(out_dir))) or ".." in Path(name).parts:
        problem = Problem(str(target), f"{name!r} would be written outside {out_dir}", code="output-outside")
        raise UsageError(problem.message, [problem])
    return target


#: the largest text file printer reads from a project (a chapter, an aid, a settings file), bytes
MAX_TEXT_BYTES = 10 * 2**20


def read_text(
    path: Path, where: str | None = None, max_bytes: int = MAX_TEXT_BYTES
) -> tuple[str | None, Problem | None]:
    """The UTF-8 text of ``path`` (a byte-order mark dropped, CRLF as LF), or ``(None, problem)``.

    Refused with a located problem: a folder, a FIFO, device or socket,
    a file over ``max_bytes``, bytes that are not UTF-8, and any OS error
    (permission, I/O) with its message.
    """
    where = where or str(path)
    if Path(path).is_dir():
        return None, Problem(where, "is a folder, not a file", code="not-a-file")
    special = regular_file_problem(path, where)
    if special is not None:
        return None, special
    try:
        size = os.stat(path).st_size
        if size > max_bytes:
            return None, Problem(
                where, f"file is {size:,} bytes, over the limit of {max_bytes:,} bytes", code="too-large"
            )
        raw = Path(path).read_bytes()
    except OSError as exc:
        return None, Problem(where, f"cannot read: {exc.strerror or exc}", code="unreadable")
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        return None, Problem(
            where,
            f"not UTF-8 text: byte 0x{raw[exc.start]:02x} at offset {exc.start}",
            "save it as UTF-8",
            code="encoding",
        )
    return text.replace("\r\n", "\n"), None


def bundled_root() -> Path:
    """The folder holding printer's bundled ``schema/`` and ``templates/``.

    In an installed wheel they live in ``printer/_bundled``; in a source
    checkout (``pip install -e .``) they are the repository's own folders.
    """
    here = Path(__file__).resolve().parent
    packaged = here / "_bundled"
    if packaged.is_dir():
        return packaged
    return here.parent


def bundled_schema(*parts: str) -> Path:
    """A file of printer's bundled ``schema/`` folder: ``bundled_schema("deck.schema.json")``."""
    return bundled_root().joinpath("schema", *parts)


def bundled_folders() -> list[Path]:
    """printer's bundled ``schema/`` and ``templates/`` folders: read-only for every writer."""
    return [bundled_root() / "schema", bundled_root() / "templates"]


def bundled_problem(path: Path, where: str | None = None) -> Problem | None:
    """A problem when the real path of ``path`` lies in printer's bundled files (:func:`bundled_folders`), which no
    writer may change; else ``None``."""
    real = Path(os.path.realpath(path))
    for folder in bundled_folders():
        if real.is_relative_to(Path(os.path.realpath(folder))):
            return Problem(
                where or str(path),
                f"{path} is one of printer's bundled files ({real}): they are read-only",
                "keep the project's own schema and cards in the project folder",
                code="read-only",
            )
    return None


def write_problem(path: Path, root: Path, read_also: Sequence[Path] = (), where: str | None = None) -> Problem | None:
    """Why printer may not write the card file ``path``, or ``None`` when it may: the one rule of every writer.

    Allowed: the real path (links resolved) lies inside the real ``root``, in no ``read_also`` folder (read-only
    everywhere; a folder that holds the whole project does not count) and in none of printer's bundled files
    (:func:`bundled_folders`).
    """
    real, home = Path(os.path.realpath(path)), Path(os.path.realpath(root))
    where = where or str(path)
    bundled = bundled_problem(path, where)
    if bundled is not None:
        return bundled
    if not real.is_relative_to(home):
        return Problem(
            where, f"{path} is outside the project ({real}): printer writes only inside it", code="read-only"
        )
    for folder in read_also:
        shared = Path(os.path.realpath(folder))
        if real.is_relative_to(shared) and not home.is_relative_to(shared):
            return Problem(
                where,
                f"{path} is in a read_also folder ({shared}): read_also folders are read-only",
                "edit the file where it belongs, or copy it into the project",
                code="read-only",
            )
    return None


def cache_folder(root: Path, build_dir: Path, name: str) -> Path | None:
    """``build_dir/.cache/name`` when it is safe to write there, else ``None`` (build without that cache).

    Safe: ``build_dir`` and ``build_dir/.cache`` are real folders (or not there yet), not symbolic links,
    and ``build_dir`` lies inside the project ``root``; a project could otherwise ship ``build`` as a link
    to anywhere.
    """
    folder = Path(build_dir) / ".cache" / name
    return None if output_folder_problem(folder, root) is not None else folder


def user_cache_folder(name: str, environ: Mapping[str, str] | None = None) -> Path:
    """The user's cache folder for ``name``: ``$XDG_CACHE_HOME/printer/<name>`` (an absolute ``XDG_CACHE_HOME``
    only, as the XDG Base Directory Specification asks), else ``~/.cache/printer/<name>``. Not created here."""
    env = os.environ if environ is None else environ
    base = os.path.expanduser(env.get("XDG_CACHE_HOME") or "")
    folder = Path(base) if os.path.isabs(base) else Path.home() / ".cache"
    return folder / "printer" / name


def private_folder(folder: Path) -> Path | None:
    """``folder``, made when missing (mode 0700), when it is a real folder of this user's that no one else may
    write to; else ``None``."""
    try:
        folder.mkdir(parents=True, exist_ok=True, mode=0o700)
        found = os.lstat(folder)
    except OSError:
        return None
    if not stat.S_ISDIR(found.st_mode) or stat.S_IMODE(found.st_mode) & 0o022:
        return None
    if hasattr(os, "getuid") and found.st_uid != os.getuid():
        return None
    return folder
