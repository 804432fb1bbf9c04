"""The ``printer`` command: a thin click layer over the library.

Exit codes: 0 ok, 1 invalid data or illegal deck, 2 usage error.
"""

from __future__ import annotations

import gc
import os
import signal
import sys
import threading
from types import FrameType

import click

from printer.api import PrinterError
from printer.cli.output import ALLOW_LIMIT_HELP, EXIT_CODES, EXIT_INVALID, EXIT_USAGE, READ_ALSO_HELP, report


class _Commands(click.Group):
    """printer's group of commands, each made from its module when it is asked for (:data:`COMMAND_MODULES`)."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(COMMAND_MODULES)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        return _command(cmd_name)


@click.group(cls=_Commands, context_settings={"help_option_names": ["-h", "--help"]})
@click.option(
    "--project",
    type=click.Path(file_okay=False),
    metavar="DIR",
    help="Project folder (holding printer.toml); default: the nearest one above the current folder.",
)
@click.option(
    "--read-also",
    "read_also",
    multiple=True,
    type=click.Path(file_okay=False),
    metavar="DIR",
    help=READ_ALSO_HELP,
)
@click.option(
    "--allow-limit",
    "allow_limit",
    multiple=True,
    metavar="NAME=VALUE",
    help=ALLOW_LIMIT_HELP,
)
@click.version_option(package_name="printer")
@click.pass_context
def cli(ctx: click.Context, project: str | None, read_also: tuple[str, ...], allow_limit: tuple[str, ...]) -> None:
    """printer: validate card files, print card sheets, check decks.

    Your own config file (~/.config/printer/config.toml, or $PRINTER_CONFIG) may
    hold read_also folders and [limits] for every run.
    """
    if read_also or allow_limit:
        from printer.cli.output import user_word

        user_word(ctx, read_also, allow_limit)


#: each command's module in printer.cli, by the command's name: a module is imported when its command runs, or its
#: help is shown, not at every start (importing every one of them took 7 ms of each command's start)
COMMAND_MODULES = {
    "align": "align_cmd",
    "box": "box_cmd",
    "build": "build_cmd",
    "changes": "changes_cmd",
    "check-print": "check_cmd",
    "clean": "clean_cmd",
    "completion": "completion_cmd",
    "deck": "deck_cmd",
    "export": "export_cmd",
    "games": "games_cmd",
    "import": "import_cmd",
    "init": "init_cmd",
    "preflight": "preflight_cmd",
    "rules": "book_cmd",
    "serve": "serve_cmd",
    "validate": "validate_cmd",
}


def _epilogs(command: click.Command) -> None:
    """Every command's help ends with its exit codes (a command may state its own)."""
    if isinstance(command, click.Group):
        if getattr(command, "lazy_commands", False):  # its subcommands are made on first use, with their epilog
            return
        for each in command.commands.values():
            _epilogs(each)
    elif not command.epilog:
        command.epilog = EXIT_CODES


def _command(name: str) -> click.Command | None:
    """The command ``name``, its module imported (:data:`COMMAND_MODULES`); ``None`` for no such command."""
    import importlib

    module = COMMAND_MODULES.get(name)
    if module is None:
        return None
    found = next((c for c in importlib.import_module(f"printer.cli.{module}").COMMANDS if c.name == name), None)
    if found is not None:
        _epilogs(found)
    return found


def _terminate(signum: int, frame: FrameType | None) -> None:
    """SIGTERM ends printer like Ctrl-C: as an exception, so that half-written temporary files are removed."""
    raise SystemExit(128 + signum)


def main(argv: list[str] | None = None) -> None:
    """Entry point: runs the CLI and turns printer's exceptions into reports and exit codes.

    SIGTERM exits with 143 after the usual clean-up (:mod:`printer.fsutil`).
    """
    previous = (
        signal.signal(signal.SIGTERM, _terminate) if threading.current_thread() is threading.main_thread() else None
    )
    try:
        code = cli.main(args=argv, prog_name="printer", standalone_mode=False)
    except click.exceptions.Abort:
        click.echo("aborted", err=True)
        sys.exit(130)
    except click.ClickException as exc:
        exc.show()
        sys.exit(EXIT_USAGE if isinstance(exc, click.UsageError) else exc.exit_code)
    except OSError as exc:  # disk full, name too long, permission, read-only file system: one line, no traceback
        where, reason = exc.filename or "printer", exc.strerror or str(exc)
        if (
            isinstance(exc, (FileExistsError, NotADirectoryError))
            and os.path.exists(where)
            and not os.path.isdir(where)
        ):
            reason = f"{reason}: a file is where a folder is needed"
        click.echo(f"{where}: error: {reason}", err=True)
        sys.exit(EXIT_INVALID)
    except PrinterError as exc:
        report(exc.problems or [], strict=False) if exc.problems else click.echo(f"error: {exc}", err=True)
        sys.exit(exc.exit_code)
    finally:
        if previous is not None:
            signal.signal(signal.SIGTERM, previous)
    sys.exit(code if isinstance(code, int) else 0)


def run() -> None:
    """The ``printer`` program (its console script and ``python -m printer``): :func:`main` in a process of its own.

    On the way out every object still alive is frozen (:func:`gc.freeze`), so that the interpreter's last
    collection does not walk them all before the process ends: the exit handlers run and the exit code is
    main's, as before, and the process ends sooner (measured: 0.10-0.12 s after a one-card edit of 900 cards
    became 0.03 s). Not for a caller that goes on running after :func:`main`, as the tests do.
    """
    try:
        main()
    finally:
        gc.freeze()
