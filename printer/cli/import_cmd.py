"""``printer import``: convert other tools' card databases into printer card files.

Each source is a subcommand of the ``import`` group (``printer import
oracle``); the conversion itself lives in :mod:`printer.cards.importing`. Every
subcommand takes the same arguments (:func:`_import_arguments`) and hands
its import to :func:`_write_import`, which reports the problems and writes
through :func:`printer.api.import_cards`: atomic writes, no existing file changed
without ``--force``, ``--dry-run`` to see what would change.
"""

from __future__ import annotations

from pathlib import Path

import click

from printer import api
from printer.cards.load import card_files
from printer.cli.output import EXIT_INVALID, EXIT_OK, EXIT_USAGE, project_from, report
from printer.problems import UsageError


@click.group(name="import")
def import_group() -> None:
    """Convert another tool's card database into printer card files."""


def _write_import(ctx: click.Context, module, result, out: Path, force: bool, dry_run: bool) -> None:
    """Report, write and summarise an import (:func:`printer.api.import_cards`), then exit.

    Exit 0 ok, 1 invalid input, 2 a file needs ``--force``. The project is
    looked up first, so that a usage error (a ``--project`` without the
    game) comes before the input's problems.
    """
    try:
        project = project_from(ctx)
        project.game(module.GAME)
    except UsageError:
        if ctx.find_root().params.get("project"):
            raise
        project = None
    n_errors, _ = report(result.problems, ctx.meta.get("printer.strict", False))
    outcome = api.import_cards(project, module.GAME, result, module.summary, out, force, dry_run)
    for name, (status, n) in outcome.files.items():
        note = " (needs --force)" if name in outcome.needs_force else ""
        click.echo(f"{out / name}: {status}, {n} card{'s' * (n != 1)}{note}")
    written = outcome.written
    unchanged = f", {len(outcome.files) - written} unchanged" if written < len(outcome.files) else ""
    click.echo(
        f"{outcome.summary}; {'would write' if dry_run else 'wrote'} "
        f"{written} file{'s' * (written != 1)} to {out}{unchanged}"
    )
    ctx.exit(EXIT_USAGE if outcome.needs_force else EXIT_INVALID if n_errors else EXIT_OK)


def _remember_strict(ctx: click.Context, param, value: bool) -> bool:
    ctx.meta["printer.strict"] = value
    return value


def _import_arguments(out_help: str, folders: bool = True, one_file: bool = False):
    """The arguments of every ``import`` subcommand: ``PATHS...`` (files, or folders too), ``--out DIR``,
    ``--force``, ``--dry-run``, ``--strict``; the command gets ``(ctx, paths, out, force, dry_run)`` (``--strict``
    is kept in ``ctx.meta`` for :func:`_write_import`)."""
    files = "a file that already exists and differs" if one_file else "files that already exist and differ"
    said = "whether the file would be" if one_file else "which files would be"
    decorators = [
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

    def apply(command):
        for decorator in reversed(decorators):
            command = decorator(command)
        return command

    return apply


@import_group.command(name="oracle")
@_import_arguments("Folder to write the card files into (one per card type).")
def oracle_command(ctx: click.Context, paths: tuple[Path, ...], out: Path, force: bool, dry_run: bool) -> None:
    """Import the Oracle of the Void L5R CCG export (JSON files or folders).

    Writes one L5R card file per card type into DIR (personalities.json,
    strategies.json, ...). Problems in the export are located as
    file::$[index].field; fields not imported are reported once each.
    Exit 0 ok, 1 invalid input (the other cards are still written),
    2 usage error (such as files that would be overwritten without --force).
    """
    from printer.games.l5r import oracle

    _write_import(ctx, oracle, oracle.import_oracle(list(card_files(list(paths)))), out, force, dry_run)


@import_group.command(name="tarot")
@_import_arguments("Folder to write the card file into (major-arcana.json).", folders=False, one_file=True)
def tarot_command(ctx: click.Context, paths: tuple[Path, ...], out: Path, force: bool, dry_run: bool) -> None:
    """Import the 22 Major Arcana of a tarot card list as ARCANDUCTOR cards.

    Reads names and numbers only (tarot_interpretations.json and the like)
    and writes DIR/major-arcana.json: 22 cards with their number, English and
    Japanese name, an empty power circle and blank upright and reversed
    effects to write in. Exit 0 ok, 1 invalid input (the cards found are
    still written), 2 usage error (such as a file that would be overwritten
    without --force).
    """
    from printer.games.arcanductor import tarot

    _write_import(ctx, tarot, tarot.import_tarot(list(paths)), out, force, dry_run)


@import_group.command(name="res-arcana")
@_import_arguments("Folder to write the card files into (one per component type).")
def res_arcana_command(ctx: click.Context, paths: tuple[Path, ...], out: Path, force: bool, dry_run: bool) -> None:
    """Import Res Arcana component data (JSON files with a 'cards' list, or folders of them).

    Writes artifacts.json, mages.json, monuments.json, places-of-power.json
    and magic-items.json into DIR. Problems are located as
    file::$.cards[i].field; fields and effects with no printer form are
    reported (effects print as text). Exit 0 ok, 1 invalid input (the other
    components are still written), 2 usage error (such as files that would
    be overwritten without --force).
    """
    from printer.games.res_arcana import importer as res_arcana

    _write_import(ctx, res_arcana, res_arcana.import_res_arcana(list(card_files(list(paths)))), out, force, dry_run)


@import_group.command(name="via-magica")
@_import_arguments("Folder to write the card files into (portals.json, bonus.json, animus.json).", folders=False)
def via_magica_command(ctx: click.Context, paths: tuple[Path, ...], out: Path, force: bool, dry_run: bool) -> None:
    """Import Via Magica material (material.json: port_cards, bonus_data, token_types).

    Writes portals.json (one card per portal design, copies 2), bonus.json
    (the Bonus cards) and animus.json (the Animus stones, printed as round
    tokens) into DIR. Problems are located as file::$.port_cards["n"].field.
    Exit 0 ok, 1 invalid input (the other cards are still written), 2 usage
    error (such as files that would be overwritten without --force).
    """
    from printer.games.via_magica import importer as via_magica

    _write_import(ctx, via_magica, via_magica.import_via_magica(list(paths)), out, force, dry_run)


COMMANDS = [import_group]
