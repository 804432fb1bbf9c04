"""``printer build``: print card sheets to PDF, and export PNG, Tabletop Simulator and print-shop files."""

from __future__ import annotations

import sys
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

import click

from printer import api
from printer.api import GameBuild, counted
from printer.cli.build_options import lang_option, output_options, request_from, run_options
from printer.cli.complete import complete_games
from printer.cli.output import EXIT_INVALID, EXIT_OK, project_from, report, user_word_options
from printer.cli.sheet_options import print_options


@click.command()
@click.argument("games", nargs=-1, shell_complete=complete_games)
@click.option(
    "--cards",
    "cards_dir",
    type=click.Path(exists=True, path_type=Path),
    metavar="DIR",
    help="Print the cards in DIR instead of the game's card folder (e.g. an import).",
)
@click.option("--only", multiple=True, metavar="ID|TITLE", help="Print only these cards (repeatable).")
@click.option(
    "--players",
    type=click.IntRange(1, api.MAX_PLAYERS),
    default=None,
    metavar="N",
    help="Print for N players: one copy per player of what the game marks per-player (aids, summaries, trackers, "
    "player sets); overrides printer.toml's players.",
)
@click.option(
    "--deck",
    "deck_file",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    metavar="FILE",
    help="Print the cards of a decklist, each as many times as listed (proxies).",
)
@click.option(
    "--since",
    default=None,
    metavar="REF",
    help="Reprint: only the cards whose printed face changed since REF (a git revision such as HEAD~1 or a tag, "
    "or a manifest an earlier build wrote), with their backs and a changelog page, to build/<game>-reprint.pdf.",
)
@click.option(
    "--out",
    "out_dir",
    type=click.Path(file_okay=False, path_type=Path),
    metavar="DIR",
    help="Output folder (default: the project's build/).",
)
@print_options
@lang_option("Print the cards and every other output")
@click.option(
    "--sort",
    default=None,
    metavar="FIELDS",
    help="Order of the fronts: 'listed' (default) or card fields, e.g. set,type,title.",
)
@output_options
@run_options
@user_word_options
@click.pass_context
def build(
    ctx: click.Context,
    /,
    games: tuple[str, ...],
    cards_dir: Path | None,
    only: tuple[str, ...],
    deck_file: Path | None,
    out_dir: Path | None,
    **params: Any,
) -> None:
    """Print card sheets (fronts, then backs for duplex) to PDF.

    With no GAMES, prints every game of the project. Each game gives
    build/<game>.pdf (with --deck, build/<game>-<deck>.pdf; with --lang ja,
    build/<game>-ja.pdf). Every sheet option can also be set in printer.toml
    ([project] or [games.<id>]).
    """

    project = project_from(ctx)
    request = request_from(games, cards_dir, only, deck_file, out_dir, params)
    strict = request.strict
    if params["watch"]:

        def watching(paths: list[Path]) -> None:
            click.echo("watching " + ", ".join(str(p) for p in paths) + " (Ctrl-C to stop)", err=True)

        try:
            on_game, on_error = partial(_print_game, strict=strict), partial(report, strict=strict)
            api.watch(project.root, request, on_game, on_error, on_watch=watching, runtime=_runtime())
        except KeyboardInterrupt:
            pass
        ctx.exit(EXIT_OK)
    on_game = partial(_print_game, strict=strict)
    result = api.build(project, request, progress=_progress_bar, on_game=on_game, runtime=_runtime())
    ctx.exit(EXIT_OK if result.ok else EXIT_INVALID)


def _runtime() -> api.Runtime:
    """A command's runtime: its pool started by the first build, one malloc heap for its threads (a lower peak of
    memory; :func:`printer.process.one_malloc_arena`)."""
    return api.Runtime(warm_pool=True, one_arena=True)


def _progress_bar(label: str, total: int) -> Callable[[int], None]:
    """A click progress bar on stderr for one game's sheets; closed when the last sheet is counted."""
    bar = click.progressbar(length=total, label=label, file=sys.stderr, show_pos=True)
    bar.__enter__()
    done = [0]

    def update(n: int) -> None:
        bar.update(n)
        done[0] += n
        if done[0] >= total:
            bar.__exit__(None, None, None)

    if total <= 0:
        bar.__exit__(None, None, None)
    return update


def _print_game(outcome: GameBuild, strict: bool) -> None:
    report(outcome.problems, strict)
    if outcome.failure:
        name = f"{outcome.game} ({outcome.lang})" if outcome.lang else outcome.game
        click.echo(f"{name}: {outcome.failure}", err=True)
        return
    n, s = outcome.cards, outcome.sheets
    if outcome.target is not None and (n or not outcome.exports):  # only components printed: their line says it
        click.echo(
            f"{outcome.target}: {counted(n, 'card')} on {counted(s, 'sheet')} ({outcome.grid} per sheet, {outcome.backs})"
        )
    for line in outcome.exports + outcome.notes:
        click.echo(line)


COMMANDS = [build]
