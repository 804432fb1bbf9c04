"""Via Magica: the schema, the example cards, the material.json importer, the formats, the PDF.

Example cards are ours (cards/via-magica/); the importer fixture
tests/fixtures/via-magica/material.json is hand-written in the shape of the
BGA material (made-up portals). The acceptance test at the end imports
../shared/data/via-magica/material.json.
"""

from __future__ import annotations

import pdfplumber
import pytest
from helpers import MM, REPO, assert_verdict, build_examples, card_boxes, check_deck, load_game, validate, write_cards

from printer.cards.catalog import load_cards
from printer.games.via_magica.importer import import_via_magica
from printer.project import load_project

EXAMPLES = REPO / "cards" / "via-magica"
FIXTURE = REPO / "tests" / "fixtures" / "via-magica" / "material.json"
KIND_COLOURS = {
    "yellow": (0.984, 0.914, 0.651),
    "green": (0.804, 0.922, 0.788),
    "blue": (0.788, 0.871, 0.961),
    "purple": (0.886, 0.827, 0.933),
}  # the effect bands of card.css

PORTAL = {
    "id": "p1",
    "title": "Test Portal",
    "type": "Portal",
    "design": 1,
    "copies": 2,
    "color": "yellow",
    "animus": ["air", "fire", "shadow"],
    "score": 3,
    "effect": {"place": "fire", "count": 2},
}


# --- schema and examples ----------------------------------------------------------------------------


@pytest.fixture(scope="module")
def examples():
    return load_game("via-magica", EXAMPLES)


def test_the_examples_cover_every_card_kind(examples):
    cards = list(examples)
    assert {c.type for c in cards} == {"Portal", "Bonus", "Summary", "Animus", "Crystal"}
    portals = [c for c in cards if c.type == "Portal"]
    assert {c["color"] for c in portals} == {"yellow", "green", "blue", "purple"}
    assert all(c.copies == 2 for c in portals)
    assert {len(c["animus"]) for c in portals} >= {2, 3, 4, 5, 6}
    assert {c["goal"] for c in cards if c.type == "Bonus"} == {"portal-color", "portal-count"}
    # an effect that prints the card's text, so that it is translated with the card (cards/via-magica/ja/)
    assert any(c.get("effect", {}).get("card_text") and c.get("text") for c in portals)


def test_the_examples_print_the_stones_the_summary_card_puts_in_the_bag(examples):
    """A game is played from the printout: the bag holds 23 Animus stones (Via Magica rulebook, Japanese edition,
    components), the summary card counts them by spirit, and every spirit a portal asks for can be drawn."""
    cards = list(examples)
    stones = {c["animus"]: c.get("stones", 1) for c in cards if c.type == "Animus"}
    (summary,) = [c for c in cards if c.type == "Summary"]
    assert stones == summary["bag"] and sum(stones.values()) == 23
    assert {spirit for c in cards if c.type == "Portal" for spirit in c["animus"]} <= set(stones)


def test_a_portal_is_valid(tmp_path):
    cards, problems = validate(tmp_path, "via-magica", PORTAL)
    assert problems == [] and cards[0].copies == 2


@pytest.mark.parametrize(
    "change, where, words",
    [
        ({"color": "purple"}, ".effect", "no effect"),
        ({"color": "green"}, ".effect", "one of: score_per_portal, score_per_animus"),
        ({"effect": {"wild": "air"}}, ".effect", "one of: place, count, add_crystals"),
        ({"color": "blue", "effect": {"add_crystals": 2}}, ".effect", "one of: wild, text"),
        ({"animus": ["air"]}, ".animus", ""),
        ({"animus": ["air"] * 7}, ".animus", ""),
        ({"animus": ["air", "wild"]}, ".animus[1]", "one of: air, water"),
        ({"color": "all"}, ".color", ""),
        ({"effect": {"place": "fire"}}, ".effect", "count"),
        ({"score": None}, "", "missing required field 'score'"),
    ],
)
def test_schema_errors_are_located_with_hints(tmp_path, change, where, words):
    card = {k: v for k, v in {**PORTAL, **change}.items() if v is not None}
    _, problems = validate(tmp_path, "via-magica", card)
    assert any(str(p.where).endswith("$.cards[0]" + where) and words in f"{p.message} {p.hint}" for p in problems), [
        str(p) for p in problems
    ]


def test_bonus_summary_and_animus_cards(tmp_path):
    good = [
        {"id": "b1", "title": "B", "type": "Bonus", "goal": "portal-color", "color": "all", "points": 8},
        {"id": "b2", "title": "C", "type": "Bonus", "goal": "portal-count", "portals": 3, "points": 4},
        {"id": "s", "title": "S", "type": "Summary", "bag": {"air": 6, "wild": 2}},
        {"id": "t", "title": "T", "type": "Animus", "animus": "wild", "stones": 2},
    ]
    cards, problems = validate(tmp_path, "via-magica", *good)
    assert problems == [] and len(cards) == 4
    _, problems = validate(
        tmp_path,
        "via-magica",
        {"id": "b", "title": "B", "type": "Bonus", "goal": "portal-count", "points": 2},
        {"id": "t", "title": "T", "type": "Animus", "animus": "wind", "stones": 7},
    )
    messages = {str(p.where).split("::")[1]: p.message for p in problems}
    assert "missing required field 'portals'" in messages["$.cards[0]"]
    assert "$.cards[1].animus" in messages and "$.cards[1].stones" in messages


# --- the importer -------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def imported():
    return import_via_magica([FIXTURE])


@pytest.fixture(scope="module")
def by_id(imported):
    return {c["id"]: c for c in imported.cards}


def test_each_design_is_one_card_printed_twice(imported, by_id):
    portals = [c for c in imported.cards if c["type"] == "Portal"]
    assert len(portals) == 12 and all(c["copies"] == 2 for c in portals)
    assert by_id["portal-10"] == {
        "id": "portal-10",
        "title": "Portal 10",
        "type": "Portal",
        "design": 10,
        "copies": 2,
        "color": "purple",
        "animus": ["air", "air", "water", "earth", "life", "shadow"],
        "score": 9,
    }


def test_effects_are_structured_by_type(by_id):
    effects = {n: by_id[f"portal-{n:02d}"].get("effect") for n in range(1, 12)}
    assert effects[1] == {"score_per_portal": "purple", "points": 2}
    assert effects[2] == {"score_per_animus": "fire", "points": 3}
    assert effects[3] == {"place": "water", "count": 2}
    assert effects[4] == {"place": "any", "count": 1}
    assert effects[5] == {"open_another": True}
    assert effects[6] == {"extra_portal": True}
    assert effects[7] == {"add_crystals": 3}
    assert effects[8] == {"rearrange": True}
    assert effects[9] == {"wild": "fire"}
    assert effects[10] is None
    assert effects[11] == {"text": "Sing a song"}


def test_bonus_cards_and_animus_stones(imported, by_id):
    assert by_id["bonus-blue"] == {
        "id": "bonus-blue",
        "title": "Three blue portals",
        "type": "Bonus",
        "color": "blue",
        "goal": "portal-color",
        "portals": 3,
        "points": 9,
    }
    assert by_id["bonus-all"]["color"] == "all" and "portals" not in by_id["bonus-all"]
    assert by_id["bonus-4-portals"]["goal"] == "portal-count" and by_id["bonus-4-portals"]["portals"] == 4
    stones = {c["animus"]: c["stones"] for c in imported.cards if c["type"] == "Animus"}
    assert stones == {"air": 6, "water": 5, "earth": 4, "life": 3, "fire": 2, "shadow": 1, "wild": 2}


def test_problems_are_located(imported):
    errors = {str(p.where).split("::")[1]: p.message for p in imported.problems if p.is_error}
    assert set(errors) == {'$.port_cards["23"].card_bonus', '$.port_cards["25"].card_color'}
    warnings = [p for p in imported.problems if not p.is_error]
    assert any('port_cards["4"]' in str(p.where) and "differs" in p.message for p in warnings)
    assert any(p.code == "unmapped" and 'port_cards["21"]' in str(p.where) for p in warnings)
    skipped = [p for p in warnings if p.code == "not-imported" and "'port_cards.card_effect_str'" in p.message]
    assert len(skipped) == 1 and "(26 entries)" in skipped[0].message


def test_import_command_writes_files_that_validate(tmp_path, run_cli):
    code, out, err = run_cli("import", "via-magica", FIXTURE, "--out", tmp_path / "out")
    assert code == 1  # two bad portals in the fixture: reported, the rest written
    assert "24 portals (12 designs), 4 Bonus cards and 23 Animus stones imported" in out
    assert "with the summary card and 48 crystals" in out  # the rulebook's pieces, not in the material
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == [
        "animus.json",
        "bonus.json",
        "crystals.json",
        "portals.json",
        "summary.json",
    ]
    code, out, err = run_cli("validate", tmp_path / "out", "--game", "via-magica")
    assert code == 0, err
    code, out, err = run_cli("import", "via-magica", FIXTURE, "--out", tmp_path / "out", "--dry-run")
    assert "unchanged" in out


# --- formats --------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def deck_cards(tmp_path_factory):
    cards = [dict(PORTAL, id=f"p{n}", title=f"Portal {n}", design=n) for n in range(1, 41)]
    cards += [
        {"id": "b1", "title": "Two portals", "type": "Bonus", "goal": "portal-count", "portals": 2, "points": 2},
        {"id": "b2", "title": "Three portals", "type": "Bonus", "goal": "portal-count", "portals": 3, "points": 4},
        {
            "id": "b3",
            "title": "Three yellow",
            "type": "Bonus",
            "goal": "portal-color",
            "color": "yellow",
            "portals": 3,
            "points": 2,
        },
        {"id": "b4", "title": "Every colour", "type": "Bonus", "goal": "portal-color", "color": "all", "points": 8},
    ]
    folder = tmp_path_factory.mktemp("vm-cards")
    write_cards(folder / "cards.json", "via-magica", cards)
    return load_game("via-magica", folder)


FULL = "# Portals\n" + "".join(f"2 Portal {n}\n" for n in range(1, 41))
DECK_CASES = [
    ("40 designs twice", FULL, "legal", []),
    (
        "one design once",
        FULL.replace("2 Portal 7\n", "1 Portal 7\n"),
        "illegal",
        ["section-size", "via-magica-two-of-each"],
    ),
    (
        "one design once, another three times",
        FULL.replace("2 Portal 7\n", "1 Portal 7\n").replace("2 Portal 8\n", "3 Portal 8\n"),
        "illegal",
        ["copy-limit", "via-magica-two-of-each"],
    ),
    ("a Bonus card in the deck", FULL + "1 Two portals\n", "illegal", ["no-section"]),
]


@pytest.mark.parametrize("what, text, status, rules", DECK_CASES, ids=[c[0] for c in DECK_CASES])
def test_portal_deck_format(tmp_path, deck_cards, what, text, status, rules):
    assert_verdict(check_deck(tmp_path, text, deck_cards, "via-magica-portal-deck"), status, rules)


SETUP = "# Kept\n1 Portal 3\n1 Portal 9\n1 Portal 21\n"
SETUP_CASES = [
    ("three different portals", SETUP, "legal", []),
    ("two copies of one portal", SETUP.replace("Portal 21", "Portal 9"), "illegal", ["copy-limit"]),
    ("four portals", SETUP + "1 Portal 30\n", "illegal", ["section-size"]),
]


@pytest.mark.parametrize("what, text, status, rules", SETUP_CASES, ids=[c[0] for c in SETUP_CASES])
def test_setup_format(tmp_path, deck_cards, what, text, status, rules):
    assert_verdict(check_deck(tmp_path, text, deck_cards, "via-magica-setup"), status, rules)


PLAYER = (
    "# Crystallization:\n1 Portal 1\n1 Portal 2\n1 Portal 3\n# Opened\n1 Portal 4\n1 Portal 5\n"
    "# Rewards\n1 Two portals\n1 Three yellow\n1 Every colour\n"
)
PLAYER_CASES = [
    ("portals and rewards", PLAYER, "legal", []),
    (
        "an opened portal also being crystallised",
        PLAYER.replace("1 Portal 5\n", "1 Portal 2\n"),
        "illegal",
        ["copy-limit"],
    ),
    ("two portal-count rewards", PLAYER + "1 Three portals\n", "illegal", ["via-magica-one-count-bonus"]),
    (
        "fourteen portals",
        PLAYER + "# Opened\n" + "".join(f"1 Portal {n}\n" for n in range(10, 19)),
        "illegal",
        ["section-size"],
    ),
]


@pytest.mark.parametrize("what, text, status, rules", PLAYER_CASES, ids=[c[0] for c in PLAYER_CASES])
def test_player_format(tmp_path, deck_cards, what, text, status, rules):
    assert_verdict(check_deck(tmp_path, text, deck_cards, "via-magica-player"), status, rules)


# --- the PDF ------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    return build_examples(tmp_path_factory, "via-magica")


@pytest.mark.slow
def test_cards_are_64x80mm_three_by_three(built):
    with pdfplumber.open(built) as pdf:
        # 30 faces: 24 cards and a summary for each of the 6 players (players = 6; the Animus stones and crystals
        # print as tokens beside them): 4 sheets, fronts and backs
        assert len(pdf.pages) == 8
        for page in pdf.pages[2:4]:
            boxes = card_boxes(page, 64, 80, tolerance_pt=0.3)
            assert len(boxes) == 9
            assert sorted({x for x, _ in boxes}) == pytest.approx([9, 73, 137], abs=0.2)


@pytest.mark.slow
def test_effect_bands_take_the_colour_of_their_kind(built):
    found = set()
    with pdfplumber.open(built) as pdf:
        for page in pdf.pages[::2]:
            for r in page.rects:
                colour = r.get("non_stroking_color")
                if abs(r["height"] - 21 * MM) < 0.5 and abs(r["width"] - 60 * MM) < 0.5 and colour and len(colour) == 3:
                    for kind, rgb in KIND_COLOURS.items():
                        if all(abs(a - b) < 0.01 for a, b in zip(colour, rgb)):
                            found.add(kind)
    assert found == {"yellow", "green", "blue", "purple"}


@pytest.mark.slow
def test_animus_stones_print_as_round_tokens(built):
    """printer.toml declares the Animus stones round 25 mm tokens: each stone once (its stones field), a circle cut."""
    with pdfplumber.open(built.parent / "via-magica-components.pdf") as pdf:
        fronts = pdf.pages[::2]
        circles = [c for page in fronts for c in page.curves if abs(c["width"] - 25 * MM) < 0.3 and c.get("stroke")]
        fills = [box for page in fronts for box in card_boxes(page, 25, 25, tolerance_pt=0.3)]
        with pdfplumber.open(built) as cards:
            assert all("Air" not in (p.extract_text() or "") for p in cards.pages)
    assert len(circles) == len(fills) == 23  # the summary card's bag, each token cut along a 25 mm circle


@pytest.mark.slow
def test_the_48_crystals_print_as_small_round_tokens(built):
    """cards/via-magica/crystals.json: one Crystal with count 48, printed as 48 round 14 mm tokens with circle cuts."""
    with pdfplumber.open(built.parent / "via-magica-components.pdf") as pdf:
        circles = [
            c
            for page in pdf.pages[::2]
            for c in page.curves
            if abs(c["width"] - 14 * MM) < 0.3 and c.get("stroke") and not c.get("fill")
        ]
    assert len(circles) == 48


# --- acceptance on the real data ------------------------------------------------------------------------


@pytest.mark.shared
def test_the_real_material_imports_validates_and_prints(shared_data, tmp_path, run_cli):
    out = tmp_path / "vm"
    code, stdout, err = run_cli("import", "via-magica", shared_data / "via-magica" / "material.json", "--out", out)
    assert code == 0, err
    assert "80 portals (40 designs), 10 Bonus cards and 23 Animus stones imported, with the summary" in stdout
    code, stdout, err = run_cli("validate", out, "--game", "via-magica")
    assert code == 0 and "59 valid cards" in stdout, err  # and the summary card and the crystal
    sets, _ = load_cards(load_project(REPO), [out])
    cards = list(sets["via-magica"])
    bonus = [c for c in cards if c.type == "Bonus"]
    assert sorted(c["goal"] for c in bonus) == ["portal-color"] * 5 + ["portal-count"] * 5
    full = "".join(f"2 {c.title}\n" for c in cards if c.type == "Portal")
    assert_verdict(check_deck(tmp_path, full, sets["via-magica"], "via-magica-portal-deck"), "legal")
    code, stdout, err = run_cli("build", "via-magica", "--cards", out, "--no-aids", "--out", tmp_path / "pdf")
    assert code == 0, err
    assert "23 animus-stones, 48 crystals" in stdout  # the crystals print from an import too
    with pdfplumber.open(tmp_path / "pdf" / "via-magica.pdf") as pdf:
        # 80 portals + 10 Bonus + a summary for each of 6 players = 96: 11 sheets, fronts and backs (Animus: tokens)
        assert len(pdf.pages) == 22
        assert sum("Summary" in (p.extract_text() or "") for p in pdf.pages) >= 1
