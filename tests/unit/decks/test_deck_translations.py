"""Decklists in any language of the set: a card named by its translation's title (printer.decks.resolve), the
report naming it in the decklist's words and the source's, ambiguous translated titles, hints, one-language games."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from helpers import PERSONALITY, write_cards

import printer.cards.translations as translations
from printer import api
from printer.decks.resolve import translated_titles
from printer.project import load_project

REPO = Path(__file__).resolve().parents[3]
DECKS = REPO / "tests" / "fixtures" / "decks" / "translated"


def _check(project, deck: Path):
    [result] = api.check_decks(project, [deck], "l5r-emperor")
    return result.report


def test_a_japanese_decklist_gets_the_english_decklists_verdict():
    """The example L5R cards are English with Japanese translations (cards/l5r/ja/): the same deck written in
    Japanese finds the same cards and breaks the same rules, each named in Japanese and English."""
    project = load_project(REPO)
    en, ja = _check(project, DECKS / "emperor-en.txt"), _check(project, DECKS / "emperor-ja.txt")
    assert ja.status == en.status == "illegal" and ja.verdict() == en.verdict()
    assert ja.rules_broken == en.rules_broken and not ja.unresolved
    assert [r.card.id for r in ja.resolution.entries] == [r.card.id for r in en.resolution.entries]
    assert [(v.rule, v.lines, v.cards) for v in ja.violations] == [(v.rule, v.lines, v.cards) for v in en.violations]
    messages = [p.message for p in ja.problems()]
    assert "4 copies of '鉄輪の金砕棒' (Iron-Shod Tetsubo): at most 3" in messages
    assert "3 copies of Unique card 'Ishigaki Tetsuya': at most 1" in [p.message for p in en.problems()]
    assert "3 copies of Unique card '石垣鉄也' (Ishigaki Tetsuya): at most 1" in messages
    cards = ja.as_dict()["cards"]
    assert cards[0]["name"] == "潮風の物見櫓" and cards[0]["card"]["name"] == "The Salt-Wind Watchtower"
    assert all(r.translated for r in ja.resolution.entries) and not any(r.translated for r in en.resolution.entries)


def test_a_misspelt_japanese_name_is_hinted_in_japanese(tmp_path):
    deck = tmp_path / "typo.txt"
    deck.write_text("1 踏みとどまれる\n3 Hold the Lin\n", encoding="utf-8")
    report = _check(load_project(REPO), deck)
    hints = [p.hint for p in report.unresolved]
    assert hints == ["did you mean '踏みとどまれ'?", "did you mean 'Hold the Line'?"]
    assert report.as_dict()["unresolved"][0]["suggestions"][0] == "踏みとどまれ"


def _project(root: Path, overlay: list[dict], languages: str = '["en", "ja"]') -> Path:
    root.mkdir()
    (root / "printer.toml").write_text(
        '[games.l5r]\nname = "L5R"\nback_field = "deck"\nbacks = { Dynasty = "dynasty", Fate = "fate" }\n'
        f'languages = {languages}\ntranslatable = ["title"]\n',
        encoding="utf-8",
    )
    write_cards(root / "cards" / "l5r" / "cards.json", "l5r", [PERSONALITY, dict(PERSONALITY, id="p2", title="Other")])
    (root / "cards" / "l5r" / "ja").mkdir()
    data = {"game": "l5r", "lang": "ja", "cards": overlay}
    (root / "cards" / "l5r" / "ja" / "cards.json").write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    return root


def test_two_cards_sharing_a_translated_title_are_ambiguous(tmp_path):
    same = [{"id": i, "title": "侍", "from": {"title": "0" * 12}} for i in ("p1", "p2")]
    root = _project(tmp_path / "p", same)
    deck = tmp_path / "deck.txt"
    deck.write_text("# Dynasty\n1 侍\n", encoding="utf-8")
    report = _check(load_project(root), deck)
    [problem] = report.unresolved
    assert problem.code == "ambiguous-card" and problem.where == f"{deck}:2"
    assert "Test Samurai (id p1" in problem.hint and "Other (id p2" in problem.hint
    assert {c["id"] for c in report.as_dict()["unresolved"][0]["candidates"]} == {"p1", "p2"}


def test_a_game_of_one_language_reads_no_translations(tmp_path, monkeypatch):
    """A deck check of a game with one language does not look for translations (it costs what it did)."""
    root = _project(tmp_path / "p", [], languages='["en"]')
    project = load_project(root)
    monkeypatch.setattr(translations, "load_translations", lambda *a, **k: pytest.fail("translations read"))
    from printer.cards.catalog import load_cards

    sets, _ = load_cards(project, [project.games["l5r"].cards], "l5r")
    assert translated_titles(project, [project.games["l5r"].cards], sets) == {}
