"""ARCANDUCTOR: the card schema, the example set, the tarot importer, the set and hand formats, the PDF.

Example cards are ours (cards/arcanductor/); the importer fixture below is
hand-written in the shape of dariusk/corpora's tarot_interpretations.json
(names and numbers are facts of the tarot; no meanings are copied). The
acceptance test at the end imports the real file from ../shared/data.
"""

from __future__ import annotations

import json
import re

import pdfplumber
import pytest
from helpers import (
    MM,
    REPO,
    assert_verdict,
    build_examples,
    card_boxes,
    card_lines,
    check_deck,
    load_game,
    validate,
    write_cards,
    write_deck,
    write_json,
)

from printer.games.arcanductor.tarot import convert, import_tarot, japanese_name
from printer.project import load_project

EXAMPLES = REPO / "cards" / "arcanductor"
PIECES = {"Field", "Life Track", "Life Marker", "Power Counter"}  # cards/arcanductor/pieces.json
SHARED_TAROT = REPO.parent / "shared" / "data" / "tarot" / "tarot_interpretations.json"

#: the 22 titles in the card files (Japanese, the source language) and in their English translation
MAJOR_JA = ["愚者", "魔術師", "女教皇", "女帝", "皇帝", "教皇", "恋人", "戦車", "力", "隠者", "運命の輪", "正義", "吊された男", "死神",
            "節制", "悪魔", "塔", "星", "月", "太陽", "審判", "世界"]  # fmt: skip
MAJOR = [
    "The Fool",
    "The Magician",
    "The High Priestess",
    "The Empress",
    "The Emperor",
    "The Hierophant",
    "The Lovers",
    "The Chariot",
    "Strength",
    "The Hermit",
    "Wheel of Fortune",
    "Justice",
    "The Hanged Man",
    "Death",
    "Temperance",
    "The Devil",
    "The Tower",
    "The Star",
    "The Moon",
    "The Sun",
    "Judgement",
    "The World",
]
ARCANA = {
    "id": "a13",
    "title": "Death",
    "type": "Major Arcana",
    "arcanum": 13,
    "power": 7,
    "upright": {"timing": "own-battle-end", "text": "Discard the opposing card."},
    "reversed": {"timing": "reveal", "text": "自分のライフを3減らす。"},
}


# --- schema and examples ----------------------------------------------------------------------


@pytest.fixture(scope="module")
def examples():
    return load_game("arcanductor", EXAMPLES)


def japanese(text: str) -> bool:
    return any("\u3040" <= ch <= "\u30ff" or "\u4e00" <= ch <= "\u9fff" for ch in text)


def test_the_examples_are_the_22_major_arcana_and_a_dummy(examples):
    arcana = [c for c in examples if c.type == "Major Arcana"]
    assert sorted(c["arcanum"] for c in arcana) == list(range(22))
    assert [c.title for c in sorted(arcana, key=lambda c: c["arcanum"])] == MAJOR_JA
    assert [c.type for c in examples if c.type in ("Major Arcana", "Dummy") and c.type != "Major Arcana"] == ["Dummy"]
    assert {c.type for c in examples} - {"Major Arcana", "Dummy"} == PIECES  # printed as components
    for card in arcana:
        assert isinstance(card["power"], int)
        for side in ("upright", "reversed"):
            effect = card[side]
            assert effect["timing"] and japanese(effect["text"]), (card.id, side)
    timings = {c[s]["timing"] for c in arcana for s in ("upright", "reversed")}
    assert timings == {
        "reveal",
        "own-battle-start",
        "field-battle-start",
        "own-battle-end",
        "any-battle-end",
        "discard",
    }


def test_the_english_translation_covers_every_card_and_field_and_is_current(examples):
    """cards/arcanductor/en/ translates every translatable field of every card; no translation is stale."""
    from printer.cards.translations import load_translations, translate, translation_state

    project = load_project(REPO)
    fields = ("title", "text", "flavor", "upright", "reversed")
    book, problems = load_translations(project, [EXAMPLES], cards={"arcanductor": examples})
    assert problems == []
    state, warnings = translation_state(examples, book, "en", fields)
    assert (state.translated, state.missing, state.stale, warnings) == (len(examples), [], [], [])
    english, _ = translate(examples, book, "en", fields)
    arcana = sorted((c for c in english if c.type == "Major Arcana"), key=lambda c: c["arcanum"])
    assert [c.title for c in arcana] == MAJOR
    for card in english:
        assert not japanese(card.title) and not japanese(card.get("text", "")), card.id
        for side in ("upright", "reversed"):
            if side in card.data:  # the timing stays the source's
                assert card[side]["timing"] == examples.by_id(card.id)[side]["timing"]
                assert card[side]["text"] and not japanese(card[side]["text"]), (card.id, side)
        for field in fields:  # the same icons in both languages ({power}, {life}...), as a translator's import wants
            source = examples.by_id(card.id).get(field)
            assert sorted(re.findall(r"\{[a-z-]+\}", json.dumps(card.get(field)))) == sorted(
                re.findall(r"\{[a-z-]+\}", json.dumps(source))
            ), (card.id, field)


def test_blank_power_and_blank_effects_are_valid(tmp_path):
    blank = dict(ARCANA, power=None, upright={"text": ""}, reversed={})
    cards, problems = validate(tmp_path, "arcanductor", blank)
    assert problems == [] and len(cards) == 1


@pytest.mark.parametrize(
    "change, where, words",
    [
        ({"power": "lots"}, ".power", "should be of type"),
        ({"arcanum": 22}, ".arcanum", "22"),
        ({"upright": {"timing": "on-revael", "text": "x"}}, ".upright.timing", "did you mean 'reveal'"),
        ({"upright": {"text": "Discard it."}}, ".upright", "missing required field 'timing'"),
        ({"reversed": {"timing": "discard", "txt": "x"}}, ".reversed.txt", "unknown field 'txt'"),
        ({"type": "Minor Arcana"}, ".type", "did you mean 'Major Arcana'"),
    ],
)
def test_schema_errors_are_located_with_hints(tmp_path, change, where, words):
    cards, problems = validate(tmp_path, "arcanductor", dict(ARCANA, **change))
    assert cards == []
    assert any(str(p.where).endswith("$.cards[0]" + where) and words in str(p) for p in problems), [
        str(p) for p in problems
    ]


def test_a_major_arcana_needs_number_power_and_both_effects(tmp_path):
    bare = {"id": "x", "title": "The Star", "type": "Major Arcana"}
    _, problems = validate(tmp_path, "arcanductor", bare)
    missing = {str(p).split("'")[1] for p in problems if "missing required field" in p.message}
    assert missing == {"arcanum", "power", "upright", "reversed"}


def test_a_dummy_has_no_number_and_no_effects(tmp_path):
    _, ok = validate(tmp_path, "arcanductor", {"id": "d", "title": "Dummy", "type": "Dummy"})
    assert ok == []
    _, problems = validate(
        tmp_path, "arcanductor", {"id": "d", "title": "Dummy", "type": "Dummy", "arcanum": 3, "upright": {"text": ""}}
    )
    assert {str(p.where).rsplit("]", 1)[1] for p in problems} >= {".arcanum", ".upright"}


# --- the tarot importer -----------------------------------------------------------------------------


def tarot_source(majors=None, minors=2) -> dict:
    """A source in the corpora shape: the majors (name, rank) plus a few minor cards; no meanings."""
    majors = majors if majors is not None else [(n, r) for r, n in enumerate(MAJOR)]
    cards = [{"name": n, "rank": r, "suit": "major", "keywords": []} for n, r in majors]
    cards += [{"name": f"minor {i}", "rank": i, "suit": "cups"} for i in range(1, minors + 1)]
    return {"description": "test fixture", "tarot_interpretations": cards}


def test_import_gives_22_blank_cards_with_numbers_and_names():
    result = convert(tarot_source(), "t.json")
    assert [c["arcanum"] for c in result.cards] == list(range(22))
    fool = result.cards[0]
    assert fool == {
        "id": "arcana-00-the-fool",
        "title": "愚者",
        "type": "Major Arcana",
        "arcanum": 0,
        "power": None,
        "upright": {"text": ""},
        "reversed": {"text": ""},
    }
    assert [p.code for p in result.problems] == ["not-imported"]  # the 2 minor cards, one warning
    assert "2 minor arcana" in result.problems[0].message


def test_japanese_names_follow_the_name_not_the_number():
    # The Marseille order numbers Justice 8 and Strength 11: the names still get their own Japanese names.
    assert japanese_name("Justice") == "正義" and japanese_name("Strength") == "力"
    assert japanese_name("The Papess/High Priestess") == "女教皇"
    assert japanese_name("The Wheel") == "運命の輪" and japanese_name("Fortune") is None


def test_import_problems_are_located():
    majors = [(n, r) for r, n in enumerate(MAJOR)]
    majors[5] = ("The Pope", 4)  # a number twice (and 5 missing)
    majors[7] = ("The Chariot", "seven")  # not a number
    majors[9] = ("", 9)  # no name
    result = convert(tarot_source(majors), "t.json")
    codes = {(p.where, p.code) for p in result.problems}
    assert ("t.json::$.tarot_interpretations[5].rank", "tarot-duplicate") in codes
    assert ("t.json::$.tarot_interpretations[7].rank", "tarot-input") in codes
    assert ("t.json::$.tarot_interpretations[9].name", "tarot-input") in codes
    assert len(result.cards) == 19


def test_import_reports_missing_numbers_and_bad_files(tmp_path):
    good = write_json(tmp_path / "t.json", tarot_source([(n, r) for r, n in enumerate(MAJOR) if r != 13]))
    bad = tmp_path / "bad.json"
    bad.write_text('{"tarot": [1, 2,]}', encoding="utf-8")
    result = import_tarot([good, bad])
    messages = [str(p) for p in result.problems if p.is_error]
    assert any(m.startswith("input: error: Major Arcana missing: 13") for m in messages), messages
    assert any(m.startswith(f"{bad}:1:") and "invalid JSON" in m for m in messages), messages
    assert len(result.cards) == 21


def test_import_command_writes_validates_and_refuses_to_overwrite(run_cli, tmp_path):
    source = write_json(tmp_path / "tarot.json", tarot_source())
    out = tmp_path / "out"
    code, stdout, _ = run_cli("import", "tarot", source, "--out", out)
    assert code == 0 and "major-arcana.json: new, 22 cards" in stdout
    written = json.loads((out / "major-arcana.json").read_text(encoding="utf-8"))
    assert written["game"] == "arcanductor" and written["$schema"].endswith("schema/arcanductor/card.schema.json")
    assert len(load_game("arcanductor", out)) == 22
    assert "major-arcana.json: unchanged, 22 cards" in run_cli("import", "tarot", source, "--out", out)[1]
    (out / "major-arcana.json").write_text("{}", encoding="utf-8")
    code, _, err = run_cli("import", "tarot", source, "--out", out, "--dry-run")
    assert code == 2 and (out / "major-arcana.json").read_text() == "{}"
    code, _, err = run_cli("import", "tarot", source, "--out", out)
    assert code == 2 and "--force" in err
    assert run_cli("import", "tarot", source, "--out", out, "--force")[0] == 0


# --- formats: a player's set and a dealt hand ------------------------------------------------------


@pytest.fixture(scope="module")
def variant_cards(tmp_path_factory):
    """The examples plus a second card numbered 13 (a designer's variant)."""
    folder = tmp_path_factory.mktemp("variant")
    write_cards(folder / "variant.json", "arcanductor", [dict(ARCANA, id="variant-death", title="死神・再臨")])
    return load_game("arcanductor", EXAMPLES, folder)


SET_CASES = [
    ("the 22 arcana", card_lines(MAJOR_JA), "legal", []),
    ("21 arcana", card_lines(MAJOR_JA[:-1]), "illegal", ["section-size"]),
    ("23: one twice", card_lines(MAJOR_JA + ["愚者"]), "illegal", ["copy-limit", "section-size"]),
    (
        "a dummy is not part of the set",
        card_lines(MAJOR_JA[:-1] + ["ダミー"]),
        "illegal",
        ["no-section", "section-size"],
    ),
    (
        "two cards numbered 13 (and no 21)",
        card_lines(["死神・再臨" if n == "死神" else n for n in MAJOR_JA[:-1]] + ["死神"]),
        "illegal",
        ["arcana-distinct"],
    ),
]


@pytest.mark.parametrize("what, text, status, rules", SET_CASES, ids=[c[0] for c in SET_CASES])
def test_set_format(tmp_path, variant_cards, what, text, status, rules):
    assert_verdict(check_deck(tmp_path, "# Set\n" + text, variant_cards, "arcanductor-set"), status, rules)


HAND_JA = "# Significator\n1 隠者\n\n# Hand\n" + card_lines(MAJOR_JA[10:20])
HAND_CASES = [
    ("11 cards, one Significator", HAND_JA, "legal", []),
    ("no Significator", HAND_JA.replace("# Significator\n", ""), "illegal", ["significator"]),
    (
        "two Significators",
        HAND_JA.replace("1 隠者\n", "1 隠者\n1 愚者\n").replace("1 太陽\n", ""),
        "illegal",
        ["significator"],
    ),
    ("10 cards", HAND_JA.replace("1 太陽\n", ""), "illegal", ["section-size"]),
    ("12 cards", HAND_JA + "1 愚者\n", "illegal", ["section-size"]),
    ("a card twice", HAND_JA.replace("1 太陽\n", "1 月\n"), "illegal", ["copy-limit"]),
    ("a dummy dealt", HAND_JA.replace("1 太陽\n", "1 ダミー\n"), "illegal", ["no-section", "section-size"]),
    ("two cards numbered 13", HAND_JA.replace("1 太陽\n", "1 死神・再臨\n"), "illegal", ["arcana-distinct"]),
]
#: the same hand in English: the names of the cards' English translation (cards/arcanductor/en/)
HAND = "# Significator\n1 The Hermit\n\n# Hand\n" + card_lines(MAJOR[10:20])


@pytest.mark.parametrize("what, text, status, rules", HAND_CASES, ids=[c[0] for c in HAND_CASES])
def test_hand_format(tmp_path, variant_cards, what, text, status, rules):
    assert_verdict(check_deck(tmp_path, text, variant_cards, "arcanductor-hand"), status, rules)


def test_deck_check_command_on_the_examples(run_cli, tmp_path):
    """A decklist names the Japanese cards in English, by their translation's titles, or in Japanese."""
    code, out, _ = run_cli("deck", "check", write_deck(tmp_path, HAND), "--format", "arcanductor-hand")
    assert code == 0 and "legal" in out
    code, out, _ = run_cli("deck", "check", write_deck(tmp_path, HAND_JA), "--format", "arcanductor-hand")
    assert code == 0 and "legal" in out
    bad = write_deck(tmp_path, HAND.replace("# Significator\n", ""))
    code, out, err = run_cli("deck", "check", bad, "--format", "arcanductor-hand")
    assert code == 1 and "no Significator" in err


# --- the PDF ----------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """The examples printed once: 22 arcana and 3 dummies, 2x2 tarot cards per A4 sheet."""
    return build_examples(tmp_path_factory, "arcanductor")


def words(page, **options) -> list[dict]:
    """Words with their direction: a char turned a half turn has a negative text matrix (its ``a``).

    pdfplumber reads a turned word backwards ("looF"); ``text`` is put the right way round.
    """
    found = []
    for word in page.extract_words(return_chars=True, **options):
        word["turned"] = word["chars"][0]["matrix"][0] < 0
        if word["turned"]:
            word["text"] = word["text"][::-1]
        found.append(word)
    return found


@pytest.mark.slow
def test_tarot_cards_two_by_two_on_a4(built):
    with pdfplumber.open(built) as pdf:
        assert (
            len(pdf.pages) == 26
        )  # 25 cards (22 Major Arcana, 3 dummies) for each of 2 players: 13 sheets, fronts and backs
        page = pdf.pages[0]
        assert (page.width / MM, page.height / MM) == pytest.approx((210, 297), abs=0.5)
        rects = card_boxes(page, 70, 120)
    xs, ys = sorted({x for x, _ in rects}), sorted({y for _, y in rects})
    assert len(rects) == 4 and len(xs) == 2 and len(ys) == 2
    assert xs[1] - xs[0] >= 70 and ys[1] - ys[0] >= 120
    assert (xs[0] + xs[1] + 70) / 2 == pytest.approx(105, abs=0.2)  # centred across the sheet


@pytest.mark.slow
def test_the_reversed_effect_prints_upside_down_at_the_other_end(built):
    """愚者 (The Fool): its upright effect reads normally in the top half, its reversed effect turned 180° in the
    bottom half."""
    with pdfplumber.open(built) as pdf:
        found = None
        for page in pdf.pages[::2]:
            page_words = words(page, x_tolerance=4)  # the Japanese title is letter-spaced
            if any(w["text"] == "愚者" for w in page_words):
                found = page, page_words
                break
        assert found, "愚者 is printed"
        page, page_words = found
        card = next(
            (x, y)
            for x, y in card_boxes(page, 70, 120)
            if any(
                w["text"] == "愚者" and x <= w["x0"] / MM <= x + 70 and y <= w["top"] / MM <= y + 120
                for w in page_words
            )
        )
        x, y = card
        inside = [w for w in page_words if x <= w["x0"] / MM <= x + 70 and y <= w["top"] / MM <= y + 120]

        def where(text):
            return [((w["top"] / MM) - y, w["turned"]) for w in inside if text in w["text"]]

        # upright effect: "前進" (moves forward) in the top half, unturned; reversed effect: "減らす" (the opponent's
        # life goes down) in the bottom half, turned
        assert all(top < 60 and not turned for top, turned in where("前進")) and where("前進")
        assert all(top > 60 and turned for top, turned in where("減らす")) and where("減らす")
        # the name prints at both ends, once each way up
        assert sorted(turned for _, turned in where("愚者")) == [False, True]
        assert sorted(top > 60 for top, _ in where("愚者")) == [False, True]


def test_every_back_is_the_same_both_ways_up(built):
    """A face-down card must not show its orientation: the back's name prints once each way up."""
    with pdfplumber.open(built) as pdf:
        back = words(pdf.pages[1], x_tolerance=5)  # the name is letter-spaced
    names = [w for w in back if w["text"] == "ARCANDUCTOR" and w["top"] / MM < 280]  # not the sheet label
    assert len(names) == 8 and sum(w["turned"] for w in names) == 4


# --- acceptance on the real data ------------------------------------------------------------------


@pytest.mark.shared
def test_the_real_tarot_file_imports_validates_and_prints(run_cli, shared_data, tmp_path):
    out = tmp_path / "tarot"
    code, stdout, err = run_cli("import", "tarot", SHARED_TAROT, "--out", out)
    assert code == 0, err
    assert "22 Major Arcana imported" in stdout and "56 minor arcana cards left out" in err
    cards = json.loads((out / "major-arcana.json").read_text(encoding="utf-8"))["cards"]
    assert [c["arcanum"] for c in cards] == list(range(22)) and [c["title"] for c in cards] == MAJOR_JA
    code, stdout, err = run_cli("build", "arcanductor", "--cards", out, "--out", tmp_path / "pdf")
    assert code == 0, err
    with pdfplumber.open(tmp_path / "pdf" / "arcanductor.pdf") as pdf:
        assert len(pdf.pages) == 24  # a set of 22 for each of the 2 players and their aids: 12 sheets
        text = pdf.pages[0].extract_text()
    assert "愚者" in text


# --- play pieces (cards/arcanductor/pieces.json, printer.toml components) -----------------------------


@pytest.mark.slow
def test_each_player_gets_a_set_of_22_and_a_life_track_and_the_field_is_3_by_7(built):
    with pdfplumber.open(built) as pdf:
        text = " ".join(p.extract_text() or "" for p in pdf.pages[::2])
    assert text.count("愚者") == 2 and text.count("世界") == 2  # players = 2: a full set each
    with pdfplumber.open(built.parent / "arcanductor-components.pdf") as pdf:
        pages = pdf.pages
        pieces = pages[0].extract_text() or ""
        assert pieces.count("20から始め、0になったら負け。") == 2  # a life track per player
        numbers = pieces.split()
        assert all(numbers.count(str(v)) >= 2 for v in range(0, 21))
        assert len(card_boxes(pages[0], 134, 64, tolerance_pt=0.3)) == 2
        cuts = [c for c in pages[0].curves if c.get("stroke")]
        counters = [c for c in cuts if abs(c["width"] - 16 * MM) < 0.3]
        markers = [c for c in cuts if abs(c["width"] - 12 * MM) < 0.3]
        assert len(pages) == 2 + 2 * 8  # the pieces' sheet and its backs, then 8 board pages, each with a blank back
        board = [(p.extract_text() or "").replace(" ", "") for p in pages[2::2]]
    assert len(counters) == 2 * 21 and len(markers) == 2  # counters 1-9 twice and 10-12 once, for each player
    assert sum("(row-column)of4x2" in text for text in board) >= 7  # 244 x 898 mm on A4: 4 rows of 2 pages
    # two territories (the far one's label turned to face that player: its text reads backwards) and a neutral zone
    assert board[0].count("陣地") + board[0].count("地陣") == 2 and board[0].count("中立地帯") == 1


def test_power_counters_cover_1_to_12_for_each_player(tmp_path, run_cli):
    code, out, err = run_cli("build", "arcanductor", "--no-aids", "--players", "3", "--out", tmp_path)
    assert code == 0, err
    assert "1 field, 3 life-tracks, 3 life-markers, 63 power-counters" in out  # 21 counters (1-9 twice, 10-12) each
    with pdfplumber.open(tmp_path / "arcanductor.pdf") as pdf:
        assert len(pdf.pages) == 2 * 19  # 75 cards: 3 sets of 25, four to a sheet


# --- the English build (printer build --lang en) -------------------------------------------------------


@pytest.mark.slow
def test_the_english_build_prints_one_language_the_labels_with_it(run_cli, tmp_path):
    """--lang en prints the English translation and English labels (orientation, timings, the pieces' words); the
    Japanese build (no --lang) the cards and labels in Japanese. No face mixes the two."""
    code, _, err = run_cli("build", "arcanductor", "--lang", "en", "--no-aids", "--out", tmp_path)
    assert code == 0, err
    assert "warning" not in err  # every card translated, every text fits
    with pdfplumber.open(tmp_path / "arcanductor-en.pdf") as pdf:
        fronts = " ".join(p.extract_text() or "" for p in pdf.pages[:2])
    for word in ("The Fool", "The Magician", "Upright", "On reveal", "Move this card one space"):  # not the turned half
        assert word in fronts
    assert not japanese(fronts.replace("ARCANDUCTOR", ""))
    with pdfplumber.open(tmp_path / "arcanductor-en-components.pdf") as pdf:
        pieces = pdf.pages[0].extract_text() or ""
    assert pieces.count("Start at 20. At 0 you lose.") == 2 and "Power" in pieces and not japanese(pieces)
