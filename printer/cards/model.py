"""The card model: :class:`Card` and the :class:`CardSet` of one game.

A card is the validated JSON object of a card file plus where it came from.
Fields common to every game (``id``, ``title``, ``type``, ``copies``,
``text``, ``art``, ``back``) are read through properties; game fields
through :meth:`Card.get` or ``card["field"]``.
"""

from __future__ import annotations

import html
import pickle
import re
import unicodedata
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

from printer.cards.record import Record, held_again, held_fields
from printer.jsonvalue import JSON, JSONObject
from printer.plugins import name_variants
from printer.problems import Location, closest

if TYPE_CHECKING:
    from printer.spill import Spill

_QUOTES = str.maketrans(
    {
        "\u2018": "'",
        "\u2019": "'",
        "\u201a": "'",
        "\u201b": "'",
        "\u2032": "'",
        "`": "'",
        "\u00b4": "'",
        "\u201c": '"',
        "\u201d": '"',
        "\u201e": '"',
        "\u2033": '"',
    }
)
_BULLETS = re.compile(r"\s*[\u2022\u00b7\u2027\u2219]\s*")
_SPACE = re.compile(r"\s+")


@lru_cache(maxsize=1 << 16)  # names recur: in every decklist, and between cards and decklists
def normalize_name(name: str) -> str:
    """The form in which card names are compared.

    HTML entities are decoded (``&#149;`` is the bullet), Unicode is NFKC
    folded, curly quotes become straight, bullets become `` • `` with single
    spaces, runs of white space become one space, and case is folded.
    """
    text = html.unescape(name).replace("\x95", "\u2022")  # &#149; is the Windows-1252 bullet
    text = unicodedata.normalize("NFKC", text).translate(_QUOTES)
    text = _BULLETS.sub(" \u2022 ", text)
    # NFKC again after casefold: folding can leave a decomposed letter ('ῧ' folds to 'ϋ' + U+0342), and its
    # capital folds composed; Unicode's caseless matching normalises on both sides of the fold.
    return unicodedata.normalize("NFKC", _SPACE.sub(" ", text).strip().casefold())


@dataclass(slots=True)  # no dict of its own: one a card
class Card:
    """One valid card of ``game``; ``record`` says where it was read."""

    game: str
    data: JSONObject
    record: Record
    _packed: bool = field(default=False, init=False, repr=False, compare=False)  # see pack

    @property
    def id(self) -> str:
        value: str = self.data["id"]
        return value

    @property
    def title(self) -> str:
        value: str = self.data["title"]
        return value

    @property
    def type(self) -> str:
        value: str = self.data["type"]
        return value

    @property
    def copies(self) -> int:
        value: int = self.data.get("copies", 1)
        return value

    @property
    def name(self) -> str:
        """The full card name a player writes in a decklist.

        It is the title, followed by `` • <variant>`` when the card has a
        variant of a notation its game registers
        (:class:`printer.plugins.NameVariant`: versions that count as
        different cards).
        """
        level = self.variant
        return f"{self.title} \u2022 {level}" if level else self.title

    @property
    def variant(self) -> str:
        """The card's name variant (the value of a registered variant field), or ``""``."""
        for variant in name_variants():
            value = self.data.get(variant.field)
            if value:
                return str(value)
        return ""

    @property
    def where(self) -> Location:
        return self.record.where()

    def get(self, key: str, default: JSON = None) -> JSON:
        return self.data.get(key, default)

    def __getitem__(self, key: str) -> JSON:
        return self.data[key]

    def __contains__(self, key: str) -> bool:
        return key in self.data

    def art_path(self) -> Path | None:
        """The art file, resolved against the card file's folder, or ``None``."""
        art = self.data.get("art")
        return (self.record.file.parent / art) if art else None

    def pack(self, spill: Spill | None = None) -> None:
        """Hold the card's data packed in its record (:meth:`Record.pack`, in ``spill`` when given) until it is next
        read. A card whose data is not its record's (built by hand) is left as it is; two cards of one record read
        back one dict.

        Changes made afterwards through a reference to the dict taken before are not seen: a build changes no
        card's data."""
        if self._packed:
            return
        try:
            held = object.__getattribute__(self.record, "data")
        except AttributeError:  # packed already, by another card of the same record: the same data?
            if pickle.dumps(self.data, pickle.HIGHEST_PROTOCOL) != self.record.packed():
                return
        else:
            if self.data is not held:
                return
            self.record.pack(spill)
        if self.record._packed is not None:  # packed (data pickle cannot take stays)
            del self.data
            self._packed = True

    if not TYPE_CHECKING:  # else mypy would take any attribute missing from the class for one held

        def __getattr__(self, name: str):
            """``data`` of a packed card: its record's, held again (called only for attributes not held)."""
            return held_again(self, name, self._unpack)

    def __getstate__(self) -> dict[str, object]:
        """What pickle and copy take of a card: its fields, ``data`` only when not packed (its record's then)."""
        return held_fields(self)

    def __setstate__(self, state: dict[str, object]) -> None:
        """A card from what :meth:`__getstate__` gave."""
        for name, value in state.items():
            object.__setattr__(self, name, value)

    def _unpack(self) -> JSONObject | None:
        if not self._packed:
            return None
        self.data = data = self.record.data
        self._packed = False
        return data


def pack_cards(cards: Iterable[Card | None], spill: Spill | None = None) -> None:
    """:meth:`Card.pack` each card of ``cards`` (``None`` skipped) into ``spill`` when given: a build does it once
    every face's HTML is made, before laying the faces out, so that a large catalogue's card data is not held in
    memory meanwhile; what reads a card later (an export, a warning) unpacks it."""
    for card in cards:
        if card is not None:
            card.pack(spill)


class CardSet:
    """The cards of one game, looked up by id and by normalised name.

    Iterating gives the cards in the order they were read.
    """

    def __init__(self, game: str, cards: Iterable[Card] = ()):
        self.game = game
        self._cards: list[Card] = []
        self._by_id: dict[str, Card] = {}
        self._names: dict[str, list[Card]] | None = None  # by normalised name, made when first asked for
        for card in cards:
            self.add(card)

    def add(self, card: Card) -> None:
        self._cards.append(card)
        self._by_id.setdefault(card.id, card)
        if self._names is not None:
            self._names.setdefault(normalize_name(card.name), []).append(card)

    @property
    def _by_name(self) -> dict[str, list[Card]]:
        if self._names is None:
            self._names = {}
            for card in self._cards:
                self._names.setdefault(normalize_name(card.name), []).append(card)
        return self._names

    def __iter__(self) -> Iterator[Card]:
        return iter(self._cards)

    def __len__(self) -> int:
        return len(self._cards)

    def by_id(self, card_id: str) -> Card | None:
        return self._by_id.get(card_id)

    def by_name(self, name: str) -> list[Card]:
        """Every card whose full name matches ``name`` once both are normalised."""
        return list(self._by_name.get(normalize_name(name), []))

    def names(self) -> list[str]:
        """The full names of every card, each once."""
        return list(dict.fromkeys(c.name for c in self._cards))

    def closest_names(self, name: str, n: int = 3) -> list[str]:
        """Up to ``n`` full card names closest to ``name``."""
        found = closest(normalize_name(name), list(self._by_name), n=n)
        return [self._by_name[f][0].name for f in found]

    def select(self, terms: Iterable[str]) -> tuple[list[Card], list[str]]:
        """Cards whose id or name is one of ``terms``; also returns the terms that matched nothing."""
        chosen: list[Card] = []
        unmatched: list[str] = []
        for term in terms:
            found = [self._by_id[term]] if term in self._by_id else self.by_name(term)
            if not found:
                unmatched.append(term)
            chosen += [c for c in found if c not in chosen]
        return chosen, unmatched
