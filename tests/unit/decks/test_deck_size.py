"""Formats state the whole deck's size; decklist headers state their sections' sizes."""

from __future__ import annotations

import json


def _project(tmp_path, run, deck_size=None):
    root = tmp_path / "p"
    assert run("init", root).code == 0
    fmt = root / "schema/p/formats/standard.json"
    data = json.loads(fmt.read_text())
    if deck_size is not None:
        data["deck_size"] = deck_size
    fmt.write_text(json.dumps(data), encoding="utf-8")
    return root


def _check(run, root, text):
    deck = root / "decks/d.txt"
    deck.write_text(text, encoding="utf-8")
    return run("--project", root, "deck", "check", deck, "--format", "p-standard")


def test_a_deck_over_the_formats_deck_size_is_illegal(tmp_path, run):
    root = _project(tmp_path, run, {"min": 7, "max": 8})
    result = _check(run, root, "1 Dawn Runner\n1 Iron Lantern\n3 Navigator Osei\n2 Deckhand Pell\n2 Solar Flare\n")
    assert result.code == 1
    assert "the deck has 9 cards, 7 to 8 allowed (hint: remove 1 card)" in result.err


def test_a_deck_under_the_formats_deck_size_is_illegal(tmp_path, run):
    root = _project(tmp_path, run, {"min": 12})
    result = _check(run, root, "1 Dawn Runner\n3 Navigator Osei\n3 Solar Flare\n")
    assert result.code == 1
    assert "the deck has 7 cards, at least 12 needed (hint: add 5 cards)" in result.err


def test_the_sample_deck_is_legal(tmp_path, run):
    root = _project(tmp_path, run)
    result = run("--project", root, "deck", "check", root / "decks/sample.txt", "--format", "p-standard")
    assert result.code == 0 and "verdict: legal" in result.out
    assert "warning" not in result.err


def test_a_header_count_that_differs_from_its_lines_is_a_warning(tmp_path, run):
    root = _project(tmp_path, run)
    text = "# Fleet (2)\n1 Dawn Runner\n1 Iron Lantern\n# Deck (8)\n3 Navigator Osei\n2 Deckhand Pell\n2 Solar Flare\n"
    result = _check(run, root, text)
    assert result.code == 0
    assert f"{root / 'decks/d.txt'}:4: warning: header 'Deck' says 8 cards; the lines under it hold 7" in result.err


def test_a_header_over_sub_headers_counts_them_all(tmp_path, run):
    root = _project(tmp_path, run)
    text = "# Fleet (2)\n1 Dawn Runner\n1 Iron Lantern\n# Deck (7)\n# Crew (5)\n3 Navigator Osei\n2 Deckhand Pell\n"
    text += "# Events (2)\n2 Solar Flare\n"
    result = _check(run, root, text)
    assert "says" not in result.err


def test_the_l5r_example_cards_are_legal_in_ivory_extended(tmp_path, run):
    from helpers import REPO

    deck = tmp_path / "example.txt"
    deck.write_text(
        "Stronghold: The Salt-Wind Watchtower\nSensei: Sensei of Quiet Stone\n# Dynasty\n1 Ishigaki Tetsuya\n"
        "3 Salt Pans\n# Fate\n3 Hold the Line\n1 Ring of Still Earth\n",
        encoding="utf-8",
    )
    result = run("--project", REPO, "deck", "check", deck, "--format", "l5r-ivory-extended")
    assert "not-legal" not in result.out and "not legal" not in result.err
    assert "verdict: illegal: 2 problems (section-size)" in result.out  # 40/40 needs more cards than the examples
