"""Resolving decklist names to cards the way players write them (fixture cards are invented)."""

from __future__ import annotations

from pathlib import Path

import pytest

from printer.cards.catalog import load_cards
from printer.decks import (
    AmbiguousCardError,
    Decklist,
    Entry,
    UnknownCardError,
    find_card,
    load_format,
    name_key,
    resolve,
)
from printer.project import load_project

REPO = Path(__file__).resolve().parents[3]
FIXTURES = REPO / "tests" / "fixtures" / "decks"


@pytest.fixture(scope="module")
def cards():
    sets, problems = load_cards(load_project(REPO), [FIXTURES / "cards"], "l5r")
    assert problems == []
    return sets["l5r"]


@pytest.fixture(scope="module")
def twins():
    sets, problems = load_cards(load_project(REPO), [FIXTURES / "cards-ambiguous"], "l5r")
    assert problems == []
    return sets["l5r"]


def deck_of(*names: str) -> Decklist:
    return Decklist(Path("deck.txt"), [Entry(1, n, None, i + 1) for i, n in enumerate(names)])


@pytest.mark.parametrize(
    "written, card_id",
    [
        ("Rice Terrace", "rice-terrace"),
        ("rice TERRACE", "rice-terrace"),  # case
        ("  Rice   Terrace ", "rice-terrace"),  # white space
        ("Salt &amp; Ash", "salt-and-ash"),  # HTML entity
        ("Kaze\u2019s Paper Fan", "kazes-paper-fan"),  # curly quote
        ("Kaze&#8217;s Paper Fan", "kazes-paper-fan"),  # entity of a curly quote
        ("Asahi Daisuke", "asahi-daisuke"),
        ("Asahi Daisuke \u2022 Experienced", "asahi-daisuke-exp"),
        ("Asahi Daisuke &#149; Experienced", "asahi-daisuke-exp"),
        ("Asahi Daisuke - exp", "asahi-daisuke-exp"),
        ("Asahi Daisuke \u2013 exp", "asahi-daisuke-exp"),
        ("Asahi Daisuke \u2022 Experienced 1", "asahi-daisuke-exp"),
        ("Asahi Daisuke - exp2", "asahi-daisuke-exp2"),
        ("Asahi Daisuke \u2022 Experienced2", "asahi-daisuke-exp2"),
        ("asahi daisuke &#149; experienced 2", "asahi-daisuke-exp2"),
        ("Asahi Daisuke - inexp", "asahi-daisuke"),  # level 0 is the plain card when no Inexperienced exists
        ("Rice Terrace (Ivory)", "rice-terrace"),  # edition tag
        ("Asahi Daisuke (basic)", "asahi-daisuke"),
    ],
)
def test_names_resolve(cards, written, card_id):
    resolution = resolve(deck_of(written), cards)
    assert resolution.problems == [] and resolution.notes == []
    assert resolution.entries[0].card.id == card_id
    assert find_card(written, cards).id == card_id


def test_experienced_levels_are_different_keys():
    assert (
        name_key("Akodo Kano - exp2")
        == name_key("Akodo Kano &#149; Experienced 2")
        == "akodo kano \u2022 experienced 2"
    )
    assert name_key("Akodo Kano") != name_key("Akodo Kano - exp") != name_key("Akodo Kano - exp2")
    assert name_key("Toturi \u2022 Experienced 2CW") == name_key("toturi - exp2cw")
    assert name_key("Border Keep - inexp") == "border keep \u2022 inexperienced"
    assert name_key("Gaining Experience") == "gaining experience"  # no separator: part of the title


def test_loose_names_resolve_with_a_warning(cards):
    resolution = resolve(deck_of("Hold the Line", "The Ink Courtier", "rice-terrace"), cards)
    assert [r.card.id for r in resolution.entries] == ["hold-the-line", "ink-courtier", "rice-terrace"]
    assert resolution.problems == []
    assert [(n.code, n.severity, n.where) for n in resolution.notes] == [
        ("loose-name", "warning", "deck.txt:1"),
        ("loose-name", "warning", "deck.txt:2"),
        ("loose-name", "warning", "deck.txt:3"),
    ]
    assert "'Hold the Line!'" in resolution.notes[0].message


def test_typo_is_unknown_with_suggestions(cards):
    resolution = resolve(deck_of("Sudden Rian"), cards)
    item, problem = resolution.entries[0], resolution.problems[0]
    assert item.card is None and item.suggestions[0] == "Sudden Rain"
    assert problem.code == "unknown-card" and problem.where == "deck.txt:1" and problem.is_error
    assert "'Sudden Rian'" in problem.message and "did you mean 'Sudden Rain'" in problem.hint


def test_missing_level_names_the_levels_that_exist(cards):
    problem = resolve(deck_of("Asahi Daisuke - exp3"), cards).problems[0]
    assert problem.code == "unknown-card"
    assert "Asahi Daisuke \u2022 Experienced 2" in problem.hint and "this title exists only as" in problem.hint


def test_name_far_from_everything(cards):
    problem = resolve(deck_of("Zzyzx Qwv"), cards).problems[0]
    assert "missing from the database" in problem.hint


def test_find_card_raises_unknown(cards):
    with pytest.raises(UnknownCardError) as info:
        find_card("Sudden Rian", cards)
    assert info.value.suggestions[0] == "Sudden Rain" and info.value.problems[0].code == "unknown-card"


def test_ambiguous_name_lists_the_candidates(twins):
    resolution = resolve(deck_of("Twin Blade"), twins)
    item, problem = resolution.entries[0], resolution.problems[0]
    assert item.card is None and sorted(c.id for c in item.candidates) == ["twin-blade-a", "twin-blade-b"]
    assert problem.code == "ambiguous-card" and "2 cards" in problem.message
    assert "twin-blade-a" in problem.hint and "twin-blade-b" in problem.hint
    with pytest.raises(AmbiguousCardError) as info:
        find_card("twin blade", twins)
    assert len(info.value.candidates) == 2


def test_ambiguity_settled_by_the_format(twins):
    fmt = load_format("l5r-ivory-extended")
    assert resolve(deck_of("Mirror Image"), twins).problems[0].code == "ambiguous-card"
    resolution = resolve(deck_of("Mirror Image", "Twin Blade"), twins, prefer=fmt.is_legal)
    assert resolution.entries[0].card.id == "mirror-image-ivory"  # the only candidate legal in the format
    assert [p.code for p in resolution.problems] == ["ambiguous-card"]  # both Twin Blades are legal


def test_remembered_names_follow_the_installed_games(monkeypatch):
    """split_name remembers names; a game installed later (its name variants) is seen at once."""
    import printer.decks.names as names
    from printer.plugins import NameVariant

    plain = names.split_name("Kitsu Suki - v2")
    assert plain.level in ("", "v2")

    def parse(text: str):
        return (text[:-5], "v2") if text.endswith(" - v2") else None

    variants = (NameVariant("variant", parse),)
    monkeypatch.setattr(names, "name_variants", lambda: variants)
    assert names.split_name("Kitsu Suki - v2") == names.NameParts("kitsu suki", "v2")
    assert names.loose_key("Kitsu Suki - v2") == "kitsusuki|v2"
