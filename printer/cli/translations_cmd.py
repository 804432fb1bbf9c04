"""``printer export translations`` and ``printer import translations``: the translators' round trip.

The two commands belong to the ``export`` and ``import`` groups (:mod:`printer.cli.export_cmd`,
:mod:`printer.cli.import_cmd`), which add them; each calls one function of :mod:`printer.api.translations_io`.
"""

from __future__ import annotations

from pathlib import Path

import click

from printer import api
from printer.api import counted
from printer.cli.complete import complete_games
from printer.cli.output import (
    EXIT_INVALID,
    EXIT_OK,
    cards_dir_option,
    project_from,
    relative,
    report,
    user_word_options,
)

_EXPORT_EPILOG = "Exit codes: 0 written, 1 the cards or translations have errors (nothing written), 2 usage error."
_IMPORT_EPILOG = "Exit codes: 0 merged, 1 the file has errors (nothing written), 2 usage error."


@click.command("translations", epilog=_EXPORT_EPILOG)
@click.argument("game", shell_complete=complete_games)
@click.option("--lang", "lang", required=True, metavar="LANG", help="The language to translate into (e.g. ja).")
@click.option(
    "--to",
    "out",
    required=True,
    type=click.Path(dir_okay=False, path_type=Path),
    metavar="FILE",
    help="The file to write: FILE.po (gettext) or FILE.xlsx.",
)
@cards_dir_option
@user_word_options
@click.pass_context
def export_translations(ctx: click.Context, game: str, lang: str, out: Path, cards_dir: Path | None) -> None:
    """Write GAME's translatable text for translators into LANG.

    One entry per card and translatable field: the source text, the current
    translation (empty when missing; fuzzy in a PO file, marked stale in a
    workbook, when made from another source text) and its context: the card's
    id and title, the field and the schema's description of it. Translate
    it in any PO editor or spreadsheet program, then merge it back with
    printer import translations FILE.
    """
    result = api.export_translations(project_from(ctx), game, lang, out, cards_dir)
    n_errors, _ = report(result.problems)
    if n_errors:
        ctx.exit(EXIT_INVALID)
    click.echo(
        f"{counted(result.entries, 'entry', 'entries')} of {game} in {result.lang} written to {out}: "
        f"{result.translated} translated ({result.stale} stale), {result.missing} missing"
    )
    ctx.exit(EXIT_OK)


@click.command("translations", epilog=_IMPORT_EPILOG)
@click.argument("path", type=click.Path(exists=True, dir_okay=False, path_type=Path), metavar="FILE")
@click.option("--game", "game", metavar="GAME", help="The game (default: the one the file names).")
@click.option("--lang", "lang", metavar="LANG", help="The language (default: the one the file names).")
@cards_dir_option
@click.option("--dry-run", is_flag=True, help="Write nothing; say which overlay files would change.")
@click.option("--strict", is_flag=True, help="Treat warnings as errors: write nothing and exit 1.")
@user_word_options
@click.pass_context
def import_translations(
    ctx: click.Context,
    path: Path,
    game: str | None,
    lang: str | None,
    cards_dir: Path | None,
    dry_run: bool,
    strict: bool,
) -> None:
    """Merge the translations of FILE (.po, .xlsx or .ods) into the overlay files.

    FILE is one that printer export translations wrote, translated. Each
    translation goes into cards/GAME/LANG/ (changed in place when it is
    there, else added beside its source file) with the digest of the source
    it was made from. An entry still fuzzy (PO) or marked stale (workbook)
    is merged but stays stale. An unknown card id, an icon code lost or
    added and broken Markdown are errors, located in FILE: nothing is
    written then.
    """
    result = api.import_translations(project_from(ctx), path, game, lang, cards_dir, dry_run, strict)
    n_errors, _ = report(result.problems, strict)
    for file, (status, fields) in result.files.items():
        click.echo(f"{relative(str(file))}: {status}, {counted(fields, 'field')}")
    if n_errors:
        click.echo(f"{path}: nothing written", err=True)
        ctx.exit(EXIT_INVALID)
    click.echo(api.import_summary(result))
    ctx.exit(EXIT_OK)
