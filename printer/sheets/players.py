"""How many players a build prints for, and what each player gets a copy of.

``players = N`` sits in ``printer.toml``'s ``[project]`` (every game) or ``[games.<id>]`` (that game; it wins),
and ``printer build --players N`` overrides both. What is printed once per player is marked in ``printer.toml``:

- cards: ``[games.<id>.per_player]`` ``when = { type = ["Summary"] }`` (card field = value or list of values, as a
  component's ``when``): each matching card prints ``players`` x its copies, the whole group once per player;
- player aids: ``aids = true`` in the same table (each aid ``players`` x ``aid_copies`` times);
- components: ``per_player = true`` in a ``[games.<id>.components.<name>]`` table
  (:mod:`printer.sheets.components`).

Without a ``players`` setting a build prints for one player: everything prints as many times as its data says.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from printer.problems import Problem

#: the most players a build prints for (board and card games seldom seat more)
MAX_PLAYERS = 12

T = TypeVar("T")


@dataclass(frozen=True)
class PerPlayer:
    """What prints once per player: the cards matching ``when`` (card field -> accepted values) and, with
    ``aids``, the player aids."""

    when: tuple[tuple[str, tuple[str, ...]], ...] = ()
    aids: bool = False

    def holds(self, data: Mapping[str, Any]) -> bool:
        """True when a card's data matches every ``when`` field (never when ``when`` is empty)."""
        return bool(self.when) and all(str(data.get(f)) in values for f, values in self.when)


def check_players(value: object, where: str) -> Problem | None:
    """A problem at ``where`` when ``value`` is not a whole number of players from 1 to :data:`MAX_PLAYERS`."""
    if isinstance(value, int) and not isinstance(value, bool) and 1 <= value <= MAX_PLAYERS:
        return None
    return Problem(
        where,
        f"players must be a whole number from 1 to {MAX_PLAYERS}, not {value!r}",
        f"e.g. players = 2 (at most {MAX_PLAYERS})",
        code="players",
    )


def read_players(
    project_settings: Mapping[str, Any], game_settings: Mapping[str, Any], game_id: str, where: str
) -> tuple[int, PerPlayer, list[Problem]]:
    """``(players, per_player, problems)`` from ``printer.toml`` (``where``): the game's ``players``, else the
    project's, else 1, and the game's ``per_player`` table. Each problem names its table and key."""
    problems: list[Problem] = []
    players = 1
    for settings, table in ((project_settings, "[project]"), (game_settings, f"[games.{game_id}]")):
        if "players" in settings:
            problem = check_players(settings["players"], f"{where}: {table} players")
            if problem is None:
                players = settings["players"]
            else:
                problems.append(problem)
    spec = game_settings.get("per_player")
    if spec is None:
        return players, PerPlayer(), problems
    at = f"{where}: [games.{game_id}.per_player]"
    if not isinstance(spec, Mapping):
        problems.append(Problem(at, "must be a table (when, aids)", 'e.g. when = { type = "Summary" }', code="players"))
        return players, PerPlayer(), problems
    when = spec.get("when", {})
    aids = spec.get("aids", False)
    if not isinstance(when, Mapping):
        problems.append(Problem(f"{at} when", "says which cards each player gets: card field = value", code="players"))
        when = {}
    if not isinstance(aids, bool):
        problems.append(Problem(f"{at} aids", f"must be true or false, not {aids!r}", code="players"))
        aids = False
    pairs = tuple(
        (str(f), tuple(str(v) for v in (values if isinstance(values, list) else [values])))
        for f, values in when.items()
    )
    return players, PerPlayer(pairs, aids), problems


def per_player(items: Sequence[T], players: int, marked: Any) -> list[T]:
    """``items`` with those ``marked(item)`` says are per-player printed ``players`` times: the marked items stay
    together, as one set per player, where the first of them was; the others keep their order."""
    if players <= 1:
        return list(items)
    flags = [bool(marked(item)) for item in items]
    if not any(flags):
        return list(items)
    mine = [item for item, flag in zip(items, flags) if flag]
    first = flags.index(True)
    rest = [item for item, flag in zip(items, flags) if not flag]
    before = sum(1 for flag in flags[:first] if not flag)
    return rest[:before] + mine * players + rest[before:]
