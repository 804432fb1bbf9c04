"""Card names the way players write them, reduced to one comparable key.

:func:`name_key` extends :func:`printer.cards.model.normalize_name` (case, HTML
entities such as ``&#149;`` and ``&amp;``, curly quotes, white space, dashes)
with the name variants installed games register
(:class:`printer.plugins.NameVariant`): a game whose versions of one card
count as different cards says how players write the version, and names
written in any of its notations give the same key, ``title • variant``.
Different variants give different keys.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from printer.cards.model import normalize_name
from printer.plugins import name_variants

_DASHES = str.maketrans({"\u2013": "-", "\u2014": "-", "\u2012": "-", "\u2212": "-", "\u2010": "-", "\u2011": "-"})

_PAREN = re.compile(r"^(?P<name>.*?\S)\s*\((?P<tag>[^()]*)\)\s*$")
_COUNT_SUFFIX = re.compile(r"\s*\(\s*\d+\s*\)\s*$")


@dataclass(frozen=True)
class NameParts:
    """A name split into its ``title`` and variant ``level`` (lower case; ``""``: none)."""

    title: str
    level: str = ""

    @property
    def key(self) -> str:
        return f"{self.title} \u2022 {self.level}" if self.level else self.title


def split_name(name: str) -> NameParts:
    """Normalise ``name`` and split off its variant (see the module docstring)."""
    _follow_games()
    return _split_name(name)


@lru_cache(maxsize=1 << 16)  # the same names come back in every decklist and card set
def _split_name(name: str) -> NameParts:
    text = normalize_name(name).translate(_DASHES)
    for variant in name_variants():
        found = variant.parse(text)
        if found:
            return NameParts(*found)
    return NameParts(text)


_GAMES: list[object] = [None]  # the name variants the remembered names were split with


def _follow_games() -> None:
    """Forget the remembered names when the installed games' name variants changed (plugins.refresh())."""
    variants = name_variants()
    if variants is not _GAMES[0]:
        _split_name.cache_clear()
        _loose_key.cache_clear()
        _GAMES[0] = variants


def name_key(name: str) -> str:
    """The key under which ``name`` is looked up: title and variant, normalised."""
    return split_name(name).key


_NOT_ALNUM = re.compile(r"[^0-9a-z\u00c0-\uffff]+")


def loose_key(name: str) -> str:
    """A looser key: no leading "The", ``&`` as "and", punctuation, hyphens and spaces ignored.

    ``Fall Back`` and ``Fall Back!``, ``Ivory Courtroom`` and ``The Ivory
    Courtroom``, ``Utaku Liu Xeung`` and ``Utaku Liu-Xeung`` share it. The
    variant still counts.
    """
    _follow_games()
    return _loose_key(name)


@lru_cache(maxsize=1 << 16)
def _loose_key(name: str) -> str:
    parts = _split_name(name)
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
    """``"Gold Mine"`` for ``"Gold Mine (1)"``: a count some decklist formats write after the name."""
    return _COUNT_SUFFIX.sub("", name)
