"""Every rule of a format, each with a legal and an illegal fixture deck (invented cards).

The decks in ``tests/fixtures/decks/ivory/`` are variations of ``legal.txt``;
the first line of each says what it tests. Rules and their sources are in
:mod:`printer.decks.checks`.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from printer.cards.catalog import load_cards
from printer.cards.model import Card, CardSet
from printer.cards.record import Record
from printer.cards.schema import SchemaStore
from printer.decks import (
    FormatError,
    IllegalDeckError,
    available_formats,
    check,
    check_file,
    load_format,
    load_format_file,
    read_decklist,
)
from printer.games.l5r.checks import card_clans
from printer.project import load_project

REPO = Path(__file__).resolve().parents[3]
FIXTURES = REPO / "tests" / "fixtures" / "decks"
IVORY = FIXTURES / "ivory"


@pytest.fixture(scope="module")
def cards() -> CardSet:
    sets, problems = load_cards(load_project(REPO), [FIXTURES / "cards"], "l5r")
    assert problems == []
    return sets["l5r"]


@pytest.fixture(scope="module")
def ivory():
    return load_format("l5r-ivory-extended")


# (deck file, expected status, expected rules broken) — pairs of legal and illegal decks per rule.
CASES = [
    # the base deck: 1 Stronghold, 1 Sensei, 40 Dynasty, 40 Fate, an Emperor-arc card, two levels of a Unique
    ("legal.txt", "legal", []),
    ("legal.l5d", "legal", []),
    ("legal.json", "legal", []),
    # exactly one Stronghold
    ("no-stronghold.txt", "illegal", ["section-size"]),
    ("two-strongholds.txt", "illegal", ["section-size"]),
    # at most one Sensei, of the Stronghold's clan or all clans
    ("no-sensei.txt", "legal", []),
    ("two-senseis.txt", "illegal", ["section-size"]),
    ("sensei-wrong-clan.txt", "illegal", ["sensei-clan"]),
    ("sensei-multi-clan-wrong.txt", "illegal", ["sensei-clan"]),
    ("sensei-all-clans.txt", "legal", []),
    ("sensei-keyword-clan.txt", "legal", []),
    ("sensei-multi-clan.txt", "legal", []),
    # Dynasty and Fate at least 40, only their own cards
    ("dynasty-39.txt", "illegal", ["section-size"]),
    ("fate-39.txt", "illegal", ["section-size"]),
    ("wrong-section.l5d", "illegal", ["wrong-section"]),
    ("pregame-holding.txt", "illegal", ["no-section"]),
    # at most 3 copies, Unique at most 1, Experienced levels are different cards, card text may raise a limit
    ("four-copies.txt", "illegal", ["copy-limit"]),
    ("text-limit-six.txt", "legal", []),
    ("text-limit-seven.txt", "illegal", ["copy-limit"]),
    ("unique-two.txt", "illegal", ["unique-limit"]),
    ("experienced-levels.txt", "legal", []),
    ("experienced-same-card.txt", "illegal", ["unique-limit"]),
    # legal arcs and the banned list
    ("not-legal.txt", "illegal", ["not-legal"]),
    ("banned.txt", "illegal", ["banned"]),
    ("banned-missing.txt", "illegal", ["banned"]),
    # names
    ("loose-names.txt", "legal", []),
    ("unknown-cards.txt", "unresolved", []),
    ("many-problems.txt", "illegal", ["section-size", "copy-limit", "unique-limit", "banned"]),
]


@pytest.mark.parametrize("name, status, rules", CASES, ids=[c[0] for c in CASES])
def test_fixture_deck(cards, ivory, name, status, rules):
    report = check_file(IVORY / name, cards, ivory)
    assert report.status == status, [str(p) for p in report.problems()]
    assert sorted(report.rules_broken) == sorted(rules)
    assert report.is_legal() == report.is_valid() == (status == "legal")
    for violation in report.violations:
        assert violation.message and violation.hint
        assert violation.rule in rules


def test_every_rule_has_a_legal_and_an_illegal_deck():
    rules = {
        "section-size",
        "sensei-clan",
        "wrong-section",
        "no-section",
        "copy-limit",
        "unique-limit",
        "not-legal",
        "banned",
    }
    assert rules == {r for _, _, broken in CASES for r in broken}
    assert any(status == "legal" for _, status, _ in CASES)


def test_one_check_reports_every_problem(cards, ivory):
    report = check_file(IVORY / "many-problems.txt", cards, ivory)
    by_rule = {v.rule: v for v in report.violations}
    assert by_rule["copy-limit"].cards == ("Rice Terrace",) and by_rule["copy-limit"].count == 4
    assert by_rule["copy-limit"].limit == 3 and by_rule["copy-limit"].lines == (5,)
    assert by_rule["unique-limit"].cards == ("Asahi Daisuke",) and by_rule["unique-limit"].lines == (18,)
    assert by_rule["banned"].cards == ("Exotic Farmlands",) and "March 14th" in by_rule["banned"].message
    assert by_rule["section-size"].message.startswith("Stronghold: 0 cards")
    # the unknown card is apart from the rules, and the Fate size it leaves open is a warning, not a violation
    assert [p.code for p in report.unresolved] == ["unknown-card"]
    assert any(w.code == "section-size-open" and "Fate" in w.message for w in report.warnings)
    assert "also 1 card name not found" in report.verdict()


def test_banned_names_missing_from_the_card_data(cards, ivory):
    report = check_file(IVORY / "banned-missing.txt", cards, ivory)
    assert [(v.cards, v.lines) for v in report.violations] == [
        (("Advance Warning",), (37,)),
        (("Well-Defended Farm",), (38,)),
    ]
    assert "the card data lacks the card" in report.violations[0].message
    assert [p.code for p in report.unresolved] == ["unknown-card", "unknown-card"]  # still reported apart


def test_copies_on_several_lines_are_added(cards, ivory):
    violation = check_file(IVORY / "four-copies.txt", cards, ivory).violations[0]
    assert violation.lines == (6, 21) and "lines 6, 21" in violation.message


def test_section_sizes_in_the_summary(cards, ivory):
    report = check_file(IVORY / "legal.txt", cards, ivory)
    assert [(s.name, s.count, s.min, s.max, s.ok) for s in report.sections] == [
        ("Stronghold", 1, 1, 1, True),
        ("Sensei", 1, 0, 1, True),
        ("Dynasty", 40, 40, None, True),
        ("Fate", 40, 40, None, True),
    ]
    assert report.summary_lines()[-1] == "verdict: legal"


def test_wrong_section_names_the_card_and_the_header(cards, ivory):
    violation = check_file(IVORY / "wrong-section.l5d", cards, ivory).violations[0]
    assert violation.cards == ("Plain Yari",)
    assert "'Events'" in violation.message and "Fate" in violation.message


def test_not_legal_suggests_a_legal_level_of_the_same_title(cards, ivory):
    violation = check_file(IVORY / "not-legal.txt", cards, ivory).violations[0]
    assert violation.rule == "not-legal" and "Clan Wars (Imperial)" in violation.message
    assert violation.hint.startswith("did you mean 'Forgotten Battlefield \u2022 Experienced'?")


def test_unresolved_deck_is_not_called_illegal(cards, ivory):
    report = check_file(IVORY / "unknown-cards.txt", cards, ivory)
    assert report.violations == [] and len(report.unresolved) == 2
    assert report.verdict().startswith("no rule broken by the cards found, but 2 card names not found")


def test_raise_for_status(cards, ivory):
    check_file(IVORY / "legal.txt", cards, ivory).raise_for_status()
    with pytest.raises(IllegalDeckError) as info:
        check_file(IVORY / "banned.txt", cards, ivory).raise_for_status()
    assert info.value.report.rules_broken == ["banned"] and info.value.problems[0].code == "banned"


def test_unreadable_deck_report(cards, ivory, tmp_path):
    deck, problems = read_decklist(tmp_path / "missing.txt")
    report = check(deck, cards, ivory, problems)
    assert report.status == "unreadable" and not report.is_legal()


# --- the same deck in other formats --------------------------------------------------------------


def test_pregame_holding_has_a_section_in_emperor(cards):
    report = check_file(IVORY / "pregame-holding.txt", cards, load_format("l5r-emperor"))
    assert "no-section" not in report.rules_broken
    assert next(s for s in report.sections if s.name == "Pre-Game Holdings").count == 1
    assert report.rules_broken == ["not-legal"]  # the fixture cards are Ivory-arc cards


def test_twenty_festivals_has_its_own_card_pool(cards):
    report = check_file(IVORY / "legal.txt", cards, load_format("l5r-twenty-festivals"))
    assert report.rules_broken == ["not-legal"]
    assert len(report.violations) == len({e.name for e in read_decklist(IVORY / "legal.txt")[0].entries})


# --- formats as data --------------------------------------------------------------------------


def test_bundled_formats_are_valid_and_found_by_id():
    found = available_formats()
    assert {"l5r-ivory-extended", "l5r-twenty-festivals", "l5r-emperor"} <= set(found)
    store = SchemaStore([REPO])
    for format_id, file in found.items():
        import json

        assert (
            store.validate(
                json.loads(file.read_text(encoding="utf-8")), REPO / "schema" / "format.schema.json", str(file)
            )
            == []
        )
        assert load_format(format_id).id == format_id


def test_banned_lists():
    assert {b.name for b in load_format("l5r-ivory-extended").banned.values()} == {
        "Advance Warning",
        "Well-Defended Farm",
        "Exotic Farmlands",
    }
    assert {b.name for b in load_format("l5r-twenty-festivals").banned.values()} == {
        "Advance Warning",
        "Cavalry Escort",
    }
    emperor = load_format("l5r-emperor")
    assert len(emperor.banned) == 19 and "kalani's landing" in emperor.banned


def test_unknown_format_suggests_ids():
    with pytest.raises(FormatError) as info:
        load_format("l5r-ivory")
    assert info.value.exit_code == 2 and "l5r-ivory-extended" in info.value.problems[0].hint


@pytest.mark.parametrize("name, where", [("bad-format.json", "$.copy_limit"), ("unknown-check.json", "$.checks[0]")])
def test_invalid_format_files_are_reported(name, where):
    with pytest.raises(FormatError) as info:
        load_format_file(FIXTURES / "formats" / name)
    assert any(str(p.where).endswith("::" + where) for p in info.value.problems)
    if name == "unknown-check.json":
        assert "sensei-clan" in info.value.problems[0].hint


def write_deck(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "deck.txt"
    path.write_text(text, encoding="utf-8")
    return path


def test_copy_allowance_from_a_card_in_the_deck(cards, tmp_path):
    fmt = load_format(FIXTURES / "formats" / "drill-yard.json")
    base = "1 The Ember Fortress\n2 Rice Terrace\n4 Sudden Rain\n"
    assert check_file(write_deck(tmp_path, base), cards, fmt).is_legal()  # Sudden Rain has a Battle ability
    report = check_file(write_deck(tmp_path, base + "4 Careful Retreat\n4 Open Road\n"), cards, fmt)
    messages = {v.cards[0]: v.message for v in report.violations}
    assert set(messages) == {"Careful Retreat", "Open Road"}
    assert "already 'Sudden Rain'" in messages["Careful Retreat"]  # the allowance covers one card only
    assert messages["Open Road"].endswith("at most 3")  # no Battle ability
    without = check_file(write_deck(tmp_path, "1 The Paper Lantern Keep\n2 Rice Terrace\n4 Sudden Rain\n"), cards, fmt)
    assert without.rules_broken == ["copy-limit"]


def test_small_format_bounds_and_bans(cards, tmp_path):
    fmt = load_format(FIXTURES / "formats" / "drill-yard.json")
    report = check_file(
        write_deck(
            tmp_path,
            "1 The Ember Fortress\n# Holdings\n3 Salt Pans\n3 Rice Terrace\n1 Copper Seam\n# Fate\n3 Open Road\n",
        ),
        cards,
        fmt,
    )
    assert sorted(report.rules_broken) == ["banned", "section-size"]
    size = next(v for v in report.violations if v.rule == "section-size")
    assert size.count == 7 and size.limit == 6 and "7 cards, 2 to 6 allowed" in size.message


def test_legal_by_set():
    fmt = load_format(FIXTURES / "formats" / "drill-yard.json")

    def card(**data):
        return Card(
            "l5r",
            {"id": "x", "title": "X", "type": "Strategy", "deck": "Fate", **data},
            Record({}, Path("x.json"), "$"),
        )

    assert fmt.is_legal(card(sets=["Lantern Promo"]))
    assert fmt.is_legal(card(set="Lantern Promo"))
    assert fmt.is_legal(card(legality=["A Brother's Destiny (Ivory Edition)"]))
    assert not fmt.is_legal(card(legality=["Modern"], sets=["Other"]))
    assert not fmt.is_legal(card())


@pytest.mark.parametrize(
    "data, clans",
    [
        ({"clan": "Crane"}, {"Crane"}),
        ({"clan": ["Crab", "Lion"]}, {"Crab", "Lion"}),
        ({"keywords": ["All Clans"]}, None),
        ({"keywords": ["Lion Clan"]}, {"Lion"}),
        ({"keywords": ["Crane", "Mantis", "<b>Unique</b>"]}, {"Crane", "Mantis"}),
        ({"clan": "Unaligned"}, None),
        ({}, None),
    ],
)
def test_card_clans(data, clans):
    assert (
        card_clans(Card("l5r", {"id": "s", "title": "S", "type": "Sensei", **data}, Record({}, Path("s.json"), "$")))
        == clans
    )


def test_a_card_with_no_section_is_named_with_its_article(cards, ivory, tmp_path):
    """'... is an Imperial Favor' (a type starting with a vowel), '... is a Fate Strategy' otherwise."""
    favor = Card("l5r", {"id": "f", "title": "The Favor", "type": "Imperial Favor"}, Record({}, Path("f.json"), "$"))
    with_favor = CardSet("l5r")
    for card in [*cards, favor]:
        with_favor.add(card)
    deck, problems = read_decklist(write_deck(tmp_path, "1 The Favor\n"))
    message = next(v.message for v in check(deck, with_favor, ivory, problems).violations if v.rule == "no-section")
    assert message.startswith("'The Favor' is an Imperial Favor: ")
