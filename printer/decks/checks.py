"""Checking a deck against a format: :func:`check` and the rules it applies.

Data rules, each driven by the format file:

- ``no-section``: a card of a type the format has no place for;
- ``wrong-section``: a card listed under the header of another section;
- ``section-size``: a section's size outside its bounds (``min``, ``max``);
- ``deck-size``: the whole deck outside the format's ``deck_size``;
- ``copy-limit`` / ``unique-limit``: copies of one card over the format's
  copy limit, or over one for a card marked Unique; different levels of a
  card (as a game's name rules tell them apart) are different cards. Card
  text may raise a limit (format ``copy_limit_text``), and so may a card in
  the deck (``copy_allowances``);
- ``not-legal``: a card outside the format's card pool (its ``legality``);
- ``banned``: a card on the format's banned list (also when the name is
  missing from the card data: the list names it, so it is refused anyway).

Checks that data cannot express are registered by games
(:mod:`printer.plugins`, ``printer/games/<id>/checks.py``) and switched on
by a format's ``checks`` as ``<game>.<name>``.

Unresolved names are not violations: a size rule is only broken when even
the unresolved lines that could belong to the section cannot make it up.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from pathlib import Path

from printer.cards.model import Card, CardSet
from printer.decks.formats import Format, Section, _CardFacts
from printer.decks.names import name_key, split_name
from printer.decks.readers.decklist import Decklist
from printer.decks.readers.text import header_counts, read_decklist
from printer.decks.report import DeckReport, SectionSummary, Violation, note
from printer.decks.resolve import Resolution, ResolvedEntry, name_index, resolve
from printer.plugins import find_check
from printer.problems import Problem, counted


@dataclass(slots=True)  # one per decklist line of every deck checked: slots make them quicker to make and read
class Placed:
    """A resolved entry with the ``section`` its card goes to and the ``declared`` sections its header names.

    ``card``, ``count`` and ``line`` are the entry's (read often: plain attributes).
    """

    item: ResolvedEntry
    section: Section | None
    declared: list[Section]
    card: Card | None = field(init=False, repr=False, compare=False)
    count: int = field(init=False, repr=False, compare=False)
    line: int = field(init=False, repr=False, compare=False)
    #: what the card is in the format being checked (set by :func:`check`; ``None`` for an unresolved entry)
    facts: _CardFacts | None = field(default=None, repr=False, compare=False)

    def __post_init__(self) -> None:
        self.card, self.count, self.line = self.item.card, self.item.entry.count, self.item.entry.line


class Found(Placed):
    """A :class:`Placed` entry whose name resolved to one card: ``card`` is never ``None``.

    :func:`check` places every resolved entry as a ``Found``, so :meth:`Context.found` returns them as they are.
    """

    __slots__ = ()

    card: Card


@dataclass
class Context:
    """What a rule sees: the deck, its format and every placed entry."""

    deck: Decklist
    format: Format
    placed: list[Placed]
    cards: CardSet | None = None
    _found: list[Found] | None = field(default=None, init=False, repr=False, compare=False)
    _groups: dict[str, list[Found]] | None = field(default=None, init=False, repr=False, compare=False)
    _sections: dict[str, list[Found]] | None = field(default=None, init=False, repr=False, compare=False)
    _totals: dict[str, tuple[int, tuple[int, ...]]] | None = field(default=None, init=False, repr=False, compare=False)

    def found(self) -> list[Found]:
        """The entries that resolved to a card, in decklist order."""
        if self._found is None:
            self._found = [p for p in self.placed if isinstance(p, Found)]
        return list(self._found)

    def in_section(self, name: str) -> list[Found]:
        """The resolved entries placed in the section ``name``."""
        if self._sections is None:
            self._sections = {}
            for p in self.found():
                if p.section is not None:
                    self._sections.setdefault(p.section.name, []).append(p)
        return list(self._sections.get(name, ()))

    def by_name(self) -> dict[str, list[Found]]:
        """The found entries grouped by the full name of their card (:func:`name_key`), in decklist order.

        Made once per check and shared by the rules: read it, do not change it.
        """
        if self._groups is None:
            self._groups = {}
            fmt = self.format
            for p in self.found():
                key = facts_of(p, fmt).key
                self._groups.setdefault(key, []).append(p)
        return self._groups

    def totals(self) -> dict[str, tuple[int, tuple[int, ...]]]:
        """For each group of :meth:`by_name`, its copies (every line's count added) and its decklist lines."""
        if self._totals is None:
            self._totals = {
                key: (group[0].count, (group[0].line,))
                if len(group) == 1  # most names are on one line
                else (sum(p.count for p in group), tuple(p.line for p in group))
                for key, group in self.by_name().items()
            }
        return self._totals


def facts_of(placed: Placed, fmt: Format) -> _CardFacts:
    """What a found entry's card is in ``fmt`` (set by :func:`check`, else asked of the format)."""
    assert placed.card is not None, "only entries that found their card"
    return placed.facts or fmt.facts(placed.card)


Rule = Callable[[Context], list[Violation]]


def quote_names(names: Iterable[str]) -> str:
    """Names quoted and joined with commas, for messages."""
    return ", ".join(repr(n) for n in names)


def line_list(lines: Iterable[int]) -> str:
    """``line 3`` or ``lines 3, 5``: decklist lines for messages."""
    numbers = sorted(set(lines))
    return ("line " if len(numbers) == 1 else "lines ") + ", ".join(str(n) for n in numbers)


def rule_placement(ctx: Context) -> list[Violation]:
    """``no-section`` and ``wrong-section`` (see the module docstring)."""
    found = []
    for p in ctx.found():
        if p.section is not None and not (p.declared and p.section not in p.declared):
            continue  # placed where it belongs
        card = p.card
        kind = f"{card.get('deck', '?')} {card.type}" if card.get("deck") else card.type
        kind = f"{'an' if kind[:1].upper() in 'AEIO' else 'a'} {kind}"  # an Imperial Favor, a Fate Strategy
        if p.section is None:
            found.append(
                Violation(
                    "no-section",
                    f"{card.name!r} is {kind}: {ctx.format.name} has no place for it",
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
                    f"{card.name!r} is {kind}, listed under '{header}': it belongs in the {p.section.name} section",
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
                    + (f" ({quote_names(dict.fromkeys(p.card.name for p in members))})" if len(members) <= 5 else ""),
                    where_lines,
                    tuple(dict.fromkeys(p.card.name for p in members)),
                    count,
                    section.max,
                    hint=f"remove {counted(count - section.max, 'card')}",
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
                what = f"{section.name}: {counted(count, 'card')}"
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
                        hint=f"add {counted(section.min - count - maybe, 'card')}"
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
                hint=f"remove {counted(extra, 'card')}",
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
                hint=f"add {counted(short, 'card')}",
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
    groups = ctx.by_name()
    in_deck = set(groups)
    active = [a for a in fmt.allowances if name_key(a.granted_by) in in_deck]
    used: dict[int, list[str]] = {i: [] for i in range(len(active))}
    found = []
    totals = ctx.totals()
    for key, group in groups.items():
        card = group[0].card
        facts = facts_of(group[0], fmt)
        count, lines = totals[key]
        where = f" ({line_list(lines)})" if len(lines) > 1 else ""
        unique = facts.unique
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
                        hint=f"keep {fmt.unique_limit}; other versions of its title are different cards",
                    )
                )
            continue
        if fmt.copy_limit is None:
            continue
        limit, why = fmt.copy_limit, ""
        own = facts.own_limit
        if own is not None and own > limit:
            limit, why = own, " (its own text)"
        if count > limit:
            for i, allowance in enumerate(active):
                if allowance.limit > limit and allowance.matches(card, unique):
                    if allowance.cards is not None and len(used[i]) >= allowance.cards:
                        why = (
                            f" ({allowance.granted_by} raises it to {allowance.limit} for {allowance.cards} cards,"
                            f" already {quote_names(used[i])})"
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
    totals = ctx.totals()
    for key, group in ctx.by_name().items():
        card = group[0].card
        facts = facts_of(group[0], fmt)
        count, lines = totals[key]
        ban = fmt.banned.get(facts.key)
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
        if not facts.legal:
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
    for placed in ctx.placed:  # a banned name is banned even when the card data lacks the card
        ban = fmt.ban_for_name(placed.item.entry.name) if placed.card is None and not placed.item.candidates else None
        if ban is not None:
            found.append(
                Violation(
                    "banned",
                    f"{ban.name!r} is banned in {fmt.name}"
                    + (f": {ban.note}" if ban.note else "")
                    + " (the card data lacks the card)",
                    (placed.line,),
                    (ban.name,),
                    placed.count,
                    0,
                    hint="remove it",
                )
            )
    return found


def _legal_levels(ctx: Context, card: Card) -> list[str]:
    """Other variants of ``card``'s title that are legal in the format (players often omit the variant)."""
    if ctx.cards is None:
        return []
    title = split_name(card.name).title
    return [c.name for c in name_index(ctx.cards).by_title.get(title, []) if c is not card and ctx.format.is_legal(c)]


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
    ``unreadable``, but for a line's count out of range, a ``deck-count`` violation; warnings are kept). ``resolution`` may be passed when the
    names were already resolved; by default ambiguous names are settled in
    favour of the one candidate legal in ``fmt``.
    """
    read_problems = list(read_problems or [])
    # a line whose count is out of range leaves the rest of the deck readable: the deck is illegal, not unreadable
    bad_counts = [p for p in read_problems if p.is_error and p.code == "deck-count"]
    read_errors = [p for p in read_problems if p.is_error and p.code != "deck-count"]
    warnings = [p for p in read_problems if not p.is_error]
    if resolution is None:
        resolution = resolve(deck, cards, prefer=fmt.is_legal)
    warnings += resolution.notes
    warnings += header_counts(deck)  # '# Main deck (40)' over 39 cards
    placed: list[Placed] = []
    unknown_headers: dict[str, int] = {}
    for item in resolution.entries:
        declared = fmt.sections_for_header(item.entry.section)
        if item.entry.section and not declared:
            unknown_headers.setdefault(item.entry.section, item.entry.line)
        facts = fmt.facts(item.card) if item.card else None
        section = facts.section if facts else None
        placed.append(
            Found(item, section, declared, facts) if item.card is not None else Placed(item, section, declared, facts)
        )
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
        game_rule = find_check(name, fmt.game)
        if game_rule is not None:  # load_format_file refuses unknown names; a check from an uninstalled game is skipped
            violations += game_rule(ctx)
    violations += [
        Violation("deck-count", p.message, (p.where.line,) if p.where.line else (), hint=p.hint) for p in bad_counts
    ]
    if read_errors:  # an unreadable deck has no verdict on the rules
        violations, notes = [], []
    violations.sort(key=lambda v: (v.lines[0] if v.lines else 0, v.rule))
    violations = _as_listed(violations, resolution)
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


def _as_listed(violations: list[Violation], resolution: Resolution) -> list[Violation]:
    """``violations`` naming each card the decklist named by a translation's title in the decklist's words and the
    source's: ``'踏みとどまれ' (Hold the Line)`` for ``'Hold the Line'`` (``cards`` keeps the source names)."""
    written = {r.card.name: r.entry.name for r in resolution.entries if r.translated and r.card is not None}
    if not written:
        return violations
    named = []
    for violation in violations:
        message = violation.message
        for source in violation.cards:
            if source in written:
                message = message.replace(repr(source), f"{written[source]!r} ({source})")
        named.append(replace(violation, message=message) if message != violation.message else violation)
    return named


def check_file(path: Path, cards: CardSet, fmt: Format) -> DeckReport:
    """Read the decklist at ``path`` and check it (see :func:`check`); never raises on bad content."""
    deck, problems = read_decklist(Path(path))
    return check(deck, cards, fmt, problems)
