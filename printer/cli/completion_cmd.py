"""``printer completion``: the shell completion script."""

from __future__ import annotations

from typing import Literal

import click


@click.command(epilog="Exit codes: 0 printed, 2 usage error (a SHELL other than bash, zsh or fish).")
@click.argument("shell", type=click.Choice(["bash", "zsh", "fish"]))
def completion(shell: Literal["bash", "zsh", "fish"]) -> None:
    """Print the shell completion script for SHELL (click's shell completion).

    bash: eval "$(printer completion bash)" in ~/.bashrc; zsh: the same in
    ~/.zshrc; fish: printer completion fish > ~/.config/fish/completions/printer.fish.
    """
    from click.shell_completion import get_completion_class

    from printer.cli import cli

    click.echo(get_completion_class(shell)(cli, {}, "printer", "_PRINTER_COMPLETE").source())


COMMANDS = [completion]
