"""Res Arcana setup checks.

``kept-mage``, ``draft-rounds``, ``first-game``: the mage kept, the draft variant's rounds and the
suggested first-game hands (Res Arcana rulebook, "Setup" and "Drafting Variant").
"""

from __future__ import annotations

from printer.decks.checks import Context, Found, Placed, quote_names
from printer.decks.formats import Format
from printer.decks.names import name_key
from printer.decks.report import Violation
from printer.jsonvalue import JSONObject
from printer.problems import counted

_KEPT_HEADERS = {"kept", "kept mage", "chosen", "選んだメイジ"}
_DRAFT_ROUNDS = {"first draft": 1, "first": 1, "1巡目": 1, "second draft": 2, "second": 2, "2巡目": 2}


def _header(p: Placed) -> str:
    return (p.item.entry.section or "").strip().casefold()


def check_kept_mage(ctx: Context) -> list[Violation]:
    """Res Arcana: of the two Mages dealt, exactly one is listed under ``Kept`` (Res Arcana rulebook, Japanese edition, 準備 8: 2枚のうちから1枚だけ選ぶ)."""
    kept = [p for p in ctx.placed if _header(p) in _KEPT_HEADERS and (p.card is None or p.card.type == "Mage")]
    count = sum(p.count for p in kept)
    if count == 1:
        return []
    if count == 0:
        return [
            Violation(
                "res-arcana-kept-mage",
                "no kept Mage: no Mage is listed under a 'Kept' header",
                (),
                (),
                0,
                1,
                hint="list the Mage you keep under '# Kept' and the other under '# Dealt'",
            )
        ]
    names = tuple(dict.fromkeys(p.card.name if p.card else p.item.entry.name for p in kept))
    return [
        Violation(
            "res-arcana-kept-mage",
            f"{count} kept Mages ({quote_names(names)}): a player keeps one of the two",
            tuple(p.line for p in kept),
            names,
            count,
            1,
            hint="move the other Mage under '# Dealt'",
        )
    ]


def check_draft_rounds(ctx: Context) -> list[Violation]:
    """Res Arcana draft: four Artifacts picked in each of two rounds, under ``First draft`` and ``Second draft`` (Res Arcana rulebook, Japanese edition, ドラフトルール 2-3)."""
    rounds: dict[int, list[Found]] = {1: [], 2: []}
    loose: list[Found] = []
    for p in ctx.found():
        if p.card.type == "Artifact":
            (rounds[_DRAFT_ROUNDS[_header(p)]] if _header(p) in _DRAFT_ROUNDS else loose).append(p)
    found = []
    if loose:
        names = tuple(dict.fromkeys(p.card.name for p in loose))
        found.append(
            Violation(
                "res-arcana-draft-rounds",
                f"{counted(len(names), 'Artifact')} under no draft round: {quote_names(names)}",
                tuple(p.line for p in loose),
                names,
                sum(p.count for p in loose),
                0,
                hint="list each pick under '# First draft:' or '# Second draft:'",
            )
        )
    for number, group in rounds.items():
        count = sum(p.count for p in group)
        if count != 4 and not (loose and count < 4):
            found.append(
                Violation(
                    "res-arcana-draft-rounds",
                    f"round {number}: {counted(count, 'Artifact')} picked, 4 in each round",
                    tuple(p.line for p in group),
                    tuple(dict.fromkeys(p.card.name for p in group)),
                    count,
                    4,
                    hint="each round a player keeps one card from each of the four hands passed",
                )
            )
    return found


def _game_data(fmt: Format, name: str) -> JSONObject | None:
    """``schema/<game>/<name>`` beside the format's folder, else printer's bundled one."""
    import json

    from printer.paths import bundled_schema

    for candidate in (fmt.file.parent.parent / name, bundled_schema(fmt.game, name)):
        try:
            data: JSONObject = json.loads(candidate.read_text(encoding="utf-8"))
            return data
        except (OSError, ValueError):
            continue
    return None


def check_first_game(ctx: Context) -> list[Violation]:
    """Res Arcana first game: the Mage is a set's Mage and the set's three Artifacts are among the eight (Res Arcana rulebook, Japanese edition, 最初のゲーム).

    The four sets, English and Japanese names, are ``schema/res-arcana/first-game-sets.json``.
    """
    data = _game_data(ctx.format, "first-game-sets.json")
    mages = [p for p in ctx.found() if p.card.type == "Mage"]
    if data is None or len(mages) != 1:
        return []  # one Mage: section-size says so
    mage = mages[0]
    chosen = next((s for s in data["sets"] if name_key(mage.card.name) in {name_key(n) for n in s["mage"]}), None)
    if chosen is None:
        return [
            Violation(
                "res-arcana-first-game",
                f"{mage.card.name!r} has no first-game set",
                (mage.line,),
                (mage.card.name,),
                hint="first-game Mages: " + ", ".join(s["mage"][0] for s in data["sets"]),
            )
        ]
    have = {name_key(p.card.name) for p in ctx.found()}
    missing = [names[0] for names in chosen["artifacts"] if not have & {name_key(n) for n in names}]
    if not missing:
        return []
    return [
        Violation(
            "res-arcana-first-game",
            f"the {chosen['mage'][0]}'s first-game set also needs {quote_names(missing)}",
            (mage.line,),
            tuple(missing),
            3 - len(missing),
            3,
            hint=f"{chosen['mage'][0]} comes with " + ", ".join(n[0] for n in chosen["artifacts"]),
        )
    ]


#: the checks a format file names as ``<game>.<name>``
CHECKS = {
    "kept-mage": check_kept_mage,
    "draft-rounds": check_draft_rounds,
    "first-game": check_first_game,
}
