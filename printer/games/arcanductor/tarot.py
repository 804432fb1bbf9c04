"""A tarot card list to printer's ARCANDUCTOR cards (names and numbers only).

The source is a JSON object whose ``tarot_interpretations`` list holds one
object per tarot card with ``name``, ``rank`` and ``suit`` (the shape of
``tarot_interpretations.json`` in the public corpus https://github.com/dariusk/corpora); a bare list of such objects is read too. The 22 cards of
suit ``major`` are the Major Arcana, ranked 0 (The Fool) to 21 (The World);
the 56 minor arcana are left out (ARCANDUCTOR uses the Major Arcana only:
ARCANDUCTOR play manual, 2022-09-24), and so are the source's keywords and
meanings, which are fortune-telling prose and not game text.

Each Major Arcana card becomes one card of
``schema/arcanductor/card.schema.json``:

==============  =====================================================
source          printer
==============  =====================================================
rank            ``arcanum`` (0-21) and the ``id``
                (``arcana-00-the-fool``)
name            ``title``: the card's usual Japanese name (愚者...),
                the language of ARCANDUCTOR's card files, matched by
                English name so that either numbering of Strength and
                Justice (8/11 or 11/8) gets the right one; the name
                as the source writes it when no Japanese name is known
==============  =====================================================

English titles are a translation (``cards/arcanductor/en/``, docs/translations.md),
which the importer does not write.

The game values are ours to write, so the importer leaves them open in the
ways the schema allows: ``power`` is ``null`` (an empty circle to fill in)
and both effects are ``{"text": ""}`` (ruled boxes to write in). The cards
validate and print as a blank set of 22 to design on.

Problems: a source that is not this shape, a card with no name or a rank
that is not an integer 0-21, two cards with one rank, and missing ranks are
errors located as ``file::$.tarot_interpretations[i].field`` (missing
numbers at the file); the minor arcana left out are one warning per file.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from pathlib import Path

from printer.cards import importing as common
from printer.cards.load import read_json
from printer.jsonvalue import JSONObject
from printer.problems import WARNING, Problem

GAME = "arcanductor"
OUT_FILE = "major-arcana.json"
ARCANA = range(22)

#: The usual Japanese names of the Major Arcana, by English name (each alternative a source may use).
JAPANESE_NAMES = {
    "fool": "愚者",
    "magician": "魔術師",
    "high priestess": "女教皇",
    "papess": "女教皇",
    "priestess": "女教皇",
    "empress": "女帝",
    "emperor": "皇帝",
    "hierophant": "教皇",
    "pope": "教皇",
    "lovers": "恋人",
    "lover": "恋人",
    "chariot": "戦車",
    "strength": "力",
    "force": "力",
    "hermit": "隠者",
    "wheel": "運命の輪",
    "wheel of fortune": "運命の輪",
    "justice": "正義",
    "hanged man": "吊された男",
    "death": "死神",
    "temperance": "節制",
    "devil": "悪魔",
    "tower": "塔",
    "star": "星",
    "moon": "月",
    "sun": "太陽",
    "judgement": "審判",
    "judgment": "審判",
    "world": "世界",
}


class TarotImport(common.ImportResult):
    """The imported ``cards`` (card objects, by arcanum) and every ``problem`` found."""

    def by_file(self) -> dict[str, list[JSONObject]]:
        """``{output file name: cards}``: every Major Arcana card goes to :data:`OUT_FILE`."""
        return {OUT_FILE: self.cards} if self.cards else {}


def japanese_name(name: str) -> str | None:
    """The Japanese name of a Major Arcana card from its English name (any ``/`` alternative), or ``None``."""
    for part in name.split("/"):
        key = re.sub(r"^(the)\s+", "", part.strip().casefold())
        key = re.sub(r"\s+", " ", key)
        if key in JAPANESE_NAMES:
            return JAPANESE_NAMES[key]
    return None


def slugify(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.casefold()).strip("-")


def card_for(rank: int, name: str) -> JSONObject:
    """The ARCANDUCTOR card of arcanum ``rank`` named ``name`` (its Japanese name as title when known), with its
    power and effects left open."""
    card: dict[str, object] = {
        "id": f"arcana-{rank:02d}-{slugify(name.split('/')[0])}",
        "title": japanese_name(name) or name,
    }
    card.update(
        {"type": "Major Arcana", "arcanum": rank, "power": None, "upright": {"text": ""}, "reversed": {"text": ""}}
    )
    return card


def convert(data: object, where: str) -> TarotImport:
    """Convert one parsed source (see the module docstring); ``where`` is the file name for problems."""
    result = TarotImport()
    if isinstance(data, dict) and isinstance(data.get("tarot_interpretations"), list):
        items, base = data["tarot_interpretations"], "$.tarot_interpretations"
    elif isinstance(data, list):
        items, base = data, "$"
    else:
        result.problems.append(
            Problem(
                f"{where}::$",
                "not a tarot card list",
                "expected an object with a 'tarot_interpretations' list, or a list of cards "
                "with 'name', 'rank' and 'suit'",
                code="tarot-input",
            )
        )
        return result
    found: dict[int, str] = {}
    minors = 0
    for i, item in enumerate(items):
        path = f"{base}[{i}]"
        if not isinstance(item, dict):
            result.problems.append(
                Problem(f"{where}::{path}", f"a card is an object, not {type(item).__name__}", code="tarot-input")
            )
            continue
        suit = item.get("suit")
        if str(suit).casefold() != "major":
            minors += 1
            continue
        name, rank = item.get("name"), item.get("rank")
        if not isinstance(name, str) or not name.strip():
            result.problems.append(
                Problem(f"{where}::{path}.name", "a Major Arcana card without a name", code="tarot-input")
            )
            continue
        if isinstance(rank, str) and rank.strip().isdigit():
            rank = int(rank)
        if isinstance(rank, bool) or not isinstance(rank, int) or rank not in ARCANA:
            result.problems.append(
                Problem(
                    f"{where}::{path}.rank",
                    f"{json.dumps(rank)} is not a Major Arcana number",
                    f"{name.strip()!r} needs a rank from 0 to 21",
                    code="tarot-input",
                )
            )
            continue
        if rank in found:
            result.problems.append(
                Problem(
                    f"{where}::{path}.rank",
                    f"two cards numbered {rank}: {found[rank]!r} and {name.strip()!r}",
                    "each Major Arcana number once",
                    code="tarot-duplicate",
                )
            )
            continue
        found[rank] = name.strip()
        card = card_for(rank, name.strip())
        if japanese_name(name) is None:
            result.problems.append(
                Problem(
                    f"{where}::{path}.name",
                    f"no Japanese name known for {name.strip()!r}",
                    "the card is titled as the source writes it; give it its Japanese title",
                    WARNING,
                    "tarot-name",
                )
            )
        result.cards.append(card)
    if minors:
        result.problems.append(
            Problem(
                f"{where}::{base}",
                f"{minors} minor arcana cards left out",
                "ARCANDUCTOR uses the 22 Major Arcana only",
                WARNING,
                "not-imported",
            )
        )
    result.cards.sort(key=lambda c: c["arcanum"])
    return result


def import_tarot(paths: Iterable[Path]) -> TarotImport:
    """Read every tarot JSON file in ``paths`` and convert it; problems of every file are collected.

    Cards of several files are merged; a number given twice across files is
    an error like within one file, and so is a number 0-21 that no file has.
    """
    paths = list(paths)
    total = TarotImport()
    seen: dict[int, str] = {}
    for path in paths:
        data, problems = read_json(Path(path))
        total.problems += problems
        if data is None:
            continue
        result = convert(data, str(path))
        total.problems += result.problems
        for card in result.cards:
            if card["arcanum"] in seen:
                total.problems.append(
                    Problem(
                        str(path),
                        f"Major Arcana {card['arcanum']} ({card['title']!r}) "
                        f"was already imported from {seen[card['arcanum']]}",
                        "import each card once",
                        code="tarot-duplicate",
                    )
                )
                continue
            seen[card["arcanum"]] = str(path)
            total.cards.append(card)
    missing = [r for r in ARCANA if r not in seen]
    if missing and paths:
        where = str(paths[0]) if len(paths) == 1 else "input"
        total.problems.append(
            Problem(
                where,
                "Major Arcana missing: " + ", ".join(str(r) for r in missing),
                "an ARCANDUCTOR set is the 22 cards numbered 0 to 21",
                code="tarot-missing",
            )
        )
    total.cards.sort(key=lambda c: c["arcanum"])
    return total


def summary(cards: list[JSONObject]) -> str:
    """The import's one-line count, e.g. ``22 Major Arcana imported``."""
    return f"{len(cards)} Major Arcana imported"
