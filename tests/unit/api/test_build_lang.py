"""Builds in one language: ``printer build GAME --lang ja`` (and rules, box, exports), names, translated text, the
faces' lang, missing translations, overflow located at the overlay, the up-to-date check and watch."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from printer import api
from printer.sheets.lang import with_lang
from tests.unit.api.lang_project import JA, make_project, write_overlay


def _build(root: Path, **options) -> api.BuildResult:
    request = api.BuildRequest(out_dir=root / "out", jobs=1, **{"cache": False, **options})
    return api.build(api.load_project(root), request)


def _text(pdf: Path) -> str:
    return subprocess.run(["pdftotext", str(pdf), "-"], capture_output=True, text=True, check=True).stdout


def _codes(problems) -> list[str]:
    return [p.code for p in problems]


def test_with_lang_marks_the_root_element_only():
    assert with_lang('<div class="card"><p>x</p></div>', "ja") == '<div lang="ja" class="card"><p>x</p></div>'
    lead = '\n<!-- a face -->\n<style>.x{}</style><link rel="x" href="y">'
    assert with_lang(lead + "<section><p>x</p></section>", "ja") == lead + '<section lang="ja"><p>x</p></section>'
    assert with_lang('<div lang="en">x</div>', "ja") == '<div lang="en">x</div>'  # the template's own word stays
    assert with_lang("plain text", "ja") == '<div lang="ja">plain text</div>'
    assert with_lang("<div>x</div>", 'j"a') == '<div lang="j&#34;a">x</div>'


def test_a_face_root_carries_the_build_language_and_templates_see_it(tmp_path):
    from printer.sheets.job import make_job
    from printer.sheets.options import resolve_options

    project = api.load_project(make_project(tmp_path / "p"))
    game = project.games["t"]
    opts = resolve_options(project.settings, game.settings, game.card_size, {}, "printer.toml", project.limits)
    cards = api.load_cards(project, [game.cards], "t")[0]["t"]
    card = next(iter(cards))
    in_ja = make_job(project, game, opts, lang="ja").renderer
    assert in_ja.front(card).startswith('<div lang="ja" class="card">')
    assert in_ja.back("default").startswith('<div lang="ja" class="card back">ja')
    plain = make_job(project, game, opts).renderer  # no --lang: no attribute; lang is the source's
    assert plain.front(card).startswith('<div class="card">') and '<div class="lang">en</div>' in plain.front(card)


@pytest.mark.slow
def test_lang_ja_writes_the_translated_sheets_under_its_own_name(tmp_path):
    root = make_project(tmp_path / "p")
    result = _build(root, games=("t",), lang="ja")
    assert result.ok, result.problems
    (outcome,) = result.games
    assert outcome.lang == "ja" and outcome.target == root / "out" / "t-ja.pdf"
    assert sorted(p.name for p in (root / "out").iterdir()) == ["t-ja.manifest.json", "t-ja.pdf"]
    text = _text(root / "out" / "t-ja.pdf")
    assert JA["c1"]["title"] in text and JA["c2"]["title"] in text and "Hold the Line" not in text
    assert "Quiet Hour" in text  # not translated: printed in the source language, with a warning
    missing = [p for p in outcome.problems if p.code == "translation-missing"]
    where = [(p.where.file, p.where.path, p.where.lang) for p in missing]  # build adds the line, as validate does
    assert where == [(str(root / "cards" / "t" / "cards.json"), "$.cards[2]", "ja")]
    assert "translation-missing-count" in _codes(outcome.problems)


@pytest.mark.slow
def test_lang_all_builds_each_declared_language_and_no_lang_builds_as_before(tmp_path):
    root = make_project(tmp_path / "p")
    result = _build(root, lang="all")
    assert result.ok and [g.lang for g in result.games] == ["en", "ja"]
    assert {p.name for p in (root / "out").iterdir()} == {
        "t-en.pdf",
        "t-ja.pdf",
        "t-en.manifest.json",
        "t-ja.manifest.json",
    }
    assert "Hold the Line" in _text(root / "out" / "t-en.pdf") and not result.games[0].problems
    assert JA["c1"]["title"] in _text(root / "out" / "t-ja.pdf")
    plain = _build(root)  # no --lang: today's name, the cards as their files hold them, nothing about languages
    assert plain.ok and plain.games[0].lang is None and plain.games[0].target == root / "out" / "t.pdf"
    assert "Hold the Line" in _text(root / "out" / "t.pdf") and not plain.problems
    first = (root / "out" / "t.pdf").read_bytes()
    assert _build(root).ok and (root / "out" / "t.pdf").read_bytes() == first


def test_an_unknown_language_is_a_usage_error_naming_the_closest(tmp_path, run):
    root = make_project(tmp_path / "p")
    result = run("--project", root, "build", "t", "--lang", "jp")
    assert result.code == 2 and "did you mean 'ja'?" in result.err and "Traceback" not in result.err
    assert not (root / "build").exists()
    assert run("--project", root, "rules", "t", "--lang", "fr").code == 2
    assert run("--project", root, "box", "t", "--lang", "fr").code == 2


@pytest.mark.slow
def test_a_missing_translation_fails_under_strict(tmp_path, run):
    root = make_project(tmp_path / "p")
    result = run("--project", root, "build", "t", "--lang", "ja", "--strict", "-j", "1", "--no-cache")
    assert result.code == 1 and "card 'c3' has no ja translation" in result.err
    assert "t (ja): not printed" in result.err and not (root / "build" / "t-ja.pdf").exists()
    write_overlay(root, {**JA, "c3": {"title": "静かな時", "text": "カードを１枚引く。"}})
    result = run("--project", root, "build", "t", "--lang", "ja", "--strict", "-j", "1", "--no-cache")
    assert result.code == 0, result.err
    assert (root / "build" / "t-ja.pdf").is_file()


@pytest.mark.slow
def test_a_translation_that_overflows_is_reported_at_the_overlay(tmp_path):
    long = "防御側の人物はそれぞれ兵力＋２を得る。" * 40
    root = make_project(tmp_path / "p", ja={**JA, "c1": {"title": JA["c1"]["title"], "text": long}})
    result = _build(root, games=("t",), lang="ja")
    overflow = [p for p in result.problems if p.code == "text-overflow"]
    where = [(p.where.file, p.where.path, p.where.lang) for p in overflow]
    assert where == [(str(root / "cards" / "t" / "ja" / "cards.json"), "$.cards[0].text", "ja")]
    assert not [p for p in _build(root).problems if p.code == "text-overflow"]  # the source fits


@pytest.mark.slow
def test_faces_in_another_language_are_not_taken_from_the_cache_of_another(tmp_path):
    root = make_project(tmp_path / "p", ja={})  # nothing translated: the same text in both builds
    card = root / "templates" / "t" / "card.html.j2"
    card.write_text(card.read_text().replace('<div class="lang">{{ lang }}</div>', ""), encoding="utf-8")
    back = root / "templates" / "t" / "back.html.j2"
    back.write_text('<div class="card back"></div>', encoding="utf-8")
    plain = _build(root, cache=True)
    assert plain.ok and plain.games[0].stats["faces laid out"] == 4
    in_ja = _build(root, cache=True, lang="ja")
    assert in_ja.ok and in_ja.games[0].stats["faces laid out"] == 4
    assert in_ja.games[0].stats["faces from cache"] == 0


@pytest.mark.slow
def test_an_edited_translation_rebuilds_and_is_watched(tmp_path):
    root = make_project(tmp_path / "p")
    assert _build(root, cache=True, lang="ja").ok
    assert _build(root, cache=True, lang="ja").games[0].up_to_date
    overlay = write_overlay(root, {**JA, "c2": {"title": "夜明けの奇襲", "text": JA["c2"]["text"]}})
    stat = overlay.stat()
    os.utime(overlay, ns=(stat.st_atime_ns, stat.st_mtime_ns + 10**9))
    again = _build(root, cache=True, lang="ja")
    assert not again.games[0].up_to_date and "夜明けの奇襲" in _text(root / "out" / "t-ja.pdf")
    project = api.load_project(root)
    watched = api.watched_inputs(project, api.BuildRequest(games=("t",), lang="ja"))
    assert any(overlay.resolve().is_relative_to(p) for p in watched)


@pytest.mark.slow
def test_components_exports_and_box_take_the_language_in_their_names(tmp_path, run):
    from tests.unit.sheets.test_components import make_project as with_components

    root = with_components(tmp_path / "c")
    toml = root / "printer.toml"
    toml.write_text(toml.read_text().replace("[games.t]\n", '[games.t]\nlanguages = ["en", "ja"]\n'))
    result = _build(root, games=("t",), lang="ja", exports=("png", "tts"), preset="mpc")
    assert result.ok, result.problems
    names = {p.name for p in (root / "out").iterdir()}
    assert {"t-ja.pdf", "t-ja-components.pdf", "t-ja-png", "t-ja-tts", "t-ja-mpc"} <= names
    assert not {"t.pdf", "t-components.pdf"} & names
    assert run("--project", root, "box", "t", "--lang", "ja").code == 0
    assert (root / "build" / "t-ja-box.pdf").is_file()


def _rules(root: Path) -> None:
    main = root / "rules" / "t"
    (main / "ja" / "aids").mkdir(parents=True)
    (main / "aids").mkdir()
    (main / "01-play.md").write_text("# Play\n\nTake turns.\n", encoding="utf-8")
    (main / "aids" / "turn.md").write_text("# Your turn\n\nDraw, then act.\n", encoding="utf-8")
    (main / "ja" / "rules.toml").write_text('lang = "ja"\n', encoding="utf-8")
    (main / "ja" / "01-play.md").write_text("# 遊び方\n\n手番を交互に行う。\n", encoding="utf-8")
    (main / "ja" / "aids" / "turn.md").write_text("# 手番\n\nカードを引き、行動する。\n", encoding="utf-8")


@pytest.mark.slow
def test_rules_and_aids_in_one_language(tmp_path):
    root = make_project(tmp_path / "p", ja={**JA, "c3": {"title": "静", "text": "引く。"}})
    _rules(root)
    project = api.load_project(root)
    books = api.build_rules(project, "t", out_dir=root / "out", lang="ja")
    assert [(b.edition, b.ok) for b in books] == [("ja", True)]
    assert "手番を交互に行う" in _text(root / "out" / "t-rules-ja.pdf")
    assert [b.edition for b in api.build_rules(project, "t", out_dir=root / "out", lang="en")] == [""]
    assert [b.edition for b in api.build_rules(project, "t", out_dir=root / "out", lang="all")] == ["", "ja"]
    result = _build(root, games=("t",), lang="ja")
    assert result.ok and not result.problems, result.problems
    text = _text(root / "out" / "t-ja.pdf")
    assert "カードを引き、行動する" in text and "Draw, then act" not in text
    assert _build(root).ok and "Draw, then act" in _text(root / "out" / "t.pdf")  # no --lang: the main edition's


def test_a_language_without_its_own_rules_is_an_error_of_rules(tmp_path):
    root = make_project(tmp_path / "p")
    (root / "rules" / "t").mkdir(parents=True)
    (root / "rules" / "t" / "01-play.md").write_text("# Play\n", encoding="utf-8")
    books = api.build_rules(api.load_project(root), "t", out_dir=root / "out", lang="ja")
    assert [(b.ok, b.problems[0].code) for b in books] == [(False, "no-rules")]
    assert "rules/t/ja" in (books[0].problems[0].hint or "")


def _pixels(pdf: Path, out: Path) -> bytes:
    subprocess.run(
        ["pdftoppm", "-r", "100", "-png", "-f", "1", "-l", "1", "-singlefile", str(pdf), str(out)], check=True
    )
    from PIL import Image

    with Image.open(out.with_suffix(".png")) as image:
        return image.convert("L").tobytes()


@pytest.mark.slow
@pytest.mark.skipif(
    "Noto Sans CJK SC" not in subprocess.run(["fc-list"], capture_output=True, text=True).stdout,
    reason="needs the Noto Sans CJK font",
)
def test_japanese_faces_get_japanese_glyph_forms(tmp_path):
    """The same Han characters in a font holding Chinese and Japanese forms: the face marked ja prints the Japanese
    ones (直 and 骨 differ), the face without --lang the font's default."""
    root = make_project(tmp_path / "p", ja={})
    (root / "templates" / "t" / "card.html.j2").write_text('<div class="card">{{ card.title }}</div>\n')
    (root / "templates" / "t" / "card.css").write_text('.card { font: 24pt "Noto Sans CJK SC"; }\n')
    cards = root / "cards" / "t" / "cards.json"
    cards.write_text(json.dumps({"game": "t", "cards": [{"id": "c1", "title": "直骨角", "type": "A"}]}))
    assert _build(root).ok and _build(root, lang="ja").ok
    assert _pixels(root / "out" / "t.pdf", tmp_path / "plain") != _pixels(root / "out" / "t-ja.pdf", tmp_path / "ja")
    assert _build(root, lang="en").ok
    assert _pixels(root / "out" / "t.pdf", tmp_path / "plain") == _pixels(root / "out" / "t-en.pdf", tmp_path / "en")


@pytest.mark.slow
def test_a_reprint_in_one_language_prints_the_cards_whose_translation_changed(tmp_path):
    root = make_project(tmp_path / "p")
    assert _build(root, lang="ja").ok
    manifest = root / "out" / "t-ja.manifest.json"
    unchanged = _build(root, lang="ja", since=str(manifest))
    assert unchanged.ok and unchanged.games[0].cards == 0
    write_overlay(root, {**JA, "c2": {"title": "夜明けの奇襲", "text": JA["c2"]["text"]}})
    again = _build(root, lang="ja", since=str(manifest))
    assert again.ok and again.games[0].target == root / "out" / "t-ja-reprint.pdf" and again.games[0].cards == 1
    text = _text(root / "out" / "t-ja-reprint.pdf")
    assert "夜明けの奇襲" in text and JA["c1"]["title"] not in text


@pytest.mark.slow
def test_a_decklist_prints_its_cards_in_the_language(tmp_path):
    root = make_project(tmp_path / "p")
    deck = tmp_path / "starter.txt"
    deck.write_text("1 Hold the Line\n1 戦線を守れ\n1 Quiet Hour\n", encoding="utf-8")  # in either language
    result = _build(root, games=("t",), lang="ja", deck_file=deck)
    assert result.ok and result.games[0].target == root / "out" / "t-starter-ja.pdf" and result.games[0].cards == 3
    text = _text(root / "out" / "t-starter-ja.pdf")
    assert text.count(JA["c1"]["title"]) == 2 and "Quiet Hour" in text and JA["c2"]["title"] not in text
    missing = [(p.where.file, p.where.path) for p in result.problems if p.code == "translation-missing"]
    assert missing == [(str(root / "cards" / "t" / "cards.json"), "$.cards[2]")]  # the cards printed, only


def test_a_box_for_a_decklist_finds_its_cards_by_their_translated_titles(tmp_path):
    root = make_project(tmp_path / "p")
    deck = tmp_path / "starter.txt"
    deck.write_text("2 戦線を守れ\n1 Quiet Hour\n", encoding="utf-8")  # in either language
    result = api.build_box(api.load_project(root), "t", deck, out_dir=root / "out", lang="ja")
    assert result.ok and result.cards == 3, result.problems
    assert not [p for p in result.problems if p.code == "unknown-card"]
    assert result.target == root / "out" / "t-starter-ja-box.pdf"


@pytest.mark.slow
def test_watch_with_lang_all_builds_each_language_and_again_when_a_translation_is_saved(tmp_path):
    import threading
    import time

    root = make_project(tmp_path / "p")
    outcomes: list[api.GameBuild] = []
    stop = threading.Event()
    request = api.BuildRequest(out_dir=root / "out", jobs=1, lang="all")
    watcher = threading.Thread(target=api.watch, args=(root, request, outcomes.append), kwargs={"stop": stop})
    watcher.start()

    def wait_for(n: int) -> None:
        deadline = time.monotonic() + 60
        while len(outcomes) < n and time.monotonic() < deadline:
            time.sleep(0.05)
        assert len(outcomes) >= n, [o.target for o in outcomes]

    try:
        wait_for(2)
        assert [o.lang for o in outcomes] == ["en", "ja"] and all(o.ok for o in outcomes)
        time.sleep(0.3)  # the watch is set up
        write_overlay(root, {**JA, "c2": {"title": "夜明けの奇襲", "text": JA["c2"]["text"]}})
        wait_for(4)
    finally:
        stop.set()
        watcher.join(30)
    assert not watcher.is_alive()
    assert outcomes[2].lang == "en" and not outcomes[2].stats.get("faces laid out")  # its faces did not change
    assert outcomes[3].lang == "ja" and not outcomes[3].up_to_date
    assert "夜明けの奇襲" in _text(root / "out" / "t-ja.pdf")


@pytest.mark.slow
def test_a_spreadsheet_with_at_ja_columns_builds_in_japanese(tmp_path):
    import csv

    from printer.cards.translations import source_digest
    from tests.unit.api.lang_project import CARDS

    root = make_project(tmp_path / "p", ja={})
    (root / "cards" / "t" / "cards.json").unlink()
    (root / "cards" / "t" / "ja" / "cards.json").unlink()
    with (root / "cards" / "t" / "cards.csv").open("w", encoding="utf-8", newline="") as stream:
        sheet = csv.writer(stream)
        sheet.writerow(["id", "title", "type", "text", "title@ja", "text@ja", "from@ja"])
        for card in CARDS:
            ja = JA.get(card["id"], {"title": "", "text": ""})
            stamp = f"title={source_digest(card['title'])} text={source_digest(card['text'])}" if ja["title"] else ""
            sheet.writerow([card["id"], card["title"], card["type"], card["text"], ja["title"], ja["text"], stamp])
    result = _build(root, games=("t",), lang="ja")
    assert result.ok and result.games[0].target == root / "out" / "t-ja.pdf", result.problems
    text = _text(root / "out" / "t-ja.pdf")
    assert JA["c1"]["title"] in text and JA["c2"]["title"] in text and "Quiet Hour" in text
    assert "Hold the Line" not in text and "Dawn Raid" not in text
    missing = [p.where for p in result.problems if p.code == "translation-missing"]
    assert missing == [f"{root / 'cards' / 't' / 'cards.csv'}:4 (ja)"]  # the row without a translation
    assert not [p for p in result.problems if p.code == "translation-stale"]
