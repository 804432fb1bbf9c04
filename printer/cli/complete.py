"""Shell completion of game ids and format ids (click's ``shell_complete``).

Called on every press of Tab, so it stays cheap: printer.toml is read with :mod:`tomllib` (no schema check), the
installed games are the names of their entry points (no plugin imported), format ids are the format files' names
and ``id`` fields; nothing imports WeasyPrint. A completion never fails: anything unreadable gives no candidates.
"""

from __future__ import annotations

import tomllib
from pathlib import Path

import click
from click.shell_completion import CompletionItem

from printer import api


def _project_root(ctx: click.Context) -> Path | None:
    root = ctx.find_root().params.get("project")
    return Path(root) if root else api.find_root()


def game_ids(ctx: click.Context, project: bool = True) -> list[str]:
    """The ids of the installed games and (with ``project``) of the games the project's printer.toml declares."""
    from importlib.metadata import entry_points

    ids = {point.name for point in entry_points(group=api.GROUP)}
    root = _project_root(ctx) if project else None
    if root is not None:
        try:
            with (root / "printer.toml").open("rb") as file:
                declared = tomllib.load(file).get("games", {})
            ids |= {str(name) for name in declared} if isinstance(declared, dict) else set()
        except (OSError, ValueError):
            pass
    return sorted(ids)


def complete_games(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[CompletionItem]:
    """``shell_complete`` for an argument or option naming a game (``init --from``: an installed one)."""
    try:
        ids = game_ids(ctx, project=param.name != "from_game")
        return [CompletionItem(g) for g in ids if g.startswith(incomplete)]
    except Exception:  # noqa: BLE001 (a completion offers nothing rather than a traceback in the shell)
        return []


def complete_formats(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[CompletionItem]:
    """``shell_complete`` for ``--format``: the format ids of the project and of printer (a path completes as one)."""
    try:
        from printer.api import available_formats

        root = _project_root(ctx)
        ids = sorted(available_formats([root] if root is not None else []))
        return [CompletionItem(f) for f in ids if f.startswith(incomplete)]
    except Exception:  # noqa: BLE001 (as above)
        return []
