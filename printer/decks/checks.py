"""Checking a deck against a format: :func:`check` and the rules it applies.

Data rules (from the format file) and their sources in seed 004, section
事前準備 (deck construction):

- ``no-section``: a card of a type the format has no place for (e.g. a
  Pre-Game Holding in Ivory Extended, whose only pre-game cards are the
  Stronghold and the Sensei);
- ``wrong-section``: a card listed under a header of another section, e.g. a
  Fate card under ``# Dynasty`` ("王朝カード(裏面が黒のカード)のみで構成");
- ``section-size``: a section's size outside its bounds (Dynasty and Fate
  "40枚以上", one Stronghold "居城カード: 任意の 1枚", at most one Sensei
  "先生カード: 任意で 1枚");
- ``copy-limit`` / ``unique-limit``: copies of one card ("同一カードはデッキに
  3枚まで。ただし“Unique”と記載されているカードはそれぞれ 1枚まで"); cards
  of different Experienced levels are different cards (section 手練れ).
  Card text may raise a limit (format ``copy_limit_text``: "You may include
  up to 10 copies of this card in your deck"), and so may a card in the
  deck (``copy_allowances``: Eternal Victory Dojo, Hikahime Sensei);
- ``not-legal``: a card outside the format's card pool (its ``legality``);
- ``banned``: a card on the format's banned list (also when the name is
  missing from the card data: the list names it, so it is refused anyway).

Named checks (:data:`NAMED_CHECKS`), switched on by a format's ``checks``:

- ``sensei-clan``: the Sensei's clan is the Stronghold's, or the Sensei has
  no clan / is for all clans ("居城と同じ氏族か、氏族を持たないカードに限られる").
- ``arcana-distinct``, ``significator`` (ARCANDUCTOR, seed 001 ゲームの準備): no two
  cards with one Major Arcana number; one card under a ``Significator`` header.
- ``edelweiss-standard-deck``, ``class-per-player`` (Edelweiss, seed 003): each
  of the 52 standard cards once; at most one Class under each player's header.

Unresolved names are not violations: a size rule is only broken when even
the unresolved lines that could belong to the section cannot make it up.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from printer.cards.model import Card, CardSet
from printer.decks.formats import Format, Section, text_copy_limit
from printer.decks.names import name_key, split_name
from printer.decks.readers.text import Decklist, header_counts, read_decklist
from printer.decks.report import DeckReport, SectionSummary, Violation, note
from printer.decks.resolve import Resolution, ResolvedEntry, name_index, resolve
from printer.problems import Problem


@dataclass
class Placed:
    """A resolved entry with the ``section`` its card goes to and the ``declared`` sections its header names."""

    item: ResolvedEntry
    section: Section | None
    declared: list[Section]

    @property
    def card(self) -> Card | None:
        return self.item.card

    @property
    def count(self) -> int:
        return self.item.entry.count

    @property
    def line(self) -> int:
        return self.item.entry.line


@dataclass
class Context:
    """What a rule sees: the deck, its format and every placed entry."""

    deck: Decklist
    format: Format
    placed: list[Placed]
    cards: CardSet | None = None

    def found(self) -> list[Placed]:
        return [p for p in self.placed if p.card is not None]

    def in_section(self, name: str) -> list[Placed]:
        return [p for p in self.placed if p.card is not None and p.section is not None and p.section.name == name]


Rule = Callable[[Context], list[Violation]]
NAMED_CHECKS: dict[str, Rule] = {}


def named_check(name: str) -> Callable[[Rule], Rule]:
    """Register a named check that format files can switch on by ``name``."""

    def register(function: Rule) -> Rule:
        NAMED_CHECKS[name] = function
        return function

    return register


def _quote(names) -> str:
    return ", ".join(repr(n) for n in names)


def _lines(lines) -> str:
    lines = sorted(set(lines))
    return ("line " if len(lines) == 1 else "lines ") + ", ".join(str(n) for n in lines)


def rule_placement(ctx: Context) -> list[Violation]:
    """``no-section`` and ``wrong-section`` (see the module docstring)."""
    found = []
    for p in ctx.found():
        card = p.card
        kind = f"{card.get('deck', '?')} {card.type}" if card.get("deck") else card.type
        if p.section is None:
            found.append(
                Violation(
                    "no-section",
                    f"{card.name!r} is a {kind}: {ctx.format.name} has no place for it",
                    (p.line,),
                    (card.name,),
                    p.count,
                    hint="sections: "
                    + "; ".join(f"{s.name} ({', '.join(s.types or [s.deck or '?'])})" for s in ctx.format.sections),
                )
            )
        elif p.declared and p.section not in p.declared:
            header = p.item.entry.section
            found.append(
                Violation(
                    "wrong-section",
                    f"{card.name!r} is a {kind}, listed under '{header}': it belongs in the {p.section.name} section",
                    (p.line,),
                    (card.name,),
                    p.count,
                    hint=f"move it to the {p.section.name} section",
                )
            )
    return found


def section_sizes(ctx: Context) -> tuple[list[SectionSummary], list[Violation], list[Problem]]:
    """Each section's size, the ``section-size`` violations and notes on sizes that unresolved lines leave open."""
    summaries, violations, notes = [], [], []
    unresolved = [p for p in ctx.placed if p.card is None]
    for section in ctx.format.sections:
        members = ctx.in_section(section.name)
        count = sum(p.count for p in members)
        maybe = sum(p.count for p in unresolved if section in _possible_sections(p, ctx.format))
        summaries.append(SectionSummary(section.name, count, section.min, section.max, maybe))
        lines = tuple(p.line for p in members)
        header_line = ctx.deck.headers.get(
            next((h for h in ctx.deck.headers if h.casefold() in section.headers), ""), None
        )
        where_lines = lines or ((header_line,) if header_line else ())
        short_where = (header_line,) if header_line else where_lines[:1]
        if section.max is not None and count > section.max:
            violations.append(
                Violation(
                    "section-size",
                    f"{section.name}: {count} cards, {section.bounds()} allowed"
                    + (f" ({_quote(dict.fromkeys(p.card.name for p in members))})" if len(members) <= 5 else ""),
                    where_lines,
                    tuple(dict.fromkeys(p.card.name for p in members)),
                    count,
                    section.max,
                    hint=f"remove {count - section.max} card{'s' * (count - section.max != 1)}",
                )
            )
        if section.min and count < section.min:
            if count + maybe >= section.min:
                notes.append(
                    note(
                        ctx.deck,
                        short_where[0] if short_where else None,
                        f"{section.name}: {count} cards found, {section.bounds()} needed; "
                        f"{maybe} unresolved card{'s' * (maybe != 1)} may make up the difference",
                        code="section-size-open",
                    )
                )
            else:
                what = f"{section.name}: {count} card{'s' * (count != 1)}"
                if maybe:
                    what += f" (and {maybe} unresolved)"
                violations.append(
                    Violation(
                        "section-size",
                        f"{what}, {section.bounds()} needed",
                        short_where,
                        (),
                        count,
                        section.min,
                        hint=f"add {section.min - count - maybe} card{'s' * (section.min - count - maybe != 1)}"
                        + (f" of type {', '.join(section.types)}" if section.types else ""),
                    )
                )
    return summaries, violations, notes


def deck_size(ctx: Context) -> tuple[list[Violation], list[Problem]]:
    """``deck-size``: the whole deck against the format's ``deck_size`` min/max (every section together).

    Unresolved lines may make up a shortfall: then it is a note, not a violation.
    """
    fmt = ctx.format
    if fmt.deck_min is None and fmt.deck_max is None:
        return [], []
    count = sum(p.count for p in ctx.placed if p.card is not None)
    maybe = sum(p.count for p in ctx.placed if p.card is None)
    bounds = Section("deck", None, None, fmt.deck_min, fmt.deck_max, ()).bounds()
    if fmt.deck_max is not None and count > fmt.deck_max:
        extra = count - fmt.deck_max
        return [
            Violation(
                "deck-size",
                f"the deck has {count} cards, {bounds} allowed",
                (),
                (),
                count,
                fmt.deck_max,
                hint=f"remove {extra} card{'s' * (extra != 1)}",
            )
        ], []
    if fmt.deck_min is not None and count < fmt.deck_min:
        if count + maybe >= fmt.deck_min:
            message = f"the deck has {count} cards, {bounds} needed; {maybe} unresolved may make up the difference"
            return [], [note(ctx.deck, None, message, code="deck-size-open")]
        short = fmt.deck_min - count - maybe
        return [
            Violation(
                "deck-size",
                f"the deck has {count} cards" + (f" (and {maybe} unresolved)" if maybe else "") + f", {bounds} needed",
                (),
                (),
                count,
                fmt.deck_min,
                hint=f"add {short} card{'s' * (short != 1)}",
            )
        ], []
    return [], []


def _possible_sections(p: Placed, fmt: Format) -> list[Section]:
    if p.declared:
        return p.declared
    if p.item.candidates:
        return [s for s in (fmt.section_of(c) for c in p.item.candidates) if s is not None]
    return fmt.sections


def rule_copies(ctx: Context) -> list[Violation]:
    """``copy-limit`` and ``unique-limit``: copies are counted per full card name over the whole list.

    A non-Unique card's limit is ``copy_limit``, raised by its own text when
    the format has ``copy_limit_text``, or by a ``copy_allowances`` entry
    whose granting card is in the deck (in decklist order, up to its
    ``cards`` cap).
    """
    fmt = ctx.format
    groups: dict[str, list[Placed]] = {}
    for p in ctx.found():
        groups.setdefault(name_key(p.card.name), []).append(p)
    in_deck = set(groups)
    active = [a for a in fmt.allowances if name_key(a.granted_by) in in_deck]
    used: dict[int, list[str]] = {i: [] for i in range(len(active))}
    found = []
    for group in groups.values():
        card = group[0].card
        count = sum(p.count for p in group)
        lines = tuple(p.line for p in group)
        where = f" ({_lines(lines)})" if len(lines) > 1 else ""
        unique = fmt.is_unique(card)
        if fmt.unique_limit is not None and unique:
            if count > fmt.unique_limit:
                found.append(
                    Violation(
                        "unique-limit",
                        f"{count} copies of Unique card {card.name!r}{where}: at most {fmt.unique_limit}",
                        lines,
                        (card.name,),
                        count,
                        fmt.unique_limit,
                        hint=f"keep {fmt.unique_limit}; other Experienced levels are different cards",
                    )
                )
            continue
        if fmt.copy_limit is None:
            continue
        limit, why = fmt.copy_limit, ""
        own = text_copy_limit(card) if fmt.copy_limit_text else None
        if own is not None and own > limit:
            limit, why = own, " (its own text)"
        if count > limit:
            for i, allowance in enumerate(active):
                if allowance.limit > limit and allowance.matches(card, unique):
                    if allowance.cards is not None and len(used[i]) >= allowance.cards:
                        why = (
                            f" ({allowance.granted_by} raises it to {allowance.limit} for {allowance.cards} cards,"
                            f" already {_quote(used[i])})"
                        )
                        continue
                    if count <= allowance.limit:
                        used[i].append(card.name)
                    limit, why = allowance.limit, f" (raised by {allowance.granted_by})"
                    break
        if count > limit:
            shown = "any number" if limit >= 10**6 else f"at most {limit}"
            found.append(
                Violation(
                    "copy-limit",
                    f"{count} copies of {card.name!r}{where}: {shown}{why}",
                    lines,
                    (card.name,),
                    count,
                    limit,
                    hint=f"keep {limit}",
                )
            )
    return found


def rule_legality(ctx: Context) -> list[Violation]:
    """``not-legal`` and ``banned``, one violation per card (all its lines)."""
    fmt = ctx.format
    found = []
    seen: dict[str, list[Placed]] = {}
    for p in ctx.found():
        seen.setdefault(name_key(p.card.name), []).append(p)
    for group in seen.values():
        card = group[0].card
        lines = tuple(p.line for p in group)
        count = sum(p.count for p in group)
        ban = fmt.ban(card)
        if ban is not None:
            found.append(
                Violation(
                    "banned",
                    f"{card.name!r} is banned in {fmt.name}" + (f": {ban.note}" if ban.note else ""),
                    lines,
                    (card.name,),
                    count,
                    0,
                    hint="remove it",
                )
            )
        if not fmt.is_legal(card):
            arcs = card.get("legality") or []
            has = f"legal in: {', '.join(arcs)}" if arcs else "its card data lists no legality"
            hint = f"{fmt.name} takes cards legal in {fmt.legal_description()}"
            others = _legal_levels(ctx, card)
            if others:
                hint = "did you mean " + " or ".join(repr(n) for n in others) + f"? (legal in {fmt.name}); " + hint
            found.append(
                Violation(
                    "not-legal",
                    f"{card.name!r} is not legal in {fmt.name} ({has})",
                    lines,
                    (card.name,),
                    count,
                    hint=hint,
                )
            )
    for p in ctx.placed:  # a banned name is banned even when the card data lacks the card
        ban = fmt.ban_for_name(p.item.entry.name) if p.card is None and not p.item.candidates else None
        if ban is not None:
            found.append(
                Violation(
                    "banned",
                    f"{ban.name!r} is banned in {fmt.name}"
                    + (f": {ban.note}" if ban.note else "")
                    + " (the card data lacks the card)",
                    (p.line,),
                    (ban.name,),
                    p.count,
                    0,
                    hint="remove it",
                )
            )
    return found


def _legal_levels(ctx: Context, card: Card) -> list[str]:
    """Other Experienced levels of ``card``'s title that are legal in the format (players often omit the level)."""
    if ctx.cards is None:
        return []
    title = split_name(card.name).title
    return [c.name for c in name_index(ctx.cards).by_title.get(title, []) if c is not card and ctx.format.is_legal(c)]


# --- named checks -----------------------------------------------------------------------------

CLANS = (
    "Crab",
    "Crane",
    "Dragon",
    "Lion",
    "Mantis",
    "Phoenix",
    "Scorpion",
    "Spider",
    "Unicorn",
    "Naga",
    "Toturi's Army",
    "Ratling",
    "Spirit",
    "Brotherhood",
    "Shadowlands",
    "Imperial",
)
_TAGS = re.compile(r"<[^>]+>")
_ALL = {"all", "all clans", "unaligned", "none", "clanless"}


def card_clans(card: Card) -> set[str] | None:
    """The clans a card belongs to; ``None`` for a clanless or all-clans card.

    Read from the ``clan`` field (a name or a list), else from keywords
    (``Lion Clan``, bare clan names, ``All Clans``) as the Oracle prints a
    Sensei's clans.
    """
    value = card.get("clan")
    names = [value] if isinstance(value, str) else list(value or [])
    if not names:
        for keyword in card.get("keywords") or []:
            word = _TAGS.sub("", str(keyword)).strip()
            if word.casefold() in ("all clans", "all"):
                return None
            base = word[:-5].strip() if word.casefold().endswith(" clan") else word
            if base in CLANS:
                names.append(base)
    clans = {n for n in names if n.casefold() not in _ALL}
    if not clans or any(n.casefold() in ("all", "all clans") for n in names):
        return None
    return clans


@named_check("sensei-clan")
def check_sensei_clan(ctx: Context) -> list[Violation]:
    """A Sensei's clan must be the Stronghold's, or the Sensei clanless / for all clans (seed 事前準備)."""
    strongholds = [p for p in ctx.found() if p.card.type == "Stronghold"]
    senseis = [p for p in ctx.found() if p.card.type == "Sensei"]
    if len(strongholds) != 1 or not senseis:
        return []  # no or several Strongholds: section-size says so
    stronghold = strongholds[0].card
    home = card_clans(stronghold) or set()
    found = []
    for p in senseis:
        clans = card_clans(p.card)
        if clans is None or clans & home:
            continue
        found.append(
            Violation(
                "sensei-clan",
                f"Sensei {p.card.name!r} ({'/'.join(sorted(clans))}) does not match the Stronghold "
                f"{stronghold.name!r} ({'/'.join(sorted(home)) or 'no clan'})",
                (p.line, strongholds[0].line),
                (p.card.name, stronghold.name),
                hint="a Sensei must share the Stronghold's clan or be for all clans",
            )
        )
    return found


# ARCANDUCTOR (seed 001, ゲームの準備) and Arcana Fight! Edelweiss (seed 003) -----------------------

_SIGNIFICATOR_HEADERS = {"significator", "シグニフィケータ"}
_CLASS_HEADERS = {"", "class", "classes", "クラス"}


@named_check("arcana-distinct")
def check_arcana_distinct(ctx: Context) -> list[Violation]:
    """ARCANDUCTOR: no two cards share a Major Arcana number (``arcanum``): a set is 0-21, each once (seed 001)."""
    by_number: dict[int, list[Placed]] = {}
    for p in ctx.found():
        if isinstance(p.card.get("arcanum"), int):
            by_number.setdefault(p.card["arcanum"], []).append(p)
    found = []
    for number, group in sorted(by_number.items()):
        names = tuple(dict.fromkeys(p.card.name for p in group))
        if len(names) > 1:
            found.append(
                Violation(
                    "arcana-distinct",
                    f"{len(names)} cards are Major Arcana {number}: {_quote(names)}",
                    tuple(p.line for p in group),
                    names,
                    len(names),
                    1,
                    hint="a set holds each number from 0 to 21 once: keep one of them",
                )
            )
    return found


@named_check("significator")
def check_significator(ctx: Context) -> list[Violation]:
    """ARCANDUCTOR: exactly one card of a dealt hand is listed under a ``Significator`` header (seed 001: シグニフィケータを1枚選出)."""
    chosen = [p for p in ctx.placed if (p.item.entry.section or "").strip().casefold() in _SIGNIFICATOR_HEADERS]
    count = sum(p.count for p in chosen)
    if count == 1:
        return []
    if count == 0:
        return [
            Violation(
                "significator",
                "no Significator: no card is listed under a 'Significator' header",
                (),
                (),
                0,
                1,
                hint="list the card you chose as your Significator under '# Significator'",
            )
        ]
    names = tuple(dict.fromkeys(p.card.name if p.card else p.item.entry.name for p in chosen))
    return [
        Violation(
            "significator",
            f"{count} Significators ({_quote(names)}): a player chooses one",
            tuple(p.line for p in chosen),
            names,
            count,
            1,
            hint="move all but one to the hand",
        )
    ]


def _standard_deck(fmt: Format) -> dict | None:
    """``standard-deck.json`` beside the format's folder (``schema/<game>/``), else printer's bundled one."""
    import json

    from printer.project import bundled_root

    for candidate in (
        fmt.file.parent.parent / "standard-deck.json",
        bundled_root() / "schema" / "edelweiss" / "standard-deck.json",
    ):
        try:
            return json.loads(candidate.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue
    return None


@named_check("edelweiss-standard-deck")
def check_standard_deck(ctx: Context) -> list[Violation]:
    """Edelweiss: each of the 52 standard cards once, by suit and rank (seed 003: 52枚のトランプのみ).

    Suits, ranks and the card names come from ``schema/edelweiss/standard-deck.json``.
    """
    data = _standard_deck(ctx.format)
    if data is None:
        return []
    ranks = {r["rank"]: r["name"] for r in data["ranks"]}
    expected = {
        (s["suit"], r): data["card_name"].format(rank=name, suit=s["suit"])
        for s in data["suits"]
        for r, name in ranks.items()
    }
    have: dict[tuple, list[Placed]] = {}
    for p in ctx.found():
        key = (p.card.get("suit"), p.card.get("rank"))
        if key in expected:
            have.setdefault(key, []).append(p)
    found = []
    for key, group in have.items():
        count = sum(p.count for p in group)
        if count > 1:
            found.append(
                Violation(
                    "edelweiss-standard-deck",
                    f"{count} copies of the {expected[key]}: a standard deck has one",
                    tuple(p.line for p in group),
                    (expected[key],),
                    count,
                    1,
                    hint="keep 1",
                )
            )
    missing = [name for key, name in expected.items() if key not in have]
    if missing and not any(p.card is None for p in ctx.placed):
        shown = ", ".join(missing[:6]) + (f" and {len(missing) - 6} more" if len(missing) > 6 else "")
        found.append(
            Violation(
                "edelweiss-standard-deck",
                f"{len(missing)} standard card{'s' * (len(missing) != 1)} missing: {shown}",
                (),
                tuple(missing),
                len(expected) - len(missing),
                len(expected),
                hint=f"the deck is all {len(expected)} cards: 4 suits of A, 2-10, J, Q, K",
            )
        )
    return found


@named_check("class-per-player")
def check_class_per_player(ctx: Context) -> list[Violation]:
    """Edelweiss: at most one Class card under each player's header (``# Player 1``, ``# 先攻``, a name) (seed 003, クラスについて).

    Classes under ``# Class`` or no header count only towards the Class section's size (two players).
    """
    players: dict[str, list[Placed]] = {}
    for p in ctx.found():
        header = (p.item.entry.section or "").strip()
        if (
            p.card.type == "Class"
            and header.casefold() not in _CLASS_HEADERS
            and (not p.declared or p.section in p.declared)
        ):
            players.setdefault(header, []).append(p)  # a Class under '# Deck' is wrong-section's
    found = []
    for player, group in players.items():
        count = sum(p.count for p in group)
        if count > 1:
            names = tuple(dict.fromkeys(p.card.name for p in group))
            found.append(
                Violation(
                    "class-per-player",
                    f"{player}: {count} Class cards ({_quote(names)}), at most one per player",
                    tuple(p.line for p in group),
                    names,
                    count,
                    1,
                    hint="each player chooses one Class",
                )
            )
    return found


# Res Arcana (seed 000, ゲームの準備 and ヴァリアントルール) and Via Magica (seed 002) ------------------------

_KEPT_HEADERS = {"kept", "kept mage", "chosen", "選んだメイジ"}
_DRAFT_ROUNDS = {"first draft": 1, "first": 1, "1巡目": 1, "second draft": 2, "second": 2, "2巡目": 2}


def _header(p: Placed) -> str:
    return (p.item.entry.section or "").strip().casefold()


@named_check("res-arcana-kept-mage")
def check_kept_mage(ctx: Context) -> list[Violation]:
    """Res Arcana: of the two Mages dealt, exactly one is listed under ``Kept`` (seed 000, 準備 8: 2枚のうちから1枚だけ選ぶ)."""
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
            f"{count} kept Mages ({_quote(names)}): a player keeps one of the two",
            tuple(p.line for p in kept),
            names,
            count,
            1,
            hint="move the other Mage under '# Dealt'",
        )
    ]


@named_check("res-arcana-draft-rounds")
def check_draft_rounds(ctx: Context) -> list[Violation]:
    """Res Arcana draft: four Artifacts picked in each of two rounds, under ``First draft`` and ``Second draft`` (seed 000, ドラフトルール 2-3)."""
    rounds: dict[int, list[Placed]] = {1: [], 2: []}
    loose = []
    for p in ctx.found():
        if p.card.type == "Artifact":
            (rounds[_DRAFT_ROUNDS[_header(p)]] if _header(p) in _DRAFT_ROUNDS else loose).append(p)
    found = []
    if loose:
        names = tuple(dict.fromkeys(p.card.name for p in loose))
        found.append(
            Violation(
                "res-arcana-draft-rounds",
                f"{len(names)} Artifact{'s' * (len(names) != 1)} under no draft round: {_quote(names)}",
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
                    f"round {number}: {count} Artifact{'s' * (count != 1)} picked, 4 in each round",
                    tuple(p.line for p in group),
                    tuple(dict.fromkeys(p.card.name for p in group)),
                    count,
                    4,
                    hint="each round a player keeps one card from each of the four hands passed",
                )
            )
    return found


def _game_data(fmt: Format, name: str) -> dict | None:
    """``schema/<game>/<name>`` beside the format's folder, else printer's bundled one."""
    import json

    from printer.project import bundled_root

    for candidate in (fmt.file.parent.parent / name, bundled_root() / "schema" / fmt.game / name):
        try:
            return json.loads(candidate.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue
    return None


@named_check("res-arcana-first-game")
def check_first_game(ctx: Context) -> list[Violation]:
    """Res Arcana first game: the Mage is a set's Mage and the set's three Artifacts are among the eight (seed 000, 最初のゲーム).

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
            f"the {chosen['mage'][0]}'s first-game set also needs {_quote(missing)}",
            (mage.line,),
            tuple(missing),
            3 - len(missing),
            3,
            hint=f"{chosen['mage'][0]} comes with " + ", ".join(n[0] for n in chosen["artifacts"]),
        )
    ]


@named_check("via-magica-two-of-each")
def check_two_of_each(ctx: Context) -> list[Violation]:
    """Via Magica: each portal design is in the deck exactly twice (seed 002, 準備 重要: 各ポータルは 2 枚ずつ)."""
    groups: dict[str, list[Placed]] = {}
    for p in ctx.found():
        if p.card.type == "Portal":
            groups.setdefault(name_key(p.card.name), []).append(p)
    found = []
    for group in groups.values():
        count = sum(p.count for p in group)
        if count < 2:
            found.append(
                Violation(
                    "via-magica-two-of-each",
                    f"1 copy of {group[0].card.name!r}: the deck holds each portal twice",
                    tuple(p.line for p in group),
                    (group[0].card.name,),
                    count,
                    2,
                    hint="add the second copy",
                )
            )
    return found


@named_check("via-magica-one-count-bonus")
def check_one_count_bonus(ctx: Context) -> list[Violation]:
    """Via Magica: a player wins at most one portal-count Bonus card (seed 002, ポータルの数: 各プレイヤー1枚だけ獲得できます)."""
    won = [p for p in ctx.found() if p.card.type == "Bonus" and p.card.get("goal") == "portal-count"]
    count = sum(p.count for p in won)
    if count <= 1:
        return []
    names = tuple(dict.fromkeys(p.card.name for p in won))
    return [
        Violation(
            "via-magica-one-count-bonus",
            f"{count} portal-count Bonus cards ({_quote(names)}): a player wins one at most",
            tuple(p.line for p in won),
            names,
            count,
            1,
            hint="keep the one the player claimed",
        )
    ]


# --- the check ----------------------------------------------------------------------------------

DATA_RULES: list[Rule] = [rule_placement, rule_copies, rule_legality]


def check(
    deck: Decklist,
    cards: CardSet,
    fmt: Format,
    read_problems: list[Problem] | None = None,
    resolution: Resolution | None = None,
) -> DeckReport:
    """Check ``deck`` against ``fmt`` with the cards of ``cards``; returns a :class:`DeckReport`.

    Never raises on a bad deck: every problem is in the report (use
    ``report.raise_for_status()`` for an exception). ``read_problems`` are
    the problems :func:`read_decklist` returned (errors make the report
    ``unreadable``, warnings are kept). ``resolution`` may be passed when the
    names were already resolved; by default ambiguous names are settled in
    favour of the one candidate legal in ``fmt``.
    """
    read_problems = list(read_problems or [])
    read_errors = [p for p in read_problems if p.is_error]
    warnings = [p for p in read_problems if not p.is_error]
    if resolution is None:
        resolution = resolve(deck, cards, prefer=fmt.is_legal)
    warnings += resolution.notes
    warnings += header_counts(deck)  # '# Dynasty (40)' over 39 cards
    placed = []
    unknown_headers: dict[str, int] = {}
    for item in resolution.entries:
        declared = fmt.sections_for_header(item.entry.section)
        if item.entry.section and not declared:
            unknown_headers.setdefault(item.entry.section, item.entry.line)
        section = fmt.section_of(item.card) if item.card else None
        placed.append(Placed(item, section, declared))
    for header, line in unknown_headers.items():
        warnings.append(
            note(
                deck,
                deck.headers.get(header, line),
                f"header '{header}' names no section of {fmt.name}; its cards are placed by their type",
                "sections: " + ", ".join(s.name for s in fmt.sections),
                code="unknown-header",
            )
        )
    ctx = Context(deck, fmt, placed, cards)
    summaries, violations, notes = section_sizes(ctx)
    more, open_notes = deck_size(ctx)
    violations, notes = violations + more, notes + open_notes
    for rule in DATA_RULES:
        violations += rule(ctx)
    for name in fmt.checks:
        violations += NAMED_CHECKS[name](ctx)
    if read_errors:  # an unreadable deck has no verdict on the rules
        violations, notes = [], []
    violations.sort(key=lambda v: (v.lines[0] if v.lines else 0, v.rule))
    return DeckReport(
        deck,
        fmt,
        resolution,
        summaries,
        violations,
        warnings + notes,
        read_errors,
        [p.section.name if p.section else None for p in placed],
    )


def check_file(path: Path, cards: CardSet, fmt: Format) -> DeckReport:
    """Read the decklist at ``path`` and check it (see :func:`check`); never raises on bad content."""
    deck, problems = read_decklist(Path(path))
    return check(deck, cards, fmt, problems)
