"""``printer serve``: the project in the browser, every card as it prints, updated on save."""

from __future__ import annotations

import click

from printer import api
from printer.cli.output import loaded, project_from, report, user_word_options


@click.command(
    epilog="Exit codes: 0 stopped (Ctrl-C), 2 usage error (no project, the port taken, printer[serve] not installed)."
)
@click.argument("project_dir", required=False, type=click.Path(file_okay=False, exists=True), metavar="[PROJECT]")
@click.option(
    "--port",
    default=8000,
    show_default=True,
    type=click.IntRange(0, 65535),
    help="Port to listen on (0: any free port).",
)
@click.option(
    "--host",
    default="127.0.0.1",
    show_default=True,
    help="Address to listen on. Anything but a loopback address opens the server to the network (a warning).",
)
@click.option("--open", "open_browser", is_flag=True, help="Open the gallery in the web browser.")
@click.option(
    "--workers",
    default=None,
    type=click.IntRange(0, 16),
    metavar="N",
    help="Processes rendering card pictures (default: one per core, at most 4; 0: one thread).",
)
@user_word_options
@click.pass_context
def serve(
    ctx: click.Context, project_dir: str | None, port: int, host: str, open_browser: bool, workers: int | None
) -> None:
    """Serve PROJECT (default: the current one) as a local web app.

    The gallery shows every card's front and back as it will print (the
    same templates and engine as the PDF) with the project's problems
    beside it; saving a card file, a template, its CSS or an icon updates
    the open page. Also: a card editor generated from the game's JSON
    Schema, deck checks, the card sheets and exports, the rules reference.
    Binds 127.0.0.1 unless --host says otherwise. Open the address it prints:
    its token (new at each start) lets your browser in; without it every
    request is refused. Stop it with Ctrl-C.
    """
    project = loaded(api.load_project(project_dir)) if project_dir else project_from(ctx)
    from printer.serve import host_problems, run

    report(host_problems(host))
    click.echo(f"printer serve: reading {project.root} ...", err=True)
    run(
        project.root,
        host,
        port,
        open_browser,
        workers,
        lambda url: click.echo(f"printer serve: {url} (Ctrl-C to stop)", err=True),
    )


COMMANDS = [serve]
