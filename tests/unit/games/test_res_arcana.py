"""Res Arcana: the schema, the example components, the importer, the setup formats, the PDF.

Example components are ours (cards/res-arcana/); the importer fixtures in
tests/fixtures/res-arcana/ are hand-written in the shape of the real files
(made-up components). Format fixtures use the names of real components and
Mages, which are game facts (seed 000 names the first-game sets). The
acceptance tests at the end import ../shared/data/res-arcana/.
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
)

from printer.cards.catalog import load_cards
from printer.decks import check_file, load_format
from printer.games.res_arcana.importer import convert_file, import_res_arcana, slug
from printer.games.res_arcana.places import pair_places
from printer.project import load_project

EXAMPLES = REPO / "cards" / "res-arcana"
FIXTURES = REPO / "tests" / "fixtures" / "res-arcana"
SHARED = REPO.parent / "shared" / "data" / "res-arcana"

ARTIFACT = {
    "id": "a1",
    "title": "Test Cup",
    "type": "Artifact",
    "cost": {"life": 1, "any": 2},
    "collect": [{"one_of": [{"life": 1}, {"death": 1}]}],
    "powers": [{"cost": {"tap": True, "calm": 1}, "effect": {"gain": {"any": 3, "except": ["gold", "death"]}}}],
}


# --- schema and examples ----------------------------------------------------------------------------


@pytest.fixture(scope="module")
def examples():
    return load_game("res-arcana", EXAMPLES)


def test_the_examples_cover_every_type_kind_and_ability(examples):
    cards = list(examples)
    assert {c.type for c in cards} == {
        "Artifact",
        "Mage",
        "Monument",
        "Place of Power",
        "Magic Item",
        "Essence",
        "First Player",
    }
    assert {c.get("kind") for c in cards} >= {"Dragon", "Creature", "Demon"}
    collects = [c for card in cards for c in card.get("collect", [])]
    assert any("one_of" in c for c in collects) and any(len([k for k in c if k != "except"]) > 1 for c in collects)
    assert {tuple(sorted(c["except"])) for c in collects if "except" in c} >= {("gold",), ("death", "gold")}
    powers = [p for card in cards for p in card.get("powers", [])]
    assert any(p.get("reaction") for p in powers) and any(p.get("cost", {}).get("discard") for p in powers)
    assert any(p.get("cost", {}).get("destroy") for p in powers) and any(
        p.get("cost", {}).get("tap_other") for p in powers
    )
    assert any(c.get("vp_per_essence") for c in cards) and any(c.get("discounts") for c in cards)
    # a row that prints the card's text, so that it is translated with the card (cards/res-arcana/ja/)
    assert any(c.get("card_text") for c in collects) and any(p["effect"].get("card_text") for p in powers)


def test_each_place_of_power_names_its_other_side(examples):
    places = {c.id: c for c in examples if c.type == "Place of Power"}
    fronts = [c for c in places.values() if c.get("back_card")]
    assert len(fronts) == 2
    for card in fronts:
        other = places[card["back_card"]]
        assert other.title != card.title and "back_card" not in other  # one side names the other, not both


def test_a_full_artifact_is_valid(tmp_path):
    cards, problems = validate(tmp_path, "res-arcana", ARTIFACT)
    assert problems == [] and len(cards) == 1


@pytest.mark.parametrize(
    "change, where, words",
    [
        ({"type": "Monument", "cost": {"gold": 3}}, ".cost", "should be"),
        ({"type": "Mage"}, ".cost", "have no cost"),
        ({"cost": {"lfe": 1}}, ".cost.lfe", "unknown field 'lfe'"),
        ({"kind": "Dragon", "type": "Magic Item", "cost": None}, ".kind", "Only Artifacts"),
        ({"cost": {"any": "lots"}}, ".cost.any", ""),
        ({"collect": [{"one_of": [{"life": 1}]}]}, ".collect[0]", ""),
        ({"powers": [{"cost": {"tap": True}, "effect": {}}]}, ".powers[0].effect", ""),
        ({"powers": [{"cost": {"destroy": "everything"}, "effect": {"draw": 1}}]}, ".powers[0].cost.destroy", ""),
    ],
)
def test_schema_errors_are_located_with_hints(tmp_path, change, where, words):
    card = {k: v for k, v in {**ARTIFACT, **change}.items() if v is not None}
    _, problems = validate(tmp_path, "res-arcana", card)
    assert problems, change
    assert any(str(p.where).endswith("$.cards[0]" + where) and words in f"{p.message} {p.hint}" for p in problems), [
        str(p) for p in problems
    ]


def test_an_artifact_needs_a_cost_and_a_monument_may_leave_it_out(tmp_path):
    _, problems = validate(tmp_path, "res-arcana", {k: v for k, v in ARTIFACT.items() if k != "cost"})
    assert any("missing required field 'cost'" in p.message for p in problems)
    cards, problems = validate(tmp_path, "res-arcana", {"id": "m", "title": "M", "type": "Monument", "vp": 2})
    assert problems == [] and cards


# --- the importer -------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def imported():
    return import_res_arcana(sorted(FIXTURES.glob("*.json")))


@pytest.fixture(scope="module")
def by_id(imported):
    return {c["id"]: c for c in imported.cards}


def test_ids_are_slugs_of_the_source_ids():
    assert slug("RA_A_DRAGON_TEETH") == "dragon-teeth"
    assert slug("Dragon\u2019s Lair") == "dragons-lair"


def test_every_type_goes_to_its_own_file(imported):
    files = imported.by_file()
    assert {name: len(cards) for name, cards in files.items()} == {
        "artifacts.json": 6,
        "mages.json": 2,
        "monuments.json": 2,
        "places-of-power.json": 1,
        "magic-items.json": 2,
        "essences.json": 5,
        "first-player.json": 1,
    }


def test_costs_collects_and_kinds(by_id):
    assert by_id["test-lantern"]["cost"] == {"elan": 1, "gold": 1}
    assert by_id["test-lantern"]["collect"] == [{"elan": 1, "death": 1}]
    otter = by_id["test-otter"]
    assert otter["kind"] == "Creature" and otter["cost"] == {"life": 1, "any": 2}
    assert otter["collect"] == [{"one_of": [{"life": 1}, {"calm": 1}]}]
    assert by_id["test-bellows"]["collect"] == [{"any": 2, "except": ["death", "gold"]}]
    assert by_id["test-prism"]["cost"] == {}  # free: prints 0
    assert by_id["test-wyrm"]["kind"] == "Dragon" and by_id["test-wyrm"]["vp"] == 1


def test_powers_become_cost_and_effect(by_id):
    wyrm = by_id["test-wyrm"]["powers"]
    assert wyrm == [
        {"cost": {"tap": True}, "effect": {"attack": 2}},
        {"reaction": True, "cost": {"discard": 1}, "effect": {"ignore_attack": True}},
    ]
    prism = by_id["test-prism"]["powers"]
    assert prism[0] == {"cost": {"tap": True, "any": "X"}, "effect": {"gain": {"any": "X", "except": ["gold"]}}}
    assert prism[1]["cost"] == {"tap": True, "destroy": ["self", "artifact"]}
    assert prism[1]["effect"]["text"].startswith("Its cost + {any}{no-gold}")
    saddle = by_id["test-saddle"]
    assert saddle["powers"][0] == {
        "cost": {"tap": True, "tap_other": "Dragon"},
        "effect": {"place": {"gold": 1}, "rivals_gain": {"calm": 1}},
    }
    assert saddle["discounts"] == [{"for": "Dragon", "any": 2}]
    assert by_id["test-tinker"]["discounts"] == [{"for": "Artifact", "any": 1, "except": ["gold"]}]
    assert by_id["test-bellows"]["powers"][0]["effect"] == {"place": {"any": 2, "except": ["life", "calm", "gold"]}}
    assert by_id["test-ward"]["powers"][0]["effect"] == {"ignore_attack": "Dragon"}
    assert by_id["test-sage"]["powers"][0]["effect"] == {"draw": 1}


def test_places_monuments_and_text_effects(by_id):
    marsh = by_id["test-marsh"]
    assert marsh["type"] == "Place of Power" and marsh["cost"] == {"life": 6, "death": 2}
    assert marsh["vp"] == 1 and marsh["vp_per_essence"] == {"essence": "death", "vp": 1}
    assert marsh["collect"] == [{"text": "Pay {death}, else {tap}"}]
    assert by_id["test-spire"]["cost"] == {"gold": 4} and "When placed" in by_id["test-spire"]["text"]
    assert "cost" not in by_id["test-cheap"]  # a wrong Monument cost is an error; the card prints 4 Gold
    assert by_id["test-bellows"]["notes"] == "A test note."


def test_problems_are_located_and_fields_not_imported_are_counted(imported):
    def find(code, text=""):
        return [p for p in imported.problems if p.code == code and text in p.message]

    errors = [p for p in imported.problems if p.is_error]
    assert sorted(str(p.where).split("::")[1] for p in errors) == [
        "$.cards[1].placement_cost",
        "$.cards[6].name_en",
        "$.cards[7].type",
    ]
    assert str(find("unmapped", "'summon_storm'")[0].where).endswith("$.cards[5].powers[1].effect[0].summon_storm")
    assert find("missing-other-side", "Test Marsh")
    name_de = find("not-imported", "'name_de'")
    assert len(name_de) == 1 and "(13 components)" in name_de[0].message


def test_the_imported_fixtures_validate(tmp_path, run_cli):
    code, out, err = run_cli("import", "res-arcana", FIXTURES, "--out", tmp_path / "out")
    assert code == 1  # three components in the fixtures are bad: they are reported, the others written
    assert (
        "13 components imported (Artifact 6, Mage 2, Monument 2, Place of Power 1, Magic Item 2); "
        "added the essence and First Player tokens"
    ) in out
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == [
        "artifacts.json",
        "essences.json",
        "first-player.json",
        "mages.json",
        "magic-items.json",
        "monuments.json",
        "places-of-power.json",
    ]
    code, out, err = run_cli("validate", tmp_path / "out", "--game", "res-arcana")
    assert code == 0, err
    code, out, err = run_cli("import", "res-arcana", FIXTURES, "--out", tmp_path / "out")
    assert "unchanged" in out and code == 1
    (tmp_path / "out" / "mages.json").write_text("{}", encoding="utf-8")
    code, out, err = run_cli("import", "res-arcana", FIXTURES, "--out", tmp_path / "out")
    assert code == 2 and "--force" in err


def place(title: str, **more) -> dict:
    return {"id": slug(title), "title": title, "type": "Place of Power", "cost": {"death": 9}, **more}


def test_a_place_of_power_gets_its_other_side_from_the_base_game_tiles():
    """The data set holds one side of each tile: the other side is added (printer's fields, a note saying so) and
    named in back_card, so the tile prints both sides; a side already in the data is paired, not added again."""
    cards = [place("Dragon\u2019s Lair"), place("Coral Castle"), place("Sunken Reef"), place("Test Marsh")]
    added, missing = pair_places(cards)
    assert [c["id"] for c in added] == ["sorcerers-bestiary"]
    bestiary = added[0]
    assert bestiary["side"] == "B" and bestiary["cost"] == {"elan": 2, "life": 4, "calm": 2, "death": 2}
    assert "not in the imported data" in bestiary["notes"]
    assert (cards[0]["back_card"], cards[0]["side"]) == ("sorcerers-bestiary", "A")
    assert cards[1]["back_card"] == "sunken-reef" and cards[2]["side"] == "B" and "back_card" not in cards[2]
    assert [c["title"] for c in missing] == ["Test Marsh"]  # not a base-game tile: still reported


def test_collect_effects_known_only_by_id_print_as_words(tmp_path):
    """Vault's and Windup Man's collect abilities are ids in the source (``vault_collect_choice``); they print as
    our words with icons, never as the id, and are not reported as unmapped."""
    component = {
        "id": "RA_A_TEST_SAFE",
        "type": "artifact",
        "name_en": "Test Safe",
        "placement_cost": {"essence": {"gold": 1}, "wild": 1},
        "collect": [{"timing": "collect_phase", "if": None, "effect": [{"vault_collect_choice": True}]}],
    }
    cards, problems = convert_file({"cards": [component]}, "x.json")
    text = cards[0][1]["collect"][0]["text"]
    assert "vault" not in text and "_" not in text and "{gold}" in text and "{any:2}{no-gold}" in text
    assert not [p for p in problems if p.code == "unmapped"]


def test_a_file_that_is_not_component_data_is_an_error(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text("[1, 2]", encoding="utf-8")
    broken = tmp_path / "broken.json"
    broken.write_text('{"cards": [', encoding="utf-8")
    result = import_res_arcana([bad, broken])
    assert result.cards == []
    assert [p.where for p in result.problems if p.is_error] == [f"{bad}::$", f"{broken}:1:12"]


# --- formats --------------------------------------------------------------------------------------------

SETS = {
    "Duelist": ["Dragon Teeth", "Elemental Spring", "Hand of Glory"],
    "Seer": ["Vault", "Chalice of Life", "Flaming Pit"],
    "Alchemist": ["Magical Shard", "Tree of Life", "Celestial Horse"],
    "Transmuter": ["Dancing Sword", "Fountain of Youth", "Hawk"],
}
OTHERS = ["Prism", "Crypt", "Athanor", "Treant", "Guard Dog", "Mermaid"]


@pytest.fixture(scope="module")
def format_cards(tmp_path_factory):
    """Cards named like the real components (names only), to check setups against."""
    cards = [{"id": slug(n), "title": n, "type": "Mage"} for n in [*SETS, "Druid", "Witch"]]
    cards += [{"id": slug(n), "title": n, "type": "Artifact", "cost": {}} for names in SETS.values() for n in names]
    cards += [{"id": slug(n), "title": n, "type": "Artifact", "cost": {}} for n in OTHERS]
    cards += [{"id": "obelisk", "title": "Obelisk", "type": "Monument"}]
    folder = tmp_path_factory.mktemp("ra-cards")
    write_cards(folder / "cards.json", "res-arcana", cards)
    return load_game("res-arcana", folder)


EIGHT = SETS["Duelist"] + OTHERS[:5]
SETUP = "# Kept\n1 Seer\n# Dealt\n1 Druid\n# Artifacts\n" + card_lines(EIGHT)
SETUP_CASES = [
    ("2 Mages, 1 kept, 8 Artifacts", SETUP, "legal", []),
    ("1 Mage", SETUP.replace("# Dealt\n1 Druid\n", ""), "illegal", ["section-size"]),
    ("3 Mages", SETUP.replace("1 Druid\n", "1 Druid\n1 Witch\n"), "illegal", ["section-size"]),
    ("7 Artifacts", SETUP.replace("1 Prism\n", ""), "illegal", ["section-size"]),
    (
        "an Artifact twice",
        SETUP.replace("1 Prism\n", "1 Hawk\n").replace("1 Crypt\n", "1 Hawk\n"),
        "illegal",
        ["copy-limit"],
    ),
    ("no kept Mage", SETUP.replace("# Kept\n", ""), "illegal", ["res-arcana-kept-mage"]),
    ("both Mages kept", SETUP.replace("# Dealt\n", ""), "illegal", ["res-arcana-kept-mage"]),
    ("a Monument", SETUP + "1 Obelisk\n", "illegal", ["no-section"]),
]


@pytest.mark.parametrize("what, text, status, rules", SETUP_CASES, ids=[c[0] for c in SETUP_CASES])
def test_setup_format(tmp_path, format_cards, what, text, status, rules):
    assert_verdict(check_deck(tmp_path, text, format_cards, "res-arcana-setup"), status, rules)


DRAFT = (
    "# Kept\n1 Seer\n# Dealt\n1 Druid\n# First draft:\n"
    + card_lines(EIGHT[:4])
    + "# Second draft:\n"
    + card_lines(EIGHT[4:])
)
DRAFT_CASES = [
    ("4 + 4 picks", DRAFT, "legal", []),
    (
        "5 + 3 picks",
        DRAFT.replace("# Second draft:\n", "").replace(
            card_lines(EIGHT[4:]), card_lines(EIGHT[4:5]) + "# Second draft:\n" + card_lines(EIGHT[5:])
        ),
        "illegal",
        ["res-arcana-draft-rounds"],
    ),
    (
        "picks under no round",
        DRAFT.replace("# First draft:\n", "# Artifacts\n"),
        "illegal",
        ["res-arcana-draft-rounds"],
    ),
    ("the same card picked twice", DRAFT.replace("1 Prism\n", "1 Crypt\n"), "illegal", ["copy-limit"]),
    ("no kept Mage", DRAFT.replace("# Kept\n", ""), "illegal", ["res-arcana-kept-mage"]),
]


@pytest.mark.parametrize("what, text, status, rules", DRAFT_CASES, ids=[c[0] for c in DRAFT_CASES])
def test_draft_format(tmp_path, format_cards, what, text, status, rules):
    assert_verdict(check_deck(tmp_path, text, format_cards, "res-arcana-draft"), status, rules)


@pytest.mark.parametrize("mage", list(SETS))
def test_each_first_game_set_is_legal(tmp_path, format_cards, mage):
    others = [n for n in OTHERS if n not in SETS[mage]][:5]
    text = f"# Mage\n1 {mage}\n# Artifacts\n" + card_lines(SETS[mage] + others)
    assert_verdict(check_deck(tmp_path, text, format_cards, "res-arcana-first-game"), "legal")


FIRST = "# Mage\n1 Seer\n# Artifacts\n" + card_lines(SETS["Seer"] + OTHERS[:5])
FIRST_CASES = [
    ("a set Artifact missing", FIRST.replace("1 Vault\n", "1 Mermaid\n"), "illegal", ["res-arcana-first-game"]),
    (
        "another set's Artifacts",
        FIRST.replace(card_lines(SETS["Seer"]), card_lines(SETS["Duelist"])),
        "illegal",
        ["res-arcana-first-game"],
    ),
    ("a Mage without a set", FIRST.replace("1 Seer\n", "1 Druid\n"), "illegal", ["res-arcana-first-game"]),
    ("two Mages", FIRST.replace("1 Seer\n", "1 Seer\n1 Duelist\n"), "illegal", ["section-size"]),
    ("9 Artifacts", FIRST + "1 Mermaid\n", "illegal", ["section-size"]),
]


@pytest.mark.parametrize("what, text, status, rules", FIRST_CASES, ids=[c[0] for c in FIRST_CASES])
def test_first_game_format(tmp_path, format_cards, what, text, status, rules):
    assert_verdict(check_deck(tmp_path, text, format_cards, "res-arcana-first-game"), status, rules)


def test_first_game_names_in_japanese_match_too(tmp_path):
    cards = [{"id": "m", "title": "シアー", "type": "Mage"}] + [
        {"id": f"a{i}", "title": n, "type": "Artifact", "cost": {}}
        for i, n in enumerate(["貯蔵庫", "生命の聖杯", "燃え盛る縦穴", "A", "B", "C", "D", "E"])
    ]
    sets, _ = load_cards(load_project(REPO), [write_cards(tmp_path / "ja" / "cards.json", "res-arcana", cards)])
    text = "# Mage\n1 シアー\n# Artifacts\n" + card_lines(c["title"] for c in cards[1:])
    assert_verdict(check_deck(tmp_path, text, sets["res-arcana"], "res-arcana-first-game"), "legal")


def test_deck_check_command(run_cli, tmp_path, format_cards):
    folder = next(iter(format_cards)).record.file.parent
    code, out, _ = run_cli(
        "deck", "check", write_deck(tmp_path, SETUP), "--format", "res-arcana-setup", "--cards", folder
    )
    assert code == 0 and "legal" in out
    code, out, err = run_cli(
        "deck",
        "check",
        write_deck(tmp_path, SETUP.replace("# Kept\n", "")),
        "--format",
        "res-arcana-setup",
        "--cards",
        folder,
    )
    assert code == 1 and "no kept Mage" in err


# --- the PDF ------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """The examples printed once (2 sheets of 63 x 88 mm cards, Monuments among them, each followed by its backs; the
    Places of Power and Magic Items print as 88 x 88 mm tiles in res-arcana-components.pdf beside it, with the
    essence tokens and the First Player token)."""
    return build_examples(tmp_path_factory, "res-arcana")


def card_at(x_mm: float, y_mm: float, page) -> tuple[float, float] | None:
    """The top-left (mm) of the 63 x 88 mm card rectangle holding the point."""
    return next(((x, y) for x, y in card_boxes(page, 63, 88) if x <= x_mm <= x + 63 and y <= y_mm <= y + 88), None)


def tile_at(x_mm: float, y_mm: float, page) -> tuple[float, float] | None:
    """The top-left (mm) of the 88 x 88 mm tile rectangle holding the point."""
    return next(((x, y) for x, y in card_boxes(page, 88, 88) if x <= x_mm <= x + 88 and y <= y_mm <= y + 88), None)


def find_word(pdf, text: str, pages) -> tuple[int, dict]:
    for i in pages:
        for word in pdf.pages[i].extract_words():
            if word["text"] == text:
                return i, word
    raise AssertionError(f"{text!r} not printed")


@pytest.mark.slow
def test_costs_and_powers_print_as_icons_not_words(built):
    with pdfplumber.open(built) as pdf:
        text = " ".join((pdf.pages[i].extract_text() or "") for i in range(0, len(pdf.pages), 2)).lower()
        assert len(pdf.pages) == 4
        page = pdf.pages[0]
        assert (page.width / MM, page.height / MM) == pytest.approx((210, 297), abs=0.5)
        assert len(page.curves) + len(page.rects) > 200  # the icons are vector drawings
    for word in ("elan", "calm", "death", "gold", "tap", "collect"):
        assert word not in text.split(), word


@pytest.mark.slow
def test_essences_print_as_round_tokens_as_many_as_their_count(built):
    """cards/res-arcana/essences.json: 10 Elan, Life, Calm and Death and 12 Gold, each a 20 mm round token (printer.toml
    components, copies_field count) with its circular cut line, none on the card sheets."""
    with pdfplumber.open(built.parent / "res-arcana-components.pdf") as pdf:
        circles = [
            curve
            for page in pdf.pages[::2]
            for curve in page.curves
            if curve.get("stroke") and not curve.get("fill") and abs((curve["x1"] - curve["x0"]) / MM - 20) < 0.1
        ]
    assert len(circles) == 52
    with pdfplumber.open(built) as pdf:
        assert "Essence" not in " ".join(page.extract_text() or "" for page in pdf.pages)


@pytest.mark.slow
def test_the_two_sides_of_a_place_of_power_lie_behind_each_other(built):
    """Ember Forge's back is Glass Reef, Dragon Hollow's is Bone Orchard: 88 x 88 mm tiles (printer.toml
    components) in res-arcana-components.pdf, mirrored for long-edge duplex."""
    with pdfplumber.open(built.parent / "res-arcana-components.pdf") as pdf:
        for front_title, back_title in (("Forge", "Reef"), ("Hollow", "Orchard")):
            i, word = find_word(pdf, front_title, range(0, len(pdf.pages), 2))
            front = tile_at(word["x0"] / MM, word["top"] / MM, pdf.pages[i])
            j, back_word = find_word(pdf, back_title, [i + 1])
            back = tile_at(back_word["x0"] / MM, back_word["top"] / MM, pdf.pages[j])
            assert front and back
            assert back[0] == pytest.approx(210 - front[0] - 88, abs=0.2) and back[1] == pytest.approx(
                front[1], abs=0.2
            )
            # the other side never prints as a front of its own
            with pytest.raises(AssertionError):
                find_word(pdf, back_title, range(0, len(pdf.pages), 2))
    with pdfplumber.open(built) as pdf:  # neither side is on the card sheets
        for title in ("Forge", "Reef"):
            with pytest.raises(AssertionError):
                find_word(pdf, title, range(len(pdf.pages)))


@pytest.mark.slow
def test_monuments_are_cards_with_the_monument_back(built):
    """Monuments are a deck of cards (shuffled, two face up; Res Arcana rulebook, Japanese edition, ゲームの準備): they
    print as 63 x 88 mm cards on the card sheets, each with the Monument back behind it, and are no tile."""
    with pdfplumber.open(built) as pdf:
        i, word = find_word(pdf, "Obelisk", range(0, len(pdf.pages), 2))
        front = card_at(word["x0"] / MM, word["top"] / MM, pdf.pages[i])
        assert front is not None
        backs = [w for w in pdf.pages[i + 1].extract_words() if w["text"] == "MONUMENT"]
        assert len(backs) == 2  # the two example Monuments
        behind = [card_at(w["x0"] / MM, w["top"] / MM, pdf.pages[i + 1]) for w in backs]
        assert (pytest.approx(210 - front[0] - 63, abs=0.2), pytest.approx(front[1], abs=0.2)) in behind
    with pdfplumber.open(built.parent / "res-arcana-components.pdf") as pdf:
        text = " ".join(page.extract_text() or "" for page in pdf.pages)
        assert "Obelisk" not in text and "MONUMENT" not in text.upper().split()


@pytest.mark.slow
def test_the_first_player_token_prints_round_on_both_sides(built):
    """cards/res-arcana/first-player.json: one 40 mm round token (printer.toml components.first-player) with its
    circular cut line; its other side carries the same title."""
    with pdfplumber.open(built.parent / "res-arcana-components.pdf") as pdf:
        fronts = [p for p in pdf.pages[::2] if "FIRST" in (p.extract_text() or "")]
        backs = [p for p in pdf.pages[1::2] if "FIRST" in (p.extract_text() or "")]
        assert len(fronts) == 1 and len(backs) == 1
        circles = [
            c
            for c in fronts[0].curves
            if c.get("stroke") and not c.get("fill") and abs((c["x1"] - c["x0"]) / MM - 40) < 0.1
        ]
        assert len(circles) == 1


# --- acceptance on the real data ------------------------------------------------------------------------


def printed_texts(value) -> list[str]:
    """Every ``text`` string in an imported card file (card text, collect and effect texts)."""
    if isinstance(value, dict):
        return [v for k, v in value.items() if k == "text" and isinstance(v, str)] + [
            t for k, v in value.items() if k != "notes" for t in printed_texts(v)
        ]
    if isinstance(value, list):
        return [t for v in value for t in printed_texts(v)]
    return []


@pytest.mark.shared
def test_the_real_components_import_validate_and_print(shared_data, tmp_path, run_cli):
    out = tmp_path / "ra"
    code, stdout, err = run_cli(
        "import", "res-arcana", *sorted((shared_data / "res-arcana").glob("*.json")), "--out", out
    )
    assert code == 0, err
    assert (
        "73 components imported (Artifact 40, Mage 10, Monument 10, Place of Power 5, Magic Item 8); "
        "added the other sides of 5 Places of Power and the essence and First Player tokens"
    ) in stdout
    assert "is not in the data" not in err and "has no printer form" not in err  # every side paired, every effect read
    texts = [text for file in out.glob("*.json") for text in printed_texts(json.loads(file.read_text("utf-8")))]
    assert len(texts) > 20
    for text in texts:  # effects print as words, never as a source id such as vault_collect_choice
        assert not re.search(r"[a-z]_[a-z]|vault collect|windup collect", text), text
    code, stdout, err = run_cli("validate", out, "--game", "res-arcana")
    assert code == 0 and "84 valid cards" in stdout, err
    code, stdout, err = run_cli("build", "res-arcana", "--cards", out, "--out", tmp_path / "pdf")
    assert code == 0, err
    with pdfplumber.open(tmp_path / "pdf" / "res-arcana.pdf") as pdf:
        # 60 cards (Artifacts, Mages, Monuments; the Places of Power and Magic Items are tiles), 9 a sheet: 7 sheets
        assert len(pdf.pages) == 14
        titles = " ".join(pdf.pages[i].extract_text() for i in range(0, 14, 2))
    with pdfplumber.open(tmp_path / "pdf" / "res-arcana-components.pdf") as pdf:
        assert len(card_boxes(pdf.pages[0], 88, 88)) >= 4  # 88 x 88 mm tiles
        titles += " ".join(pdf.pages[i].extract_text() for i in range(0, len(pdf.pages), 2))
        backs = " ".join(pdf.pages[i].extract_text() for i in range(1, len(pdf.pages), 2))
        circles = [
            round((c["x1"] - c["x0"]) / MM)
            for page in pdf.pages[::2]
            for c in page.curves
            if c.get("stroke") and not c.get("fill")
        ]
    assert "Catacombs of the Dead" in titles and "Sacrificial Pit" in backs  # both sides of each tile
    assert not re.search(r"\*\*|[a-z]_[a-z]", titles + backs)  # no markup or source id left in what prints
    for back in ("Alchemist's Tower", "Dwarven Mines", "Sunken Reef", "Sorcerer's Bestiary"):
        assert back in backs and back not in titles
    assert circles.count(20) == 52 and circles.count(40) == 1  # the essence tokens and the First Player token
    for title in ("Dragon Teeth", "Necromancer", "Great Pyramid", "Catacombs of the Dead", "Protection"):
        assert title in titles
    sets, _ = load_cards(load_project(REPO), [out])
    for mage, artifacts in SETS.items():
        others = [n for n in OTHERS if n not in artifacts][:5]
        report = check_file(
            write_deck(tmp_path, f"# Mage\n1 {mage}\n# Artifacts\n" + card_lines(artifacts + others)),
            sets["res-arcana"],
            load_format("res-arcana-first-game"),
        )
        assert report.status == "legal", (mage, [v.message for v in report.violations], report.unresolved)
