"""L5R CCG card names: the Experienced notations players write in decklists.

All of these name the same card::

    Akodo Kano • Experienced 2       (plain-text lists, the Oracle of the Void's title)
    Akodo Kano &#149; Experienced 2  (HTML export)
    Akodo Kano - exp2                (Egg of P'an Ku .l5d files)
    akodo kano – Experienced2        (en dash, no space)

``Experienced 1`` is ``Experienced``; ``- inexp`` is ``• Inexperienced``; a
trailing set tag such as ``CW`` in ``Experienced 2CW`` is kept (it names a
different card). Different levels are different cards for deck
construction (Legend of the Five Rings CCG, Ivory Edition rulebook,
"Experienced").
"""

from __future__ import annotations

import re

from printer.plugins import NameVariant

# "<title> • experienced 2cw", "<title> - exp2", "<title> - inexp" (after normalize_name, dashes as "-").
_LEVEL = re.compile(
    r"^(?P<title>.*?\S)\s*(?:\u2022|-)\s*"
    r"(?:(?P<inexp>inexp(?:erienced)?)|exp(?:erienced)?\s*(?P<level>\d+(?:\.\d+)?)?\s*(?P<tag>[a-z]{1,4})?)\s*$"
)


def parse_experienced(text: str) -> tuple[str, str] | None:
    """``("akodo kano", "experienced 2")`` for ``"akodo kano - exp2"``; ``None`` without a level.

    ``text`` is a normalised name (lower case, dashes as ``-``); the level is
    ``"inexperienced"``, ``"experienced"``, ``"experienced 2"``,
    ``"experienced 2cw"``...
    """
    match = _LEVEL.match(text)
    if not match:
        return None
    title = match["title"].strip()
    if match["inexp"]:
        return title, "inexperienced"
    level, tag = match["level"], match["tag"] or ""
    if level in ("1", "1.0"):
        level = None
    return title, "experienced" + (f" {level}" if level else "") + (f" {tag}" if tag else "")


#: the Experienced notation; a name without a level may stand for the Inexperienced version and the reverse
EXPERIENCED = NameVariant("experienced", parse_experienced, plain="inexperienced")
