"""Arcana Fight! Edelweiss: the card schema, the Class and reference cards, the standard deck, the format, the PDF.

Class and reference texts are ours (cards/edelweiss/, in Japanese, the game's language; their English translation
in cards/edelweiss/en/); the standard deck is the list of 52 suited cards and two jokers
(schema/edelweiss/standard-deck.json, mirrored as card records in cards/edelweiss/standard-deck.json).
"""

from __future__ import annotations

import json
import re

import pdfplumber
import pytest
from helpers import MM, REPO, assert_verdict, build_examples, card_boxes, check_deck, load_game, validate, write_deck

from printer.cards.translations import load_translations, translate, translation_state
from printer.project import load_project

EXAMPLES = REPO / "cards" / "edelweiss"
STANDARD = json.loads((REPO / "schema" / "edelweiss" / "standard-deck.json").read_text(encoding="utf-8"))


#: the translatable fields (schema/edelweiss/card.schema.json, "x-translatable")
FIELDS = ("title", "text", "flavor", "tip", "steps")


@pytest.fixture(scope="module")
def cards():
    return load_game("edelweiss", EXAMPLES)


@pytest.fixture(scope="module")
def english(cards):
    """The cards in English (cards/edelweiss/en/), with no problem and no warning."""
    book, problems = load_translations(load_project(REPO), [EXAMPLES], cards={"edelweiss": cards})
    assert problems == []
    state, warnings = translation_state(cards, book, "en", FIELDS)
    assert (state.translated, state.missing, state.stale, warnings) == (len(cards), [], [], [])
    translated, problems = translate(cards, book, "en", FIELDS)
    assert problems == []
    return translated


def japanese(text: str) -> bool:
    """Japanese: kana or kanji."""
    return any("\u3040" <= ch <= "\u30ff" or "\u4e00" <= ch <= "\u9fff" for ch in text)


# --- cards -------------------------------------------------------------------------------------------


def test_the_three_classes_in_japanese_and_english(cards, english):
    classes = {c.id: c for c in cards if c.type == "Class"}
    assert {c.title for c in classes.values()} == {"ガーディアン", "バディサモナー", "ウィザード"}
    assert {english.by_id(i).title for i in classes} == {"Guardian", "Buddy Summoner", "Wizard"}
    for card in classes.values():
        assert japanese(card["text"]) and japanese(card["tip"]) and card.copies == 1
        translated = english.by_id(card.id)
        assert not japanese(translated["text"]) and not japanese(translated["tip"])


def test_the_reference_card_follows_the_seeds_turn_sequence(cards, english):
    japanese = cards.by_id("turn-sequence")
    english = english.by_id("turn-sequence")
    assert "back_card" not in japanese.data  # one card, printed in one language
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


def test_the_translation_has_the_sources_icons(cards, english):
    """Each translated field names the same icons as the Japanese ({spade}, {sideways}...), as many times each (the
    order follows each language's word order)."""
    for card in english:
        for field in FIELDS:
            icons = [sorted(re.findall(r"\{[a-z-]+\}", json.dumps(c.get(field)))) for c in (card, cards.by_id(card.id))]
            assert icons[0] == icons[1], (card.id, field)


def test_the_standard_deck_cards_match_the_data_file(cards):
    """cards/edelweiss/standard-deck.json holds exactly the cards the data file lists, none printed by default."""
    suits = [s["suit"] for s in STANDARD["suits"]]
    ranks = {r["rank"]: r["name"] for r in STANDARD["ranks"]}
    assert len(suits) == 4 and len(ranks) == 13
    playing = [c for c in cards if c.type == "Playing Card"]
    assert sorted((c["suit"], c["rank"]) for c in playing) == sorted((s, r) for s in suits for r in ranks)
    names_ja = {s["suit"]: s["name_ja"] for s in STANDARD["suits"]}
    assert all(c.title == f"{names_ja[c['suit']]}の{c['rank']}" for c in playing)  # スペードのA
    jokers = [c.title for c in cards if c.type == "Joker"]
    assert jokers == [j["name_ja"] for j in STANDARD["jokers"]]


def test_the_standard_deck_in_english_has_the_data_files_names(cards, english):
    ranks = {r["rank"]: r["name"] for r in STANDARD["ranks"]}
    for card in english:
        if card.type == "Playing Card":
            assert card.title == STANDARD["card_name"].format(rank=ranks[card["rank"]], suit=card["suit"])
    assert [c.title for c in english if c.type == "Joker"] == [j["name"] for j in STANDARD["jokers"]]
    assert all(c.copies == 0 for c in cards if c.type in ("Playing Card", "Joker"))


@pytest.mark.parametrize(
    "card, where, words",
    [
        ({"id": "c", "title": "Knight", "type": "Class", "tip": "x"}, "", "missing required field 'text'"),
        ({"id": "c", "title": "Knight", "type": "Class", "text": "x", "text_ja": "x"}, ".text_ja", "unknown field"),
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
            {"id": "c", "title": "Knight", "type": "Class", "text": "x", "suit": "Hearts"},
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
    assert any(str(p.where).endswith("$.cards[0]" + where) and words in str(p) for p in problems), [
        str(p) for p in problems
    ]


# --- the format ---------------------------------------------------------------------------------------

#: the 52 cards' names in English (their translation's titles, the data file's pattern) and in Japanese (the cards')
NAMES = [
    STANDARD["card_name"].format(rank=r["name"], suit=s["suit"]) for s in STANDARD["suits"] for r in STANDARD["ranks"]
]
NAMES_JA = [f"{s['name_ja']}の{r['rank']}" for s in STANDARD["suits"] for r in STANDARD["ranks"]]
DECK = "# Deck\n" + "".join(f"1 {n}\n" for n in NAMES)
DECK_JA = "# Deck\n" + "".join(f"1 {n}\n" for n in NAMES_JA)

CASES = [
    ("the 52 cards", DECK_JA, "legal", []),
    ("the 52 cards and a Class", DECK_JA + "# Class\n1 ウィザード\n", "legal", []),
    (
        "one Class per player, the same one",
        DECK_JA + "# First player:\n1 ガーディアン\n# Second player:\n1 ガーディアン\n",
        "legal",
        [],
    ),
    ("51 cards", DECK_JA.replace("1 ダイアのK\n", ""), "illegal", ["edelweiss-standard-deck", "section-size"]),
    (
        "a card twice",
        DECK_JA.replace("1 ダイアのK\n", "1 ハートのK\n"),
        "illegal",
        ["edelweiss-standard-deck"],
    ),
    ("53 cards", DECK_JA + "1 スペードのA\n", "illegal", ["edelweiss-standard-deck", "section-size"]),
    ("a joker", DECK_JA + "1 JOKER\n", "illegal", ["no-section"]),
    ("the reference card is no part of a deck", DECK_JA + "1 ターンシークエンス\n", "illegal", ["no-section"]),
    (
        "three Classes",
        DECK_JA + "# Classes\n1 ウィザード\n1 ガーディアン\n1 バディサモナー\n",
        "illegal",
        ["section-size"],
    ),
    (
        "two Classes for one player",
        DECK_JA + "# Alice\n1 ウィザード\n1 ガーディアン\n",
        "illegal",
        ["class-per-player"],
    ),
    (
        "a Class in the deck",
        DECK_JA.replace("1 スペードのA\n", "1 スペードのA\n1 ウィザード\n"),
        "illegal",
        ["wrong-section"],
    ),
]


@pytest.mark.parametrize("what, text, status, rules", CASES, ids=[c[0] for c in CASES])
def test_standard_format(tmp_path, cards, what, text, status, rules):
    assert_verdict(check_deck(tmp_path, text, cards, "edelweiss-standard"), status, rules)


def test_missing_and_doubled_cards_are_named(tmp_path, cards):
    report = check_deck(tmp_path, DECK_JA.replace("1 ハートの7\n", "1 クラブの2\n"), cards, "edelweiss-standard")
    messages = sorted(v.message for v in report.violations)
    assert messages == [
        "1 standard card missing: Seven of Hearts",
        "2 copies of the Two of Clubs: a standard deck has one",
    ]


def test_deck_check_command(run_cli, tmp_path):
    """A decklist in English names the Japanese cards by their translation's titles."""
    deck = write_deck(tmp_path, DECK + "# Class\n1 Wizard\n")
    code, out, err = run_cli("deck", "check", deck, "--format", "edelweiss-standard")
    assert code == 0 and "Deck 52" in out and "Class 1" in out, err
    deck = write_deck(tmp_path, DECK + "1 Extra Joker\n")
    code, out, err = run_cli("deck", "check", deck, "--format", "edelweiss-standard")
    assert code == 1 and "'Extra Joker' (エクストラJOKER) is a Joker" in err and "Deck 52" in out


# --- the PDF --------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """The examples printed once (in Japanese, the source): three Class cards and the reference card, small size,
    3x3 per A4 sheet."""
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
    for words in ("ガーディアン", "バディサモナー", "ウィザード", "ターンシークエンス", "迎撃", "追撃", "クラス"):
        assert words in text
    for words in ("Guardian", "Wizard", "Turn Sequence", "Intercept", "CLASS"):  # one language on a card
        assert words not in text


@pytest.mark.slow
def test_the_reference_card_has_the_deck_back_and_a_class_the_sleeve_reminder(built):
    with pdfplumber.open(built) as pdf:
        back = pdf.pages[1].extract_text()
    assert back.count("ジョーカーと一緒にスリーブへ") == 3 and back.count("Edelweiss") >= 1
    assert "ターンシークエンス" not in back and "Sleeve" not in back


@pytest.mark.slow
def test_the_english_rules_embed_the_english_cards_and_the_japanese_rules_the_japanese_ones(run_cli, tmp_path):
    """rules/edelweiss/ (lang en) embeds the cards' English translation; rules/edelweiss/ja/ the Japanese cards."""
    code, _, err = run_cli("rules", "edelweiss", "--out", tmp_path)
    assert code == 0, err
    with pdfplumber.open(tmp_path / "edelweiss-rules.pdf") as pdf:
        english = " ".join(page.extract_text() or "" for page in pdf.pages)
    with pdfplumber.open(tmp_path / "edelweiss-rules-ja.pdf") as pdf:
        japanese = " ".join(page.extract_text() or "" for page in pdf.pages)
    assert "Turn Sequence" in english and "Buddy Summoner" in english and "ターンシークエンス" not in english
    assert "ターンシークエンス" in japanese and "バディサモナー" in japanese and "Turn Sequence" not in japanese


@pytest.mark.slow
def test_the_english_build_prints_one_language_the_reminders_with_it(run_cli, tmp_path):
    """--lang en: the Classes, the reference card and the Class backs' sleeve reminder in English, no Japanese."""
    code, _, err = run_cli("build", "edelweiss", "--lang", "en", "--no-aids", "--out", tmp_path)
    assert code == 0, err
    assert "warning" not in err
    with pdfplumber.open(tmp_path / "edelweiss-en.pdf") as pdf:
        front, back = (page.extract_text() or "" for page in pdf.pages[:2])
    for words in ("Guardian", "Buddy Summoner", "Wizard", "CLASS", "Turn Sequence", "Intercept", "Pursuit"):
        assert words in front
    assert back.count("Sleeve in front of a joker") == 3
    assert not japanese(front) and not japanese(back)


@pytest.mark.slow
def test_a_decklist_prints_from_names_in_either_language(run_cli, tmp_path):
    """build --deck finds the Japanese cards by their English titles as deck check does: proxies, not placeholders."""
    deck = write_deck(tmp_path, "# Deck\n1 Ace of Spades\n1 クラブのQ\n# Class\n1 Wizard\n")
    code, out, err = run_cli("build", "edelweiss", "--deck", deck, "--lang", "en", "--no-aids", "--out", tmp_path)
    assert code == 0 and "unknown card" not in err, err
    with pdfplumber.open(tmp_path / "edelweiss-deck-en.pdf") as pdf:
        text = pdf.pages[0].extract_text() or ""
    assert "Wizard" in text and "Attack" in text and "Support" in text and "missing" not in text
