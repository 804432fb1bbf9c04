"""``printer import``: convert other tools' card databases into printer card files.

Each source is a subcommand of the ``import`` group (``printer import
oracle``); the conversion itself lives in :mod:`printer.cards.importing`. Every
subcommand takes the same arguments (:func:`_import_arguments`) and hands
its import to :func:`_write_import`, which reports the problems and writes
through :func:`printer.api.import_cards`: atomic writes, no existing file changed
without ``--force``, ``--dry-run`` to see what would change.
"""

from __future__ import annotations

from collections.abc import Callable, MutableMapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from printer import api
from printer.api import UsageError, counted
from printer.cli.output import EXIT_CODES, EXIT_INVALID, EXIT_OK, EXIT_USAGE, project_from, report

if TYPE_CHECKING:
    from printer.api import Importer, ImportResult


class _ImportGroup(click.Group):
    """The ``import`` group, whose subcommands (one per registered importer) are made on first use.

    Finding the importers loads every installed game (:func:`printer.api.importers`): ``printer --help`` and the
    other commands do without it.
    """

    lazy_commands = True  # printer.cli's epilogs leave it alone: each subcommand is made with its own
    _loaded = False

    @property
    def commands(self) -> MutableMapping[str, click.Command]:
        if not self._loaded:
            self._loaded = True
            from printer.cli.translations_cmd import import_translations

            self._commands.setdefault("translations", import_translations)  # printer's own, not a game's

            for importer in api.importers().values():
                _command(importer)
        return self._commands

    @commands.setter
    def commands(self, value: MutableMapping[str, click.Command]) -> None:
        self._commands = value


@click.group(name="import", cls=_ImportGroup)
def import_group() -> None:
    """Convert another tool's card database into printer card files."""


def _write_import(
    ctx: click.Context, module: Importer, result: ImportResult, out: Path, force: bool, dry_run: bool
) -> None:
    """Report, write and summarise an import (:func:`printer.api.import_cards`), then exit.

    Exit 0 ok, 1 invalid input, 2 a file needs ``--force``. The project is
    looked up first, so that a usage error (a ``--project`` without the
    game) comes before the input's problems.
    """
    try:
        project = project_from(ctx)
        project.game(module.game)
    except UsageError:
        if ctx.find_root().params.get("project"):
            raise
        project = None
    n_errors, _ = report(result.problems, ctx.meta.get("printer.strict", False))
    outcome = api.import_cards(project, module.game, result, module.summary, out, force, dry_run)
    for name, (status, n) in outcome.files.items():
        note = " (needs --force)" if name in outcome.needs_force else ""
        click.echo(f"{out / name}: {status}, {counted(n, 'card')}{note}")
    written = outcome.written
    unchanged = f", {len(outcome.files) - written} unchanged" if written < len(outcome.files) else ""
    click.echo(
        f"{outcome.summary}; {'would write' if dry_run else 'wrote'} {counted(written, 'file')} to {out}{unchanged}"
    )
    ctx.exit(EXIT_USAGE if outcome.needs_force else EXIT_INVALID if n_errors else EXIT_OK)


def _remember_strict(ctx: click.Context, param: click.Parameter, value: bool) -> bool:
    ctx.meta["printer.strict"] = value
    return value


def _import_arguments(
    out_help: str, folders: bool = True, one_file: bool = False
) -> Callable[[Callable[..., None]], click.Command]:
    """The arguments of every ``import`` subcommand: ``PATHS...`` (files, or folders too), ``--out DIR``,
    ``--force``, ``--dry-run``, ``--strict``; the command gets ``(ctx, paths, out, force, dry_run)`` (``--strict``
    is kept in ``ctx.meta`` for :func:`_write_import`)."""
    files = "a file that already exists and differs" if one_file else "files that already exist and differ"
    said = "whether the file would be" if one_file else "which files would be"
    decorators: list[Callable[[Any], Any]] = [
        click.argument(
            "paths", nargs=-1, required=True, type=click.Path(exists=True, dir_okay=folders, path_type=Path)
        ),
        click.option("--out", "out", required=True, type=click.Path(path_type=Path), metavar="DIR", help=out_help),
        click.option("--force", is_flag=True, help=f"Overwrite {files}."),
        click.option("--dry-run", is_flag=True, help=f"Write nothing; say {said} new, changed or unchanged."),
        click.option(
            "--strict",
            is_flag=True,
            expose_value=False,
            callback=_remember_strict,
            help="Treat warnings (fields not imported, text repaired) as errors: exit 1 (the files are still written).",
        ),
        click.pass_context,
    ]

    def apply(command: Any) -> Any:
        for decorator in reversed(decorators):
            command = decorator(command)
        return command

    return apply


def _command(importer: Importer) -> click.Command:
    """The ``printer import NAME`` subcommand of one registered :class:`printer.api.Importer`."""

    def run(ctx: click.Context, paths: tuple[Path, ...], out: Path, force: bool, dry_run: bool) -> None:
        _write_import(ctx, importer, importer.read(list(paths)), out, force, dry_run)

    run.__doc__ = importer.help
    arguments = _import_arguments(importer.out_help, folders=importer.folders, one_file=importer.one_file)
    return import_group.command(name=importer.name, epilog=EXIT_CODES)(arguments(run))


COMMANDS = [import_group]
