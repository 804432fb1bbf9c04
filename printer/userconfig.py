"""The user's own word: folders printer may read outside a project, and limits a project may raise.

A project may come from a stranger, so its ``printer.toml`` cannot widen what printer reads or how much work it
does (:mod:`printer.project` refuses its ``read_also`` folders outside it and its raised ``[limits]``). That takes
the user's own word, in one of two places:

- the user's config file: ``$PRINTER_CONFIG`` when set, else ``$XDG_CONFIG_HOME/printer/config.toml``, else
  ``~/.config/printer/config.toml`` (no file: nothing allowed)::

      read_also = ["~/games/shared-art"]   # absolute folders (~ is the home folder)

      [limits]
      cards_per_build = 50000              # a publisher's whole catalogue in one PDF
      sheets_per_build = 6000              # its 5,556 sheets of 9 cards

- the command line: ``printer --read-also DIR --allow-limit NAME=VALUE COMMAND`` (each option repeatable). The
  command line passes them to printer's own processes (workers, the server's reloads) in the environment:
  ``PRINTER_READ_ALSO`` (absolute folders separated by ``os.pathsep``) and ``PRINTER_ALLOW_LIMIT`` (``NAME=VALUE``
  separated by spaces); a value given there is the user's word too.

A limit on the command line wins over the config file's. Problems with either are usage errors (exit 2), located at
the config file's line or on the command line.
"""

from __future__ import annotations

import os
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from printer.config import key_lines, locate
from printer.limits import check_value
from printer.location import toml_error_place
from printer.problems import Location, Problem, UsageError

ENV_CONFIG = "PRINTER_CONFIG"
ENV_READ_ALSO = "PRINTER_READ_ALSO"
ENV_ALLOW_LIMIT = "PRINTER_ALLOW_LIMIT"
KEYS = ("read_also", "limits")


@dataclass(frozen=True)
class UserWord:
    """What the user allows: ``read_also`` folders (absolute, links resolved) and ``limits`` (name to value)."""

    read_also: tuple[Path, ...] = ()
    limits: Mapping[str, float] = field(default_factory=dict)
    #: the user's config file (it need not exist)
    config: Path | None = None


def config_file(environ: Mapping[str, str] | None = None) -> Path:
    """The user's config file: ``$PRINTER_CONFIG``, else ``$XDG_CONFIG_HOME/printer/config.toml``, else
    ``~/.config/printer/config.toml``."""
    env = os.environ if environ is None else environ
    if env.get(ENV_CONFIG):
        return Path(env[ENV_CONFIG]).expanduser()
    base = env.get("XDG_CONFIG_HOME") or ""
    folder = Path(base).expanduser() if os.path.isabs(os.path.expanduser(base)) else Path.home() / ".config"
    return folder / "printer" / "config.toml"


def _refuse(where: str | Location, message: str, hint: str | None = None) -> UsageError:
    return UsageError(message, [Problem(where, message, hint, code="user-config")])


def _folder(text: object, where: str | Location, base: Path | None = None) -> Path:
    """``text`` as an absolute folder, links resolved; relative only with ``base`` (the command line's folder)."""
    if not isinstance(text, str) or not text.strip():
        raise _refuse(where, f"read_also: {text!r} is not a folder name")
    path = Path(os.path.expanduser(text))
    if not path.is_absolute():
        if base is None:
            raise _refuse(where, f"read_also: {text!r} is not an absolute path", 'e.g. "~/games/shared-art"')
        path = base / path
    if base is not None and not path.is_dir():  # named on the command line for this run: a typo, or no folder
        raise _refuse(where, f"read_also: {text!r} is not a folder", "name a folder that exists")
    return Path(os.path.realpath(path))


def read_config(path: Path) -> UserWord:
    """The user's config file at ``path`` (an empty word when there is none); raises :class:`UsageError`."""
    try:
        text = path.read_text(encoding="utf-8-sig")
    except FileNotFoundError:
        return UserWord(config=path)
    except (OSError, UnicodeDecodeError) as exc:
        raise _refuse(str(path), f"your config file cannot be read: {exc}") from None
    try:
        data = tomllib.loads(text)
    except (tomllib.TOMLDecodeError, RecursionError) as exc:
        place, reason = toml_error_place(path, exc)
        raise _refuse(place, f"not valid TOML: {reason}") from None
    lines = key_lines(text)
    for key in data:
        if key not in KEYS:
            raise _refuse(
                locate(path, lines, (key,)), f"unknown key {key!r} in your config", "known: " + ", ".join(KEYS)
            )
    listed = data.get("read_also", [])
    where = locate(path, lines, ("read_also",))
    if not isinstance(listed, list):
        raise _refuse(where, "read_also must be a list of folders", 'e.g. read_also = ["~/games/shared-art"]')
    folders = tuple(_folder(item, where) for item in listed)
    table = data.get("limits", {})
    if not isinstance(table, dict):
        raise _refuse(locate(path, lines, ("limits",)), "[limits] must be a table")
    limits: dict[str, float] = {}
    for name, raw in table.items():
        value, problem = check_value(name, raw, locate(path, lines, ("limits", name)))
        if problem is not None or value is None:
            raise UsageError(str(problem and problem.message), [problem] if problem else [])
        limits[name] = value
    return UserWord(folders, limits, path)


def parse_allow_limit(text: str, where: str = "command line") -> tuple[str, float]:
    """``NAME=VALUE`` (``--allow-limit``) as ``(name, value)``; raises :class:`UsageError`."""
    name, sep, raw = text.partition("=")
    if not sep:
        message = f"--allow-limit {text!r} gives no value"
        hint = f"NAME=VALUE, e.g. --allow-limit {name.strip() or 'cards_per_build'}=50000"
        raise UsageError(message, [Problem(where, message, hint, code="usage")])
    try:
        number: object = float(raw)
    except ValueError:
        number = raw
    value, problem = check_value(name.strip(), number, where, "--allow-limit")
    if problem is not None:
        hint = problem.hint or "NAME=VALUE, e.g. --allow-limit cards_per_build=50000"
        raise UsageError(problem.message, [Problem(where, problem.message, hint, code="usage")])
    assert value is not None  # check_value gives a value or a problem
    return name.strip(), value


def load(environ: Mapping[str, str] | None = None) -> UserWord:
    """The user's word now: the config file, then the command line's (from the environment, see the module)."""
    env = os.environ if environ is None else environ
    word = read_config(config_file(env))
    folders = list(word.read_also)
    for text in (env.get(ENV_READ_ALSO) or "").split(os.pathsep):
        if text:
            folders.append(_folder(text, ENV_READ_ALSO, Path.cwd()))
    limits = dict(word.limits)
    for text in (env.get(ENV_ALLOW_LIMIT) or "").split():
        name, value = parse_allow_limit(text, ENV_ALLOW_LIMIT)
        limits[name] = value
    return UserWord(tuple(dict.fromkeys(folders)), limits, word.config)


def command_line(read_also: Sequence[str], allow_limit: Sequence[str]) -> dict[str, str]:
    """The environment values that carry ``--read-also`` and ``--allow-limit`` (checked: a :class:`UsageError` for
    a bad one), each added to what the environment already holds; relative folders are taken from the current
    folder."""
    env: dict[str, str] = {}
    if read_also:
        folders = [str(_folder(text, "command line (--read-also)", Path.cwd())) for text in read_also]
        env[ENV_READ_ALSO] = os.pathsep.join([p for p in [os.environ.get(ENV_READ_ALSO, "")] if p] + folders)
    if allow_limit:
        pairs = [parse_allow_limit(text, "command line (--allow-limit)") for text in allow_limit]
        env[ENV_ALLOW_LIMIT] = " ".join(
            [p for p in [os.environ.get(ENV_ALLOW_LIMIT, "")] if p] + [f"{n}={v!r}" for n, v in pairs]
        )
    return env
