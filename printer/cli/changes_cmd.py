"""``printer changes``: the cards added, removed and changed since a git revision or a build's manifest."""

from __future__ import annotations

import click

from printer import api
from printer.cli.complete import complete_games
from printer.cli.output import EXIT_OK, project_from, report, user_word_options

MARKS = {"added": "+", "removed": "-", "changed": "~"}


@click.command(epilog="Exit codes: 0 listed (changes or none), 2 usage error (an unknown game, a bad REF).")
@click.argument("game", shell_complete=complete_games)
@click.option(
    "--since",
    required=True,
    metavar="REF",
    help="A git revision of the project's repository (HEAD~1, a tag, a commit) or a manifest an earlier build "
    "wrote (build/<game>.manifest.json).",
)
@click.option(
    "--lang",
    default=None,
    metavar="LANG",
    help="Compare the cards in this language of the game's (their translations, their faces in it).",
)
@user_word_options
@click.pass_context
def changes(ctx: click.Context, game: str, since: str, lang: str | None) -> None:
    """List GAME's cards added, removed and changed since REF, field by field.

    A card whose fields did not change but whose printed face did says why:
    a template, a stylesheet, an icon or its art. Cards marked "reprint" are
    the ones printer build GAME --since REF prints.
    """
    result = api.changes(project_from(ctx), game, since, lang=lang)
    report(result.problems)
    counts = {s: sum(c.status == s for c in result.changes) for s in MARKS}
    summary = ", ".join(f"{n} {s}" for s, n in counts.items())
    click.echo(f"{result.game} since {since}: {summary} ({len(result.reprint)} to reprint)")
    for change in result.changes:
        mark = " (reprint)" if change.reprint and change.status != "added" else ""
        click.echo(f"{MARKS[change.status]} {change.id} {change.name}{mark}")
        for line in change.lines():
            click.echo(f"    {line}")
    ctx.exit(EXIT_OK)


COMMANDS = [changes]
