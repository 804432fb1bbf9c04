"""``printer clean``: remove the project's caches (laid-out faces, prepared art)."""

from __future__ import annotations

import click

from printer import api
from printer.cli.output import EXIT_OK, project_from


@click.command(name="clean", epilog="Exit codes: 0 ok, 1 a file could not be removed, 2 usage error.")
@click.pass_context
def clean(ctx: click.Context) -> None:
    """Remove build/.cache (the faces and art kept between builds); the PDFs and exports stay.

    The next build lays every face out again.
    """
    result = api.clean(project_from(ctx))
    if result.removed:
        click.echo(f"removed {result.removed[0]} ({result.bytes / 1e6:.1f} MB)")
    else:
        click.echo("no cache to remove")
    ctx.exit(EXIT_OK)


COMMANDS = [clean]
