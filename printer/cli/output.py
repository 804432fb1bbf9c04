"""What every command shares: finding the project, printing problems, exit codes."""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any, TypeVar

import click

from printer.api import ERROR, Problem, UsageError, counted

if TYPE_CHECKING:
    from printer.api import Project

EXIT_OK, EXIT_INVALID, EXIT_USAGE = 0, 1, 2
#: the end of every command's help, unless the command states its own
EXIT_CODES = "Exit codes: 0 ok, 1 invalid data or illegal deck, 2 usage error."


def project_from(ctx: click.Context) -> Project:
    """The project named by ``--project`` or found above the current folder; its warnings (a ``read_also`` folder
    or a limit printer.toml may not set) are printed."""
    from printer import api

    root = ctx.find_root().params.get("project")
    return loaded(api.load_project(Path(root) if root else None))


def loaded(project: Project) -> Project:
    """``project``, its loading warnings printed to stderr (each with how to allow what was refused)."""
    if project.problems:
        here = _here()
        click.echo("\n".join(relative(str(p), here) for p in project.problems), err=True)
    return project


READ_ALSO_HELP = (
    "A folder outside the project that printer may read, never write (shared art); repeatable. A project's own "
    "read_also folders outside it are read only when you allow them here or in your config."
)
ALLOW_LIMIT_HELP = (
    "Raise one of printer's limits to VALUE for this run, e.g. cards_per_build=50000; repeatable. A project's "
    "printer.toml may only lower limits."
)


#: ``--cards DIR``: the card folder a command reads instead of the game's own (``cards_dir`` of the api calls)
cards_dir_option = click.option(
    "--cards", "cards_dir", type=click.Path(path_type=Path), metavar="DIR", help="Card folder (default: the game's)."
)


_Command = TypeVar("_Command", bound=Callable[..., Any])  # a command function the options decorate


def user_word_options(command: _Command) -> _Command:
    """``--read-also DIR`` and ``--allow-limit NAME=VALUE`` on a command that reads a project (as on ``printer``
    itself, before the command): the user's word for this run (:func:`user_word`)."""

    def read_also(ctx: click.Context, param: click.Parameter, value: tuple[str, ...]) -> None:
        if value:
            user_word(ctx, value, ())

    def allow_limit(ctx: click.Context, param: click.Parameter, value: tuple[str, ...]) -> None:
        if value:
            user_word(ctx, (), value)

    command = click.option(
        "--allow-limit",
        multiple=True,
        metavar="NAME=VALUE",
        expose_value=False,
        callback=allow_limit,
        help=ALLOW_LIMIT_HELP,
    )(command)
    return click.option(
        "--read-also",
        multiple=True,
        type=click.Path(file_okay=False),
        metavar="DIR",
        expose_value=False,
        callback=read_also,
        help=READ_ALSO_HELP,
    )(command)


def user_word(ctx: click.Context, read_also: Iterable[str], allow_limit: Iterable[str]) -> None:
    """Make ``--read-also`` and ``--allow-limit`` the user's word for this run: put in the environment, where every
    project loaded from now on (in this process and printer's worker processes) finds it, until the command ends."""
    import os

    from printer.api import user_word_environment

    values = user_word_environment(list(read_also), list(allow_limit))
    previous = {name: os.environ.get(name) for name in values}
    os.environ.update(values)

    def restore() -> None:
        for name, value in previous.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value

    ctx.call_on_close(restore)


def report(problems: Iterable[Problem], strict: bool = False, out: IO[str] | None = None) -> tuple[int, int]:
    """Print every problem to stderr, then a count; returns ``(errors, warnings)``.

    With ``strict`` warnings count as errors (and are printed as such).
    """
    lines, n_errors, n_warnings = report_lines(problems, strict)
    if lines:
        click.echo("\n".join(lines), file=out or sys.stderr)
    return n_errors, n_warnings


def report_lines(problems: Iterable[Problem], strict: bool = False) -> tuple[list[str], int, int]:
    """What :func:`report` prints, as lines: each problem (paths relative to the current folder), then the count."""
    lines: list[str] = []
    n_errors = n_warnings = 0
    here = _here()
    for problem in problems:
        if strict and not problem.is_error:
            problem = problem.with_severity(ERROR)
        lines.append(relative(str(problem), here))
        if problem.is_error:
            n_errors += 1
        else:
            n_warnings += 1
    if n_errors or n_warnings:
        lines.append(f"{counted(n_errors, 'error')}, {counted(n_warnings, 'warning')}")
    return lines, n_errors, n_warnings


def _here() -> str | None:
    try:
        here = str(Path.cwd())
    except OSError:  # the current folder was removed
        return None
    return None if here == "/" else here


def relative(text: str, here: str | None = "") -> str:
    """``text`` with paths inside the current folder shown relative to it (``cards/mygame/x.json``, not ``/home/...``).

    ``here`` is the current folder when the caller already asked for it (:func:`_here`; ``None``: none to
    strip)."""
    folder = _here() if here == "" else here
    if not folder:
        return text
    return text.replace(folder + "/", "")


def usage_error(message: str, hint: str | None = None, where: str = "command line") -> UsageError:
    return UsageError(message, [Problem(where, message, hint, code="usage")])
