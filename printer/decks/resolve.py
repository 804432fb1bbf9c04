"""Resolving decklist names to cards.

A name matches a card when both give the same :func:`~printer.decks.names.name_key`
(case, HTML entities, curly quotes, white space and the way a game's name
variants are written do not matter; the variant does: see
:class:`printer.plugins.NameVariant`).
A card's title in another language matches it too: its translation's title
(an overlay file, :mod:`printer.cards.translations`: ``The Hermit`` for the
Japanese card ``隠者``; see :func:`translated_titles`) or a ``title_<lang>``
field (``title_ja``). Such an entry keeps the title it was written with
(:attr:`ResolvedEntry.translated`), so that the report names the card in the
decklist's language and the source (``'踏みとどまれ' (Hold the Line)``).
When nothing matches, these fallbacks are tried in order, each only if it
gives exactly one card:

1. without a trailing tag in parentheses: ``Gold Mine (Emperor)``,
   ``Creating Order (FL)``, ``Asako Karachu (basic)``;
2. a name with the game's ``plain`` variant as the name without a variant,
   and the reverse;
3. the :func:`~printer.decks.names.loose_key` (no leading "The", punctuation
   and hyphens ignored: ``Fall Back`` is ``Fall Back!``); such a match is
   reported as a ``loose-name`` warning in ``Resolution.notes``.

A name that still matches nothing is an ``unknown-card`` problem with the
closest card names as hint (translated titles among them, written as the
translation writes them); one that matches several cards (two cards whose
translations share a title) is an ``ambiguous-card`` problem listing them.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from printer.cards.model import Card, CardSet
from printer.decks.deck_errors import AmbiguousCardError, UnknownCardError
from printer.decks.names import NameParts, loose_key, split_name, strip_tag
from printer.decks.readers.decklist import Decklist, Entry
from printer.plugins import name_variants
from printer.problems import WARNING, Candidates, Problem, closest

if TYPE_CHECKING:
    from printer.project import Project


@dataclass
class ResolvedEntry:
    """A decklist entry and the card it names.

    ``card`` is ``None`` when the name is unknown or ambiguous; for an
    ambiguous name ``candidates`` lists every matching card, for an unknown
    one ``suggestions`` the closest card names. ``translated`` is true when
    the entry named the card by a translation's title (not its own).
    """

    entry: Entry
    card: Card | None
    candidates: list[Card] = field(default_factory=list)
    suggestions: list[str] = field(default_factory=list)
    translated: bool = False

    @property
    def ok(self) -> bool:
        return self.card is not None


@dataclass
class Resolution:
    """The result of :func:`resolve`: one :class:`ResolvedEntry` per decklist entry, in order.

    ``problems`` holds an ``unknown-card`` or ``ambiguous-card`` error per
    unresolved entry, located ``deckfile:line``; ``notes`` holds warnings
    about names matched only loosely (``loose-name``).
    """

    entries: list[ResolvedEntry]
    problems: list[Problem]
    notes: list[Problem] = field(default_factory=list)

    @property
    def unresolved(self) -> list[ResolvedEntry]:
        return [r for r in self.entries if r.card is None]

    @property
    def ok(self) -> bool:
        return not self.problems


#: names remembered per index (what each name matched, its hint); past this the memory starts again
MEMO_NAMES = 100_000
_Found = TypeVar("_Found")  # what a memoised look-up gives


class NameIndex:
    """Every card of a :class:`CardSet` by name key, and by title for the hints.

    What each decklist name matched is remembered (up to :data:`MEMO_NAMES`
    names): checking many decklists resolves each distinct name once.
    """

    def __init__(self, cards: CardSet, names: list[tuple[str, str, str, list[str]]] | None = None):
        self._memo: dict[tuple[str, str], Any] = {}  # what each kind's find gave for a name
        self._candidates: dict[str, Candidates] = {}
        self.cards = cards
        self.by_key: dict[str, list[Card]] = {}
        self.by_title: dict[str, list[Card]] = {}
        self.by_loose: dict[str, list[Card]] = {}
        #: each translated title's key, and the title as its translation writes it (for the hints)
        self.translated: dict[str, str] = {}
        if names is None:
            also = _TITLES.get(cards, {})
            names = [card_names(card, also.get(card.id, ())) for card in cards]
        for card, (key, title, loose, translated) in zip(cards, names):
            self.by_key.setdefault(key, []).append(card)
            self.by_title.setdefault(title, []).append(card)
            self.by_loose.setdefault(loose, []).append(card)
            for other in translated:  # "The Hermit" names 隠者 (its English translation's title)
                other_key = split_name(other).key
                self.translated.setdefault(other_key, other)
                if card not in self.by_key.get(other_key, []):
                    self.by_key.setdefault(other_key, []).append(card)

    def named_by_translation(self, name: str, card: Card) -> bool:
        """Whether ``name`` (a decklist's) names ``card`` by one of its translations' titles, not its own."""
        if not self.translated:  # a game of one language
            return False
        own = split_name(card.name).key
        tagged = strip_tag(name)
        for written in (name, tagged[0]) if tagged else (name,):
            key = split_name(written).key
            if key in self.translated and key != own and card in self.by_key.get(key, ()):
                return True
        return False

    def _remembered(self, kind: str, name: str, find: Callable[[str], _Found]) -> _Found:
        key = (kind, name)
        found: _Found | None = self._memo.get(key)
        if found is None:
            if len(self._memo) >= MEMO_NAMES:
                self._memo.clear()
            found = self._memo[key] = find(name)
        return found

    def lookup(self, name: str) -> list[Card]:
        """The cards ``name`` matches, after fallbacks 1 and 2 of the module docstring."""
        return list(self._remembered("exact", name, self._lookup))

    def _lookup(self, name: str) -> tuple[Card, ...]:
        return tuple(self._find(name))

    def _find(self, name: str) -> list[Card]:
        found = self._exact(split_name(name))
        if found:
            return found
        tagged = strip_tag(name)
        if tagged:
            found = self._exact(split_name(tagged[0]))
            if len(found) == 1:
                return found
        return []

    def lookup_loose(self, name: str) -> list[Card]:
        """Fallback 3: the one card whose :func:`loose_key` is ``name``'s (``[]`` unless exactly one)."""
        return list(self._remembered("loose", name, self._lookup_loose))

    def _lookup_loose(self, name: str) -> tuple[Card, ...]:
        tagged = strip_tag(name)
        for candidate in (name, tagged[0]) if tagged else (name,):
            found = self.by_loose.get(loose_key(candidate), [])
            if len(found) == 1:
                return tuple(found)
        return ()

    def _exact(self, parts: NameParts) -> list[Card]:
        found = self.by_key.get(parts.key, [])
        if found:
            return list(found)
        plains = [v.plain for v in name_variants() if v.plain]
        if parts.level and parts.level in plains:
            found = self.by_key.get(parts.title, [])
            return list(found) if len(found) == 1 else []
        if parts.level == "":
            for plain in plains:
                found = self.by_key.get(NameParts(parts.title, plain).key, [])
                if len(found) == 1:
                    return list(found)
        return []

    def hint(self, name: str) -> tuple[str | None, list[str]]:
        """A hint for an unknown ``name`` and the suggested card names (closest first)."""
        hint, names = self._remembered("hint", name, self._hint)
        return hint, list(names)

    def _prepared(self, kind: str, names: Iterable[str]) -> Candidates:
        if kind not in self._candidates:
            self._candidates[kind] = Candidates(names)
        return self._candidates[kind]

    def _shown(self, key: str) -> str:
        """A card name to suggest for ``key``: a translated title as its translation writes it, else the card's."""
        cards = self.by_key[key]
        if key in self.translated and all(split_name(c.name).key != key for c in cards):
            return self.translated[key]
        return cards[0].name

    def _hint(self, name: str) -> tuple[str | None, tuple[str, ...]]:
        tagged = strip_tag(name)
        parts = split_name(tagged[0] if tagged else name)
        same_title = self.by_title.get(parts.title, [])
        if same_title:
            names = tuple(c.name for c in same_title)
            return "this title exists only as " + " or ".join(repr(n) for n in names), names
        keys = closest(parts.key, self._prepared("key", self.by_key), n=3)
        if not keys:
            keys = [
                k
                for t in closest(parts.title, self._prepared("title", self.by_title), n=3)
                for k in dict.fromkeys(split_name(c.name).key for c in self.by_title[t])
            ][:3]
        names = tuple(self._shown(k) for k in keys)
        if not names:
            return "no card of that name in the card data (missing from the database?)", ()
        return "did you mean " + " or ".join(repr(n) for n in names) + "?", names


def card_names(card: Card, also: Iterable[str] = ()) -> tuple[str, str, str, list[str]]:
    """What :class:`NameIndex` files ``card`` under: its name key, title, loose key and titles in other languages
    (as written, with the card's variant: :class:`NameIndex` keys them; what ``names`` passes ready-made, e.g. from
    :mod:`printer.decks.card_cache`). ``also``: the card's titles in its translations (:func:`translated_titles`)."""
    parts = split_name(card.name)
    translated = list(dict.fromkeys(_translated_titles(card, also)))
    return parts.key, parts.title, loose_key(card.name), translated


def _translated_titles(card: Card, also: Iterable[str] = ()) -> list[str]:
    """The card's title in other languages: ``also`` (its translations' titles) and its ``title_<lang>`` fields
    (``title_ja``), each with its variant."""
    level = card.variant
    titles = [*also, *(v for k, v in card.data.items() if k.startswith("title_") and isinstance(v, str))]
    return [f"{value} \u2022 {level}" if level else value for value in titles if value.strip()]


#: characters of a translated title a decklist may name (the card schema's titles are 200 at most)
MAX_TITLE_CHARS = 1_000


def translated_titles(
    project: Project, paths: list[Path], sets: Mapping[str, CardSet]
) -> dict[str, dict[str, list[str]]]:
    """``{game: {card id: [title in each translation]}}``: the ``title`` of every translation of the cards of
    ``sets`` found under ``paths`` (the folders the cards were read from; overlay files and spreadsheet ``title@<lang>``
    columns, :func:`printer.cards.translations.load_translations`). A translation's problems are not reported here
    (``printer validate`` reports them); a title that is not a string, or longer than :data:`MAX_TITLE_CHARS`, is
    left out (a stranger's overlay of long titles would make each unknown name's closest-name hint slow)."""
    from printer.cards.translations import languages, load_translations

    if not any(
        len(cards) > 0 and game in project.games and len(languages(project, game)) > 1 for game, cards in sets.items()
    ):
        return {}  # a game of one language has no translations to read (the deck check costs what it did)
    book, _ = load_translations(project, paths)
    found: dict[str, dict[str, list[str]]] = {}
    for translation in book:
        title = translation.fields.get("title")
        if translation.game in sets and isinstance(title, str) and title.strip() and len(title) <= MAX_TITLE_CHARS:
            found.setdefault(translation.game, {}).setdefault(translation.card_id, []).append(title)
    return found


def remember_titles(cards: CardSet, titles: Mapping[str, list[str]]) -> None:
    """Let the :class:`NameIndex` of ``cards`` match each card by its translations' ``titles`` too (``{card id:
    [titles]}``, from :func:`translated_titles`)."""
    _TITLES[cards] = titles
    _INDEXES.pop(cards, None)


_INDEXES: weakref.WeakKeyDictionary[CardSet, tuple[int, NameIndex]] = weakref.WeakKeyDictionary()
_TITLES: weakref.WeakKeyDictionary[CardSet, Mapping[str, list[str]]] = weakref.WeakKeyDictionary()


def remember_index(cards: CardSet, names: list[tuple[str, str, str, list[str]]]) -> None:
    """Make the :class:`NameIndex` of ``cards`` from ready-made :func:`card_names` (one per card, in order)."""
    _INDEXES[cards] = (len(cards), NameIndex(cards, names))


def name_index(cards: CardSet) -> NameIndex:
    """The (cached) :class:`NameIndex` of ``cards``; rebuilt when cards were added."""
    cached = _INDEXES.get(cards)
    if cached is None or cached[0] != len(cards):
        cached = (len(cards), NameIndex(cards))
        _INDEXES[cards] = cached
    return cached[1]


def resolve(deck: Decklist, cards: CardSet, prefer: Callable[[Card], bool] | None = None) -> Resolution:
    """Find the card each entry of ``deck`` names in ``cards``.

    Never raises. ``prefer``, when given, settles ambiguous names: if exactly
    one candidate satisfies it, that card is taken (``check`` passes "legal
    in the format"). Returns a :class:`Resolution`; its problems are
    ``unknown-card`` (hint: the closest names, or the levels that exist for
    the title) and ``ambiguous-card`` (hint: the candidates and their ids).
    """
    index = name_index(cards)
    resolved: list[ResolvedEntry] = []
    problems: list[Problem] = []
    notes: list[Problem] = []
    for entry in deck.entries:
        found = index.lookup(entry.name)
        if not found:
            found = index.lookup_loose(entry.name)
            if found:
                notes.append(
                    Problem(
                        deck.where(entry.line),
                        f"{entry.name!r} read as {found[0].name!r}",
                        f"write {found[0].name!r}",
                        severity=WARNING,
                        code="loose-name",
                    )
                )
        if len(found) > 1 and prefer is not None:
            preferred = [c for c in found if prefer(c)]
            if len(preferred) == 1:
                found = preferred
        if len(found) == 1:
            translated = bool(index.translated) and index.named_by_translation(entry.name, found[0])
            resolved.append(ResolvedEntry(entry, found[0], translated=translated))
            continue
        where = deck.where(entry.line)
        if not found:
            hint, suggestions = index.hint(entry.name)
            problems.append(Problem(where, f"unknown card {entry.name!r}", hint, code="unknown-card"))
            resolved.append(ResolvedEntry(entry, None, [], suggestions))
        else:
            problems.append(
                Problem(
                    where, f"{entry.name!r} matches {len(found)} cards", _candidates_hint(found), code="ambiguous-card"
                )
            )
            resolved.append(ResolvedEntry(entry, None, found))
    return Resolution(resolved, problems, notes)


def _candidates_hint(cards: Iterable[Card]) -> str:
    described = [f"{c.name} (id {c.id}, {c.type}, {c.where})" for c in cards]
    return "candidates: " + "; ".join(described) + " - give each card its own title"


def find_card(name: str, cards: CardSet) -> Card:
    """The one card ``name`` names; raises :class:`UnknownCardError` or :class:`AmbiguousCardError`."""
    index = name_index(cards)
    found = index.lookup(name) or index.lookup_loose(name)
    if len(found) == 1:
        return found[0]
    if not found:
        hint, suggestions = index.hint(name)
        problem = Problem("card name", f"unknown card {name!r}", hint, code="unknown-card")
        raise UnknownCardError(f"unknown card {name!r}", [problem], suggestions)
    problem = Problem(
        "card name", f"{name!r} matches {len(found)} cards", _candidates_hint(found), code="ambiguous-card"
    )
    raise AmbiguousCardError(f"{name!r} matches {len(found)} cards", [problem], found)
