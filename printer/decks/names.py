"""Card names the way players write them, reduced to one comparable key.

:func:`name_key` extends :func:`printer.cards.model.normalize_name` (case, HTML
entities such as ``&#149;`` and ``&amp;``, curly quotes, white space) with
the Experienced notations of L5R decklists, so that all of these give the
same key::

    Akodo Kano • Experienced 2       (plain-text lists, the Oracle's title)
    Akodo Kano &#149; Experienced 2  (HTML export)
    Akodo Kano - exp2                (Egg of P'an Ku .l5d files)
    akodo kano – Experienced2        (en dash, no space)

``Experienced 1`` is ``Experienced``; ``- inexp`` is ``• Inexperienced``;
a trailing set tag such as ``CW`` in ``Experienced 2CW`` is kept (it names
a different card). Different levels give different keys: the seed (section
"手練れ (Experienced)") says cards of different Experienced levels are
different cards for deck construction.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from printer.cards.model import normalize_name

_DASHES = str.maketrans({"\u2013": "-", "\u2014": "-", "\u2012": "-", "\u2212": "-", "\u2010": "-", "\u2011": "-"})

# "<title> • experienced 2cw", "<title> - exp2", "<title> - inexp" (after normalize_name).
_LEVEL = re.compile(
    r"^(?P<title>.*?\S)\s*(?:\u2022|-)\s*"
    r"(?:(?P<inexp>inexp(?:erienced)?)|exp(?:erienced)?\s*(?P<level>\d+(?:\.\d+)?)?\s*(?P<tag>[a-z]{1,4})?)\s*$"
)
_PAREN = re.compile(r"^(?P<name>.*?\S)\s*\((?P<tag>[^()]*)\)\s*$")
_COUNT_SUFFIX = re.compile(r"\s*\(\s*\d+\s*\)\s*$")


@dataclass(frozen=True)
class NameParts:
    """A name split into its ``title`` and Experienced ``level``.

    ``level`` is ``""`` (no level), ``"inexperienced"``, ``"experienced"``,
    ``"experienced 2"``, ``"experienced 2cw"``, ``"experienced com"``...
    always lower case.
    """

    title: str
    level: str = ""

    @property
    def key(self) -> str:
        return f"{self.title} \u2022 {self.level}" if self.level else self.title


def split_name(name: str) -> NameParts:
    """Normalise ``name`` and split off its Experienced level (see the module docstring)."""
    text = normalize_name(name).translate(_DASHES)
    match = _LEVEL.match(text)
    if not match:
        return NameParts(text)
    title = match["title"].strip()
    if match["inexp"]:
        return NameParts(title, "inexperienced")
    level, tag = match["level"], match["tag"] or ""
    if level in ("1", "1.0"):
        level = None
    parts = "experienced" + (f" {level}" if level else "") + (f" {tag}" if tag else "")
    return NameParts(title, parts)


def name_key(name: str) -> str:
    """The key under which ``name`` is looked up: title and Experienced level, normalised."""
    return split_name(name).key


_NOT_ALNUM = re.compile(r"[^0-9a-z\u00c0-\uffff]+")


def loose_key(name: str) -> str:
    """A looser key: no leading "The", ``&`` as "and", punctuation, hyphens and spaces ignored.

    ``Fall Back`` and ``Fall Back!``, ``Ivory Courtroom`` and ``The Ivory
    Courtroom``, ``Utaku Liu Xeung`` and ``Utaku Liu-Xeung`` share it. The
    Experienced level still counts.
    """
    parts = split_name(name)
    title = parts.title.replace("&", " and ")
    if title.startswith("the "):
        title = title[4:]
    return _NOT_ALNUM.sub("", title) + ("|" + parts.level if parts.level else "")


def strip_tag(name: str) -> tuple[str, str] | None:
    """``("Gold Mine", "Emperor")`` for ``"Gold Mine (Emperor)"``; ``None`` without a trailing ``(...)``.

    Players tag the edition or version they mean: ``(Emperor)``, ``(FL)``,
    ``(basic)``, ``(1)``. These are not part of the card's name.
    """
    match = _PAREN.match(name.strip())
    if not match:
        return None
    return match["name"], match["tag"].strip()


def strip_count_suffix(name: str) -> str:
    """``"The Impregnable Fortress of the Crab"`` for ``"... of the Crab (1)"`` (a ``.l5d`` count)."""
    return _COUNT_SUFFIX.sub("", name)
