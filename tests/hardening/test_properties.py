"""Property-based tests (Hypothesis) of the parsers: decklists, card names, card-text markup, card files.

Two kinds of property:

- *never raises*: on any input (any text, any bytes, any JSON value) each
  parser returns its result and its problems, or raises only printer's own
  errors (:class:`printer.problems.PrinterError`); every problem is located
  in the file it is about;
- *round trip*: what we write in the documented syntax reads back as what
  we wrote (decklist text and JSON decks, card files, escaped card text),
  and every card is found again by its own name however it is cased or
  spaced.

The number of examples comes from the Hypothesis profile (tests/conftest.py):
20 per test when pytest is run by hand, 75 under ``scripts/test`` (CI) (a third of that, at least 10, for the two
that load card files through the schema),
``HYPOTHESIS_PROFILE=thorough`` (or ``pytest --hypothesis-profile=thorough``) for 2,000.
"""

from __future__ import annotations

import json
import re
import unicodedata
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from printer.cards.catalog import load_cards
from printer.cards.load import read_json, records_from_data
from printer.cards.markup import escape_text, plain_text, to_html
from printer.cards.model import Card, CardSet
from printer.cards.record import Record
from printer.decks import load_decklist, read_decklist, resolve
from printer.decks.names import name_key
from printer.decks.readers.json_deck import parse_json
from printer.decks.readers.text import MAX_COUNT, Decklist, Entry, _header, parse_text
from printer.problems import PrinterError, Problem
from printer.project import load_project

REPO = Path(__file__).resolve().parents[2]
DECK = Path("deck.txt")

#: for a property whose every example loads a card file through the project's schema (the two slowest properties
#: here, several times the others): a third of the profile's examples (25 under scripts/test, 666 when thorough)
COSTLY = settings(max_examples=max(10, settings.default.max_examples // 3))

# --- strategies ------------------------------------------------------------------------------------

#: letters and digits of every script, and the punctuation card names use; no control characters or line separators
NAME_CHARS = st.characters(categories=["L", "N"]) | st.sampled_from(list(" '-!&,.:?\u2019\u2022"))


def _name_ok(name: str) -> bool:
    """A card name the text syntax can carry as it is (the documented exceptions left out)."""
    return (
        name == name.strip()
        and bool(name)
        and not name[0].isdigit()
        and not re.match(r"^[xX\u00d7]\s", name)
        and not re.search(r"\(\s*\d+\s*\)$", name)
        and " #" not in name
        and " //" not in name
        and not name.startswith(("#", "//"))
        and "  " not in name
        and not re.match(r"^(stronghold|sensei|wind|pre-game)\s*:", name, re.IGNORECASE)
    )


names = st.text(NAME_CHARS, min_size=1, max_size=30).filter(_name_ok)
#: section headers of one word: letters of any script, unchanged by NFKC (headers are read NFKC-normalised)
sections = st.text(st.characters(categories=["L"]), min_size=1, max_size=12).filter(
    lambda w: unicodedata.normalize("NFKC", w) == w
)
counts = st.integers(min_value=1, max_value=MAX_COUNT)
json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=True) | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=10), inner, max_size=5),
    max_leaves=30,
)


def located(problems: list[Problem], source: str) -> bool:
    return all(str(p.where).startswith(source) for p in problems)


# --- decklists -------------------------------------------------------------------------------------


@given(st.text(max_size=400))
def test_any_text_parses_as_a_decklist_without_raising(text):
    deck, problems = parse_text(text, DECK)
    assert located(problems, "deck.txt")
    lines = text.splitlines()
    for entry in deck.entries:
        assert 1 <= entry.count <= MAX_COUNT and entry.name == entry.name.strip() and entry.name
        assert 1 <= entry.line <= len(lines)


@given(
    st.lists(
        st.sampled_from(
            [
                "# Dynasty (40):",
                "# 先攻",
                "# Player 1",
                "Fate: 40",
                "3 Rice Terrace",
                "3x Salt Pans",
                "-1 Copper Seam",
                "0 Iron Resolve",
                "99999 Open Road",
                "hello there",
                "# a b c d",
                "// note",
                "1 The Keep (1)",
                "３ 正義",
                "Sensei: Kagako Sensei",
                "",
                "#",
                "3",
                "x",
            ]
        ),
        max_size=30,
    )
)
def test_decklist_shaped_text_parses_without_raising(lines):
    deck, problems = parse_text("\n".join(lines), DECK)
    assert located(problems, "deck.txt")
    assert all(1 <= e.count <= MAX_COUNT for e in deck.entries)


@given(st.binary(max_size=300))
def test_any_bytes_read_as_a_decklist_or_say_why(tmp_path_factory, data):
    path = tmp_path_factory.mktemp("deck") / "deck.txt"
    path.write_bytes(data)
    deck, problems = read_decklist(path)
    assert located(problems, str(path))
    try:
        load_decklist(path)
    except PrinterError as exc:
        assert exc.problems


@given(st.text(max_size=60))
def test_any_header_text_is_a_header_or_a_comment(text):
    name = _header(text)
    assert name is None or (name == name.strip() and name)


SEPARATORS = [" ", "x ", " x ", "\u00d7 "]


@given(st.lists(st.tuples(sections, counts, st.sampled_from(SEPARATORS), names), min_size=1, max_size=15))
def test_a_text_decklist_reads_back_as_written(entries):
    lines, current = [], None
    for section, count, separator, name in entries:
        if section != current:
            lines += ["", f"# {section}"]
            current = section
        lines.append(f"{count}{separator}{name}")
    deck, problems = parse_text("\n".join(lines) + "\n", DECK)
    assert problems == []
    assert [(e.count, e.name, e.section) for e in deck.entries] == [(c, n, s) for s, c, _, n in entries]


@given(
    st.lists(
        st.tuples(
            counts, st.text(min_size=1, max_size=30).filter(lambda n: n.strip() == n and n), st.none() | sections
        ),
        min_size=1,
        max_size=15,
    )
)
def test_a_json_deck_reads_back_as_written(entries):
    cards = [{"count": c, "name": n, **({"section": s} if s else {})} for c, n, s in entries]
    deck, problems = parse_json(json.dumps({"cards": cards}, indent=1), Path("deck.json"))
    assert problems == []
    assert [(e.count, e.name, e.section) for e in deck.entries] == entries


@given(json_values)
def test_any_json_deck_is_read_or_refused_without_raising(value):
    deck, problems = parse_json(json.dumps(value), Path("deck.json"))
    assert located(problems, "deck.json")
    assert deck.entries == [] or problems == []


# --- card names ------------------------------------------------------------------------------------


def _card_set(titles: list[str]) -> CardSet:
    cards = CardSet("l5r")
    for i, title in enumerate(titles):
        data = {"id": f"c{i}", "title": title, "type": "Strategy", "deck": "Fate"}
        cards.add(Card("l5r", data, Record(data, Path("cards.json"), f"$.cards[{i}]", "l5r")))
    return cards


def _deck(names_: list[str]) -> Decklist:
    return Decklist(DECK, [Entry(1, n, None, i + 1) for i, n in enumerate(names_)])


@given(st.lists(names, min_size=1, max_size=12, unique_by=name_key))
def test_every_card_is_found_by_its_own_name_however_cased_or_spaced(titles):
    cards = _card_set(titles)

    def cased(t: str, variant: str) -> str:  # another case of the same letters ('ı'.upper() is 'I', another letter)
        return variant if variant.casefold() == t.casefold() else t

    variants = [
        v for t in titles for v in (t, cased(t, t.upper()), cased(t, t.lower()), "  " + t.replace(" ", "   ") + " ")
    ]
    resolution = resolve(_deck(variants), cards)
    assert resolution.problems == [], [p.message for p in resolution.problems]
    assert [r.card.title for r in resolution.entries] == [t for t in titles for _ in range(4)]


@given(st.lists(names, min_size=1, max_size=8), st.lists(st.text(max_size=40), min_size=1, max_size=8))
def test_resolving_any_name_never_raises_and_says_why_not(titles, wanted):
    resolution = resolve(_deck(wanted), _card_set(titles))
    assert len(resolution.entries) == len(wanted)
    unresolved = {r.entry.line for r in resolution.entries if r.card is None}
    assert {int(str(p.where).rsplit(":", 1)[1]) for p in resolution.problems} == unresolved


@given(st.text(max_size=60))
def test_a_name_key_is_stable(name):
    assert name_key(name_key(name)) == name_key(name)


# --- card-text markup ------------------------------------------------------------------------------

_OUR_TAGS = re.compile(r"</?(?:p|strong|em|br|span|img)(?:\s[^<>]*)?/?>")


@given(st.text(max_size=200))
def test_any_card_text_renders_without_raising_or_injecting_html(text):
    html = str(to_html(text))
    assert "<" not in _OUR_TAGS.sub("", html)  # every tag is one the markup makes: card text cannot add its own
    plain_text(text)


@given(
    st.text(st.characters(exclude_categories=["Cc", "Cs", "Zl", "Zp"]), max_size=120).filter(lambda t: t == t.strip())
)
def test_escaped_text_reads_back_as_written(text):
    """Any single line, escaped with escape_text (as importers write card text), shows exactly as written."""
    assert plain_text(escape_text(text)) == text


# --- card files ------------------------------------------------------------------------------------


@given(st.binary(max_size=300))
def test_any_bytes_read_as_a_card_file_or_say_why(tmp_path_factory, data):
    path = tmp_path_factory.mktemp("cards") / "cards.json"
    path.write_bytes(data)
    value, problems = read_json(path)
    assert located(problems, str(path))
    assert value is not None or any(p.is_error for p in problems)


@given(json_values)
def test_any_json_value_splits_into_cards_or_says_why(value):
    records, problems = records_from_data(value, Path("cards.json"))
    assert located(problems, "cards.json")
    assert all(isinstance(r.data, dict) for r in records)


PROJECT = load_project(REPO)

card_ids = st.from_regex(r"[a-z0-9][a-z0-9._-]{0,20}", fullmatch=True)
card_texts = st.text(st.characters(exclude_categories=["Cc", "Cs"]), min_size=1, max_size=80).filter(
    lambda t: t.strip() == t
)


@COSTLY
@given(st.lists(st.tuples(card_ids, card_texts, card_texts), min_size=1, max_size=6, unique_by=lambda c: c[0]))
def test_a_card_file_reads_back_as_written(tmp_path_factory, cards):
    written = [
        {"id": i, "title": title, "type": "Strategy", "deck": "Fate", "focus": 1, "text": escape_text(text)}
        for i, title, text in cards
    ]
    path = tmp_path_factory.mktemp("cards") / "cards.json"
    path.write_text(json.dumps({"game": "l5r", "cards": written}, indent=2, ensure_ascii=False), encoding="utf-8")
    sets, problems = load_cards(PROJECT, [path])
    assert problems == [], [str(p) for p in problems]
    assert [c.data for c in sets["l5r"]] == written
    assert [plain_text(c["text"]) for c in sets["l5r"]] == [text for _, _, text in cards]


PLAUSIBLE = {  # values a designer might write, right or nearly right, mixed with any JSON value
    "id": st.from_regex(r"[a-z][a-z0-9-]{0,8}", fullmatch=True),
    "title": st.text(min_size=1, max_size=20),
    "type": st.sampled_from(["Event", "Holding", "Strategy", "Personalty", "event"]),
    "deck": st.sampled_from(["Dynasty", "Fate", "Pre-Game"]),
    "cost": st.integers(-3, 20) | st.sampled_from(["+2", "*", "x"]),
    "focus": st.integers(-1, 6),
    "copies": st.integers(-1, 1200),
    "text": st.text(max_size=40),
    "keywords": st.lists(st.text(max_size=8), max_size=3),
    "unique": st.booleans(),
    "art": st.sampled_from(["", "a.png"]),
    "forse": st.integers(0, 5),
    "game": st.sampled_from(["l5r", "mtg"]),
}


REQUIRED = ("id", "title", "type", "deck")


@COSTLY
@given(
    st.fixed_dictionaries(
        {k: st.one_of(PLAUSIBLE[k], PLAUSIBLE[k], PLAUSIBLE[k], json_values) for k in REQUIRED},
        optional={k: st.one_of(v, v, json_values) for k, v in PLAUSIBLE.items() if k not in REQUIRED},
    )
)
def test_any_card_object_validates_or_says_why(tmp_path_factory, card):
    path = tmp_path_factory.mktemp("cards") / "cards.json"
    path.write_text(json.dumps({"game": "l5r", "cards": [card]}, allow_nan=True), encoding="utf-8")
    sets, problems = load_cards(PROJECT, [path])
    assert located(problems, str(path))
    errors = [p for p in problems if p.is_error]
    assert sets or errors  # a card left out is always explained
    if sets:  # a card kept passed its schema (cross-file checks such as missing art may still speak)
        assert all(p.code not in ("schema", "json-number", "unknown-game") for p in problems)
