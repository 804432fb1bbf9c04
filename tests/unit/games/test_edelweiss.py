"""Arcana Fight! Edelweiss: the card schema, the Class and reference cards, the standard deck, the format, the PDF.

Class and reference texts are ours (cards/edelweiss/); the standard deck is
the list of 52 suited cards and two jokers (schema/edelweiss/standard-deck.json,
mirrored as card records in cards/edelweiss/standard-deck.json).
"""

from __future__ import annotations

import json

import pdfplumber
import pytest
from helpers import MM, REPO, assert_verdict, build_examples, card_boxes, check_deck, load_game, validate, write_deck

EXAMPLES = REPO / "cards" / "edelweiss"
STANDARD = json.loads((REPO / "schema" / "edelweiss" / "standard-deck.json").read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def cards():
    return load_game("edelweiss", EXAMPLES)


# --- cards -------------------------------------------------------------------------------------------


def test_the_three_classes_in_english_and_japanese(cards):
    classes = {c.title: c for c in cards if c.type == "Class"}
    assert set(classes) == {"Guardian", "Buddy Summoner", "Wizard"}
    assert {c["title_ja"] for c in classes.values()} == {"ガーディアン", "バディサモナー", "ウィザード"}
    for card in classes.values():
        assert card["text"] and any("\u30a0" <= ch <= "\u30ff" for ch in card["text_ja"]) and card.copies == 1


def test_the_reference_card_follows_the_seeds_turn_sequence(cards):
    english = cards.by_id("turn-sequence")
    japanese = cards.by_id(english["back_card"])
    assert [s["name"] for s in english["steps"]] == ["Draw", "Main", "Attack"]
    assert [p["name"] for p in english["steps"][2]["phases"]] == [
        "Attack",
        "Intercept",
        "Defend",
        "Counter",
        "Pursuit",
        "Break",
    ]
    assert [s["name"] for s in japanese["steps"]] == ["ドロー", "メイン", "アタック"]
    assert [p["name"] for p in japanese["steps"][2]["phases"]] == ["攻撃", "迎撃", "防御", "反撃", "追撃", "ブレイク"]
    assert [p["who"] for p in english["steps"][2]["phases"]] == [p["who"] for p in japanese["steps"][2]["phases"]]


def test_the_standard_deck_cards_match_the_data_file(cards):
    """cards/edelweiss/standard-deck.json holds exactly the cards the data file lists, none printed by default."""
    suits = [s["suit"] for s in STANDARD["suits"]]
    ranks = {r["rank"]: r["name"] for r in STANDARD["ranks"]}
    assert len(suits) == 4 and len(ranks) == 13
    playing = [c for c in cards if c.type == "Playing Card"]
    assert sorted((c["suit"], c["rank"], c.title) for c in playing) == sorted(
        (s, r, STANDARD["card_name"].format(rank=n, suit=s)) for s in suits for r, n in ranks.items()
    )
    jokers = [c.title for c in cards if c.type == "Joker"]
    assert jokers == [j["name"] for j in STANDARD["jokers"]]
    assert all(c.copies == 0 for c in cards if c.type in ("Playing Card", "Joker"))


@pytest.mark.parametrize(
    "card, where, words",
    [
        ({"id": "c", "title": "Knight", "type": "Class", "text": "x"}, "", "missing required field 'text_ja'"),
        (
            {"id": "p", "title": "Ace of Spades", "type": "Playing Card", "suit": "Spades"},
            "",
            "missing required field 'rank'",
        ),
        (
            {"id": "p", "title": "Ace of Spades", "type": "Playing Card", "suit": "Spade", "rank": "A"},
            ".suit",
            "did you mean 'Spades'",
        ),
        (
            {"id": "p", "title": "One", "type": "Playing Card", "suit": "Spades", "rank": "1"},
            ".rank",
            "not a valid rank",
        ),
        (
            {"id": "c", "title": "Knight", "type": "Class", "text": "x", "text_ja": "x", "suit": "Hearts"},
            ".suit",
            "not allowed here",
        ),
        (
            {"id": "r", "title": "Turns", "type": "Reference", "steps": [{"name": "Draw", "who": "attacking"}]},
            ".steps[0].who",
            "did you mean 'attacker'",
        ),
        ({"id": "r", "title": "Turns", "type": "Reference"}, "", "missing required field 'steps'"),
    ],
)
def test_schema_errors_are_located_with_hints(tmp_path, card, where, words):
    valid, problems = validate(tmp_path, "edelweiss", card)
    assert valid == []
    assert any(p.where.endswith("$.cards[0]" + where) and words in str(p) for p in problems), [str(p) for p in problems]


# --- the format ---------------------------------------------------------------------------------------

NAMES = [
    STANDARD["card_name"].format(rank=r["name"], suit=s["suit"]) for s in STANDARD["suits"] for r in STANDARD["ranks"]
]
DECK = "# Deck\n" + "".join(f"1 {n}\n" for n in NAMES)

CASES = [
    ("the 52 cards", DECK, "legal", []),
    ("the 52 cards and a Class", DECK + "# Class\n1 Wizard\n", "legal", []),
    (
        "one Class per player, the same one",
        DECK + "# First player:\n1 Guardian\n# Second player:\n1 Guardian\n",
        "legal",
        [],
    ),
    ("51 cards", DECK.replace("1 King of Diamonds\n", ""), "illegal", ["edelweiss-standard-deck", "section-size"]),
    (
        "a card twice",
        DECK.replace("1 King of Diamonds\n", "1 King of Hearts\n"),
        "illegal",
        ["edelweiss-standard-deck"],
    ),
    ("53 cards", DECK + "1 Ace of Spades\n", "illegal", ["edelweiss-standard-deck", "section-size"]),
    ("a joker", DECK + "1 Joker\n", "illegal", ["no-section"]),
    ("the reference card is no part of a deck", DECK + "1 Turn Sequence\n", "illegal", ["no-section"]),
    ("three Classes", DECK + "# Classes\n1 Wizard\n1 Guardian\n1 Buddy Summoner\n", "illegal", ["section-size"]),
    ("two Classes for one player", DECK + "# Alice\n1 Wizard\n1 Guardian\n", "illegal", ["class-per-player"]),
    (
        "a Class in the deck",
        DECK.replace("1 Ace of Spades\n", "1 Ace of Spades\n1 Wizard\n"),
        "illegal",
        ["wrong-section"],
    ),
]


@pytest.mark.parametrize("what, text, status, rules", CASES, ids=[c[0] for c in CASES])
def test_standard_format(tmp_path, cards, what, text, status, rules):
    assert_verdict(check_deck(tmp_path, text, cards, "edelweiss-standard"), status, rules)


def test_missing_and_doubled_cards_are_named(tmp_path, cards):
    report = check_deck(tmp_path, DECK.replace("1 Seven of Hearts\n", "1 Two of Clubs\n"), cards, "edelweiss-standard")
    messages = sorted(v.message for v in report.violations)
    assert messages == [
        "1 standard card missing: Seven of Hearts",
        "2 copies of the Two of Clubs: a standard deck has one",
    ]


def test_deck_check_command(run_cli, tmp_path):
    deck = write_deck(tmp_path, DECK + "1 Extra Joker\n")
    code, out, err = run_cli("deck", "check", deck, "--format", "edelweiss-standard")
    assert code == 1 and "'Extra Joker' is a Joker" in err and "Deck 52" in out


# --- the PDF --------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """The examples printed once: three Class cards and the reference card, small size, 3x3 per A4 sheet."""
    return build_examples(tmp_path_factory, "edelweiss")


@pytest.mark.slow
def test_small_size_cards_three_by_three(built):
    with pdfplumber.open(built) as pdf:
        assert len(pdf.pages) == 2  # 4 cards (the 52 playing cards have copies 0): one sheet, front and back
        front = pdf.pages[0]
        assert (front.width / MM, front.height / MM) == pytest.approx((210, 297), abs=0.5)
        rects = card_boxes(front, 59, 86)
        text = front.extract_text()
    xs, ys = sorted({x for x, _ in rects}), sorted({y for _, y in rects})
    assert len(rects) == 4 and len(xs) == 3 and len(ys) == 2  # a full row of three, then one
    assert xs[1] - xs[0] >= 59 and ys[1] - ys[0] >= 86
    assert (xs[0] + xs[2] + 59) / 2 == pytest.approx(105, abs=0.2)
    for words in (
        "Guardian",
        "ガーディアン",
        "Buddy Summoner",
        "バディサモナー",
        "Wizard",
        "ウィザード",
        "Turn Sequence",
        "Intercept",
        "Pursuit",
    ):
        assert words in text


@pytest.mark.slow
def test_the_japanese_reference_is_on_the_back_of_the_english_one(built):
    with pdfplumber.open(built) as pdf:
        back = pdf.pages[1]
        hits = [w for w in back.extract_words() if "ターンシークエンス" in w["text"]]
        rects = card_boxes(pdf.pages[0], 59, 86)
    assert len(hits) == 1
    xs, ys = sorted({x for x, _ in rects}), sorted({y for _, y in rects})
    # the English card is in column 1 of row 2 on the front; under long-edge flip its back is in column 3
    assert xs[2] < hits[0]["x0"] / MM < xs[2] + 59 and ys[1] < hits[0]["top"] / MM < ys[1] + 86
