"""Incremental builds: an edit lays out again exactly the faces it changes; damaged entries and two builds at once."""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pdfplumber
import pikepdf
import pytest
from helpers import touch, write_game_schema
from PIL import Image

from printer import api

CARD = (
    '<div class="card"><img class="art" src="{{ art_url }}" alt="">'
    '<div class="title">{{ card.title }}</div><div class="text">{{ text }}</div></div>\n'
)
CSS = """.card { position: absolute; inset: 0; background: #fff; font: 8pt "DejaVu Sans", sans-serif; }
.art { position: absolute; left: 5mm; top: 20mm; width: 20mm; height: 20mm; }
"""
ICON = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><circle cx="5" cy="5" r="4" fill="{}"/></svg>'


def _project(root: Path) -> Path:
    root.mkdir(parents=True)
    (root / "printer.toml").write_text('[games.t]\nname = "T"\ncard_size = "poker"\n', encoding="utf-8")
    templates = root / "templates" / "t"
    (templates / "icons").mkdir(parents=True)
    (templates / "card.html.j2").write_text(CARD, encoding="utf-8")
    (templates / "back.html.j2").write_text('<div class="card">BACK</div>', encoding="utf-8")
    (templates / "card.css").write_text(CSS, encoding="utf-8")
    (templates / "icons" / "sun.svg").write_text(ICON.format("gold"), encoding="utf-8")
    write_game_schema(root, "t")
    (root / "cards" / "t").mkdir(parents=True)
    Image.new("RGB", (60, 60), "red").save(root / "cards" / "t" / "a.png")
    cards = [{"id": f"c{i}", "title": f"Card {i}", "type": "A", "text": f"Text {i}."} for i in range(6)]
    cards[1]["text"] = cards[2]["text"] = "Gain {sun}."  # the icon is on two cards
    cards[4]["art"] = "a.png"
    _write_cards(root, cards)
    return root


def _write_cards(root: Path, cards: list[dict]) -> None:
    path = root / "cards" / "t" / "cards.json"
    path.write_text(json.dumps({"game": "t", "cards": cards}), encoding="utf-8")


def _cards(root: Path) -> list[dict]:
    return json.loads((root / "cards" / "t" / "cards.json").read_text(encoding="utf-8"))["cards"]


def _build(root: Path, out: str = "out", **request) -> api.GameBuild:
    project = api.load_project(root)
    result = api.build(project, api.BuildRequest(out_dir=root / out, jobs=1, **request))
    outcome = result.games[0]
    assert result.ok, [str(p) for p in outcome.problems]
    return outcome


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = _project(tmp_path / "p")
    cold = _build(root)
    assert cold.stats["faces laid out"] == 7 and cold.stats["faces from cache"] == 0  # 6 fronts, one back
    return root


@pytest.mark.slow
def test_an_unchanged_rebuild_does_nothing(project):
    again = _build(project)
    assert again.up_to_date and again.target == project / "out" / "t.pdf" and again.cards == 6


@pytest.mark.slow
def test_a_card_edit_lays_out_that_face_only(project):
    cards = _cards(project)
    cards[3]["text"] = "Edited."
    _write_cards(project, cards)
    outcome = _build(project)
    assert (outcome.stats["faces laid out"], outcome.stats["faces from cache"]) == (1, 6)
    with pdfplumber.open(outcome.target) as pdf:
        assert "Edited." in pdf.pages[0].extract_text()


@pytest.mark.slow
def test_a_commands_rebuild_lays_its_face_out_on_a_worker_and_never_imports_weasyprint(project):
    cards = _cards(project)
    cards[3]["text"] = "Edited by a command."
    _write_cards(project, cards)
    script = (
        "import sys\n"
        "from printer.cli import main\n"
        "try:\n"
        "    main(['build', 't', '--out', 'out', '--jobs', '2'])\n"
        "except SystemExit as exit:\n"
        "    print('exit', exit.code, 'weasyprint' in sys.modules)\n"
    )
    env = dict(os.environ, PYTHONPATH=str(Path(api.__file__).parents[2]))
    done = subprocess.run([sys.executable, "-c", script], cwd=project, env=env, capture_output=True, text=True)
    assert done.stdout.splitlines()[-1] == "exit 0 False", done.stdout + done.stderr  # the face went to a worker
    full = _build(project, "full", cache=False)
    assert _pages(project / "out" / "t.pdf") == _pages(full.target)


def _pages(pdf: Path) -> list[tuple]:
    with pdfplumber.open(pdf) as doc:
        return [
            (tuple(page.mediabox), sorted((c["text"], round(c["x0"], 1), round(c["top"], 1)) for c in page.chars))
            for page in doc.pages
        ]


@pytest.mark.slow
def test_a_pdf_redrawn_from_the_last_one_is_the_full_build(project):
    for text in ("First edit.", "Second edit."):
        cards = _cards(project)
        cards[3]["text"] = text
        _write_cards(project, cards)
        redrawn = _build(project)
        assert redrawn.stats["faces laid out"] == 1
        full = _build(project, "full", cache=False)
        assert _pages(redrawn.target) == _pages(full.target)
    with pdfplumber.open(redrawn.target) as pdf:
        assert "Second edit." in pdf.pages[0].extract_text() and "First edit." not in pdf.pages[0].extract_text()


@pytest.mark.slow
def test_an_edit_updates_the_last_pdf_until_it_has_grown_then_writes_it_whole(project):
    from printer.sheets.output.imposition import GROWN

    target = project / "out" / "t.pdf"
    previous = target.read_bytes()  # the fixture's cold build
    base, kinds = len(previous), []
    for n in range(6):
        cards = _cards(project)
        cards[3]["text"] = f"Edit number {n}."
        _write_cards(project, cards)
        assert _build(project).stats["faces laid out"] == 1
        data = target.read_bytes()
        if len(previous) <= GROWN * base:  # the last PDF with an incremental update after it
            assert data.startswith(previous) and data.count(b"%%EOF") > previous.count(b"%%EOF")
            kinds.append("update")
        else:  # grown: written whole, without the faces no page draws any more
            assert not data.startswith(previous[:-1024]) and data.count(b"%%EOF") == 1
            base = len(data)
            kinds.append("whole")
        previous = data
    assert "update" in kinds and "whole" in kinds, kinds
    pdf = pikepdf.open(target)
    assert pdf.check_pdf_syntax() == [] and pdf.get_warnings() == []
    full = _build(project, "full", cache=False)
    assert _pages(target) == _pages(full.target)
    with pdfplumber.open(target) as doc:
        text = "".join(page.extract_text() for page in doc.pages)
    assert "Edit number 5." in text and "Edit number 4." not in text


@pytest.mark.slow
def test_a_last_pdf_that_cannot_be_updated_is_written_whole(project, monkeypatch):
    from printer.sheets import impose

    def broken(*args, **kwargs):
        raise ValueError("the sheet PDF has 3 pages for 2 sheets")

    monkeypatch.setattr(impose, "_append", broken)
    cards = _cards(project)
    cards[3]["text"] = "Written whole."
    _write_cards(project, cards)
    outcome = _build(project)
    data = (project / "out" / "t.pdf").read_bytes()
    assert outcome.stats["faces laid out"] == 1 and data.count(b"%%EOF") == 1
    monkeypatch.undo()
    cards[3]["text"] = "Then updated."
    _write_cards(project, cards)
    _build(project)  # the plan stored for the whole PDF is right: this edit updates it
    assert (project / "out" / "t.pdf").read_bytes().startswith(data)
    with pdfplumber.open(project / "out" / "t.pdf") as pdf:
        assert "Then updated." in pdf.pages[0].extract_text()


@pytest.mark.slow
def test_a_watch_save_updates_even_a_grown_pdf_and_leaves_writing_it_whole_for_later(project):
    from printer.sheets.output.imposition import GROWN

    loaded = api.load_project(project)
    request = api.BuildRequest(out_dir=project / "out", jobs=1)
    target = project / "out" / "t.pdf"
    base = target.stat().st_size  # the fixture's cold build, written whole
    with api.Runtime().open(loaded, request) as runtime:  # the face cache of the project, as a watch holds it
        for n in range(4):  # one card edited again and again: no faces to lay out together, only growth
            cards = _cards(project)
            cards[3]["text"] = f"Saved {n}."
            _write_cards(project, cards)
            before = target.read_bytes()
            saved = api.build_game(loaded, loaded.game("t"), request, None, runtime, "later")
            assert target.read_bytes().startswith(before)  # updated, grown or not
            assert saved.write_whole == (len(before) > GROWN * base)
        assert saved.write_whole and saved.untidy
        tidied = api.build_game(loaded, loaded.game("t"), request, None, runtime, "now")
    data = target.read_bytes()
    assert not tidied.up_to_date and tidied.stats["faces laid out"] == 0 and data.count(b"%%EOF") == 1
    assert len(data) < len(before) and not tidied.write_whole


@pytest.mark.slow
def test_a_watch_saves_face_gets_padded_font_subsets_and_a_commands_edit_does_not(project, monkeypatch):
    """A watch's save lays its face out with its fonts' new subsets padded with Latin text (the next save's new
    letters are then in the kept subset); a build from the command line, even in the same process after it, gets
    no padded subset. Both in this process (``jobs=1``)."""
    from printer.sheets import fontsubsets

    loaded = api.load_project(project)
    request = api.BuildRequest(out_dir=project / "out", jobs=1)
    monkeypatch.setattr(fontsubsets, "_kept", type(fontsubsets._kept)())
    with api.Runtime().open(loaded, request) as runtime:
        for n, tidy in enumerate(["later", "due"]):  # a watch's save, then a command's build
            cards = _cards(project)
            cards[3]["text"] = f"Saved {n}."
            _write_cards(project, cards)
            built = api.build_game(loaded, loaded.game("t"), request, None, runtime, tidy)  # type: ignore[arg-type]
            assert built.stats["faces laid out"] == 1 and built.ok
    kept = {padding != "": [] for *_, padding in fontsubsets._kept}
    for (*_, padding), (glyphs, _) in fontsubsets._kept.items():
        kept[padding != ""].append(len(glyphs))
    assert min(kept[True]) > 150  # printable ASCII, Latin-1 and the marks too
    assert kept[False] and max(kept[False]) < 40  # the command's face: its own glyphs, not the padded subset's
    assert fontsubsets._padding["characters"] == ""  # padded only while the save's face was laid out


@pytest.mark.slow
def test_an_icon_edit_lays_out_the_faces_that_show_it(project):
    touch(project / "templates" / "t" / "icons" / "sun.svg", ICON.format("orange"))
    assert _build(project).stats["faces laid out"] == 2


@pytest.mark.slow
def test_an_art_edit_lays_out_the_face_that_shows_it(project):
    Image.new("RGB", (60, 60), "blue").save(project / "cards" / "t" / "a.png")
    assert _build(project).stats["faces laid out"] == 1


@pytest.mark.slow
def test_a_stylesheet_edit_lays_out_every_face(project):
    touch(project / "templates" / "t" / "card.css", CSS + ".title { color: #333; }\n")
    assert _build(project).stats["faces laid out"] == 7


@pytest.mark.slow
def test_a_back_template_edit_lays_out_the_back_only(project):
    touch(project / "templates" / "t" / "back.html.j2", '<div class="card">NEW BACK</div>')
    assert _build(project).stats["faces laid out"] == 1


@pytest.mark.slow
def test_without_the_cache_every_face_is_laid_out(project):
    assert _build(project, cache=False).stats["faces laid out"] == 7


@pytest.mark.slow
def test_damaged_entries_are_rebuilt_not_trusted(project):
    import diskcache

    with diskcache.Cache(str(project / "build" / ".cache" / "faces")) as store:
        for key in list(store.iterkeys()):
            if key.startswith("blob:"):
                store.set(key, b"%PDF-1.7 not what was stored")
            elif key.startswith("build:"):
                store.set(key, b"garbage")
    _every_face_laid_out_again_after_an_edit(project)


def _every_face_laid_out_again_after_an_edit(project: Path) -> None:
    """A card edited: the build after it lays out every face (none is taken from the cache), the next is up to date."""
    cards = _cards(project)
    cards[0]["text"] = "Changed."
    _write_cards(project, cards)
    outcome = _build(project)
    assert outcome.stats["faces laid out"] == 7 and outcome.stats["faces from cache"] == 0
    assert _build(project).up_to_date


@pytest.mark.slow
def test_a_cache_database_that_cannot_be_read_is_emptied_not_a_traceback(project):
    """A cache.db overwritten or truncated (not SQLite) holds nothing a build needs: the build lays out again."""
    (project / "build" / ".cache" / "faces" / "cache.db").write_bytes(b"garbage, not a database\n")
    _every_face_laid_out_again_after_an_edit(project)


def test_a_locked_cache_database_is_not_wiped(tmp_path, monkeypatch):
    """A lock (an OperationalError: another process holds the store) says nothing of the file: it is kept."""
    import sqlite3

    import diskcache

    from printer.sheets.cache import FaceCache

    folder = tmp_path / "faces"
    FaceCache(folder).close()
    before = (folder / "cache.db").read_bytes()

    def locked(*args, **kwargs):
        raise sqlite3.OperationalError("database is locked")

    monkeypatch.setattr(diskcache, "Cache", locked)
    with pytest.raises(sqlite3.OperationalError):
        FaceCache(folder)
    assert (folder / "cache.db").read_bytes() == before


@pytest.mark.slow
def test_printer_clean_removes_the_cache(project):
    from printer.cli import main

    with pytest.raises(SystemExit) as exit_:
        main(["--project", str(project), "clean"])
    assert exit_.value.code == 0 and not (project / "build" / ".cache").exists()
    assert _build(project).stats["faces laid out"] == 7


@pytest.mark.slow
def test_two_builds_at_once_share_the_cache(project):
    cards = _cards(project)
    cards[5]["text"] = "Both builds see this."
    _write_cards(project, cards)
    runs = [
        subprocess.Popen(
            [sys.executable, "-m", "printer", "--project", str(project), "build", "t", "-j", "1", "--out", str(out)],
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        for out in (project / "out-a", project / "out-b")
    ]
    for run in runs:
        output, _ = run.communicate(timeout=300)
        assert run.returncode == 0, output
    texts = []
    for out in ("out-a", "out-b"):
        with pdfplumber.open(project / out / "t.pdf") as pdf:
            texts.append([page.extract_text() for page in pdf.pages])
    assert texts[0] == texts[1] and "Both builds see this." in texts[0][0]


def _wait_for(outcomes: list, count: int, seconds: float = 120) -> None:
    import time

    deadline = time.monotonic() + seconds
    while len(outcomes) < count and time.monotonic() < deadline:
        time.sleep(0.05)
    assert len(outcomes) >= count, f"{len(outcomes)} builds after {seconds} s"


@contextlib.contextmanager
def _watching(
    project: Path, jobs: int, on_game=None, request: api.BuildRequest | None = None, **options
) -> Iterator[list[api.GameBuild]]:
    """``api.watch`` of ``project`` on a thread until the block ends; yields the list its builds are appended to
    (``on_game(outcomes)`` is called after each is, on the watch's thread)."""
    import threading

    outcomes: list[api.GameBuild] = []
    stop = threading.Event()
    request = request or api.BuildRequest(out_dir=project / "out", jobs=jobs)

    def built(outcome: api.GameBuild) -> None:
        outcomes.append(outcome)
        if on_game:
            on_game(outcomes)

    watcher = threading.Thread(target=api.watch, args=(project, request, built), kwargs={"stop": stop, **options})
    watcher.start()
    try:
        yield outcomes
    finally:
        stop.set()
        watcher.join(30)
    assert not watcher.is_alive()


@pytest.mark.slow
def test_watch_builds_again_on_each_save_and_survives_a_broken_card(project):
    import time

    with _watching(project, jobs=1) as outcomes:
        _wait_for(outcomes, 1)
        assert outcomes[0].up_to_date
        time.sleep(0.3)  # the watch is set up
        cards = _cards(project)
        cards[2]["title"] = "Saved in an editor"
        _write_cards(project, cards)
        _wait_for(outcomes, 2)
        assert outcomes[1].stats["faces laid out"] == 1
        assert [p.code for p in outcomes[1].problems] == ["low-dpi"]  # the 60-px art, as in every build
        (project / "cards" / "t" / "cards.json").write_text('{"game": "t", "cards": [', encoding="utf-8")
        _wait_for(outcomes, 3)
        assert outcomes[2].failure and outcomes[2].problems  # reported, and the watch goes on
        _write_cards(project, cards)
        _wait_for(outcomes, 4)
        assert not outcomes[-1].failure and [p.code for p in outcomes[-1].problems] == ["low-dpi"]


@pytest.mark.slow
def test_a_watch_of_cards_outside_the_project_builds_again_when_one_of_them_is_saved(project, tmp_path):
    import shutil
    import time

    elsewhere = tmp_path / "elsewhere" / "second-set"
    shutil.copytree(project / "cards" / "t", elsewhere)
    deck = tmp_path / "decks" / "mine.txt"
    deck.parent.mkdir()
    deck.write_text("2 Card 1\n1 Card 4\n", encoding="utf-8")
    watched: list[list[Path]] = []
    request = api.BuildRequest(games=["t"], cards_dir=elsewhere, out_dir=project / "out", jobs=1)
    with _watching(project, 1, request=request, on_watch=watched.append) as outcomes:
        _wait_for(outcomes, 1)
        assert watched == [[project.resolve(), elsewhere.resolve()]]  # the project, and the cards being built
        time.sleep(0.3)  # the watch is set up
        path = elsewhere / "cards.json"
        cards = json.loads(path.read_text(encoding="utf-8"))["cards"]
        cards[2]["title"] = "Saved outside the project"
        path.write_text(json.dumps({"game": "t", "cards": cards}), encoding="utf-8")
        _wait_for(outcomes, 2)
        assert outcomes[1].stats["faces laid out"] == 1
    with pdfplumber.open(outcomes[-1].target) as pdf:
        assert "Saved outside the project" in "".join(page.extract_text() for page in pdf.pages)
    deck_request = api.BuildRequest(games=["t"], deck_file=deck, out_dir=project / "out", jobs=1)
    with _watching(project, 1, request=deck_request) as outcomes:  # a decklist outside the project
        _wait_for(outcomes, 1)
        assert outcomes[0].cards == 3
        time.sleep(0.3)
        replaced = deck.with_suffix(".new")
        replaced.write_text("3 Card 1\n1 Card 4\n", encoding="utf-8")
        replaced.replace(deck)  # as an editor that writes a new file and renames it over the old one
        _wait_for(outcomes, 2)
        assert outcomes[1].cards == 4


def test_the_watch_names_every_input_of_the_build_once(tmp_path):
    from printer.project import load_project

    project = _project(tmp_path / "p")
    cards, art = tmp_path / "cards-elsewhere", tmp_path / "art-elsewhere"
    cards.mkdir()
    art.mkdir()
    deck = tmp_path / "deck.txt"
    deck.write_text("1 Card 1\n", encoding="utf-8")
    loaded = load_project(project)
    loaded.read_also.append(art)  # as the user's own config allows
    inside = project / "cards" / "t"
    request = api.BuildRequest(games=["t"], cards_dir=cards, deck_file=deck)
    assert api.watched_inputs(loaded, request) == [project.resolve(), cards.resolve(), deck.resolve(), art.resolve()]
    assert api.watched_inputs(loaded, api.BuildRequest(cards_dir=inside)) == [project.resolve(), art.resolve()]


@pytest.mark.slow
def test_a_file_saved_while_the_watch_builds_is_built_right_after(project):
    import time

    def save_during_the_build(outcomes: list[api.GameBuild]) -> None:
        if len(outcomes) == 2:  # the first save's build is done, but the watch has not gone back to waiting yet
            cards = _cards(project)
            cards[3]["text"] = "Saved while the first save was building."
            _write_cards(project, cards)

    with _watching(project, jobs=1, on_game=save_during_the_build) as outcomes:
        _wait_for(outcomes, 1)
        time.sleep(0.3)  # the watch is set up
        cards = _cards(project)
        cards[2]["text"] = "First save."
        _write_cards(project, cards)
        _wait_for(outcomes, 3)
        assert [o.stats["faces laid out"] for o in outcomes[1:]] == [1, 1]
    with pdfplumber.open(outcomes[-1].target) as pdf:
        text = "".join(page.extract_text() for page in pdf.pages)
    assert "First save." in text and "Saved while the first save was building." in text


@pytest.mark.slow
def test_a_watch_lays_out_the_faces_of_single_edits_together_once_no_file_changes(project):
    import time

    from printer.sheets.output.cached import SMALL_BATCHES

    saves = SMALL_BATCHES + 1
    with _watching(project, jobs=1, tidy_after=3.0) as outcomes:
        _wait_for(outcomes, 1)
        time.sleep(0.3)  # the watch is set up
        for n in range(saves):
            cards = _cards(project)
            cards[n]["text"] = f"Save {n}."
            _write_cards(project, cards)
            _wait_for(outcomes, n + 2)
        _wait_for(outcomes, saves + 2, seconds=60)  # the tidy build, 3 s after the last save
        time.sleep(3.5)
    assert [o.stats["faces laid out"] for o in outcomes[1 : saves + 1]] == [1] * saves  # each save laid out its face
    untidy = [o.untidy_faces for o in outcomes[1 : saves + 1]]
    assert untidy[: SMALL_BATCHES - 1] == [0] * (SMALL_BATCHES - 1) and untidy[-1] > 0  # left for later
    tidied = outcomes[saves + 1]
    assert len(outcomes) == saves + 2 and not tidied.up_to_date  # tidied once, though no file changed
    # the faces left untidy and the last save's own, laid out alone
    assert tidied.stats["faces laid out"] == untidy[-1] + 1 and tidied.untidy_faces == 0
    assert tidied.notes[-1] == f"tidied: {untidy[-1] + 1} faces of earlier edits laid out together"
    with pdfplumber.open(tidied.target) as pdf:
        text = "".join(page.extract_text() for page in pdf.pages)
    assert all(f"Save {n}." in text for n in range(saves))


def _save_and_wait(project: Path, outcomes: list, game: str, text: str, builds: int = 1) -> None:
    path = project / "cards" / game / "cards.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    data["cards"][3]["text"] = text
    count = len(outcomes)
    path.write_text(json.dumps(data), encoding="utf-8")
    _wait_for(outcomes, count + builds)


@pytest.mark.slow
def test_a_watch_tidies_a_game_though_another_games_save_found_it_up_to_date(project):
    import shutil
    import time

    (project / "printer.toml").write_text(
        '[games.t]\nname = "T"\ncard_size = "poker"\n[games.s]\nname = "S"\ncard_size = "poker"\n', encoding="utf-8"
    )
    for folder in ("cards", "templates", "schema"):
        shutil.copytree(project / folder / "t", project / folder / "s")
    cards = project / "cards" / "s" / "cards.json"
    cards.write_text(cards.read_text(encoding="utf-8").replace('"game": "t"', '"game": "s"'), encoding="utf-8")
    with _watching(project, jobs=1, tidy_after=2.0) as outcomes:
        _wait_for(outcomes, 2)
        time.sleep(0.3)  # the watch is set up
        for n in range(4):  # one card of t edited again and again: t's PDF grows until it should be written whole
            _save_and_wait(project, outcomes, "t", f"Save {n}.", builds=2)
        assert outcomes[-2].game == "t" and outcomes[-2].write_whole
        _save_and_wait(project, outcomes, "s", "Another game's save.", builds=2)  # t up to date in this round
        assert outcomes[-2].game == "t" and outcomes[-2].up_to_date
        _wait_for(outcomes, len(outcomes) + 1, seconds=30)  # t's tidy build, once no file changed for 2 s
        tidied = outcomes[-1]
    assert tidied.game == "t" and "tidied" in tidied.notes[-1]
    assert (project / "out" / "t.pdf").read_bytes().count(b"%%EOF") == 1  # written whole again


@pytest.mark.slow
def test_a_watch_tries_a_tidy_build_once_though_its_game_is_gone(project):
    import threading
    import time

    errors: list = []
    outcomes: list[api.GameBuild] = []
    stop = threading.Event()
    request = api.BuildRequest(out_dir=project / "out", jobs=1)
    watcher = threading.Thread(
        target=api.watch,
        args=(project, request, outcomes.append, errors.append),
        kwargs={"stop": stop, "tidy_after": 0.5},
    )
    watcher.start()
    try:
        _wait_for(outcomes, 1)
        time.sleep(0.3)  # the watch is set up
        for n in range(4):
            _save_and_wait(project, outcomes, "t", f"Save {n}.")
        assert outcomes[-1].write_whole
        (project / "printer.toml").write_text('[games.u]\nname = "U"\ncard_size = "poker"\n', encoding="utf-8")
        time.sleep(3)  # the renamed project built once; t, which is no more, was to be tidied
        built, failed = len(outcomes), len(errors)
        time.sleep(2)
        assert (len(outcomes), len(errors)) == (built, failed)  # nothing tried again and again
    finally:
        stop.set()
        watcher.join(30)
    assert not watcher.is_alive()


@pytest.mark.slow
def test_a_watch_starts_its_workers_before_the_first_save_and_has_each_lay_out_a_face(project, monkeypatch, tmp_path):
    import time

    from printer.sheets import parallel
    from printer.sheets.parallel import Workers

    warmed: list[str] = []
    warm, rehearse = Workers.warm, parallel._rehearse
    monkeypatch.setattr(Workers, "warm", lambda self, spec: warmed.append(spec.game) or warm(self, spec))
    rehearsed = tmp_path / "rehearsed"
    rehearsed.mkdir()

    def noted(spec) -> None:  # runs in a forked worker: it says so with a file named by its pid
        rehearse(spec)
        (rehearsed / str(os.getpid())).write_text(spec.game, encoding="utf-8")

    monkeypatch.setattr(parallel, "_rehearse", noted)
    with _watching(project, jobs=2) as outcomes:
        _wait_for(outcomes, 1)
        assert outcomes[0].up_to_date and warmed == ["t"]  # the pool started, though there was nothing to build
        time.sleep(0.3)  # the watch is set up
        for n, text in enumerate(("First save.", "Second save."), 2):
            cards = _cards(project)
            cards[2]["text"] = text
            _write_cards(project, cards)
            _wait_for(outcomes, n)
            assert outcomes[-1].stats["faces laid out"] == 1
        with pdfplumber.open(outcomes[-1].target) as pdf:
            assert "Second save." in "".join(page.extract_text() for page in pdf.pages)
    # each worker laid out a face of the game as it started, before any save
    assert sorted(p.read_text(encoding="utf-8") for p in rehearsed.iterdir()) == ["t", "t"]
    assert os.getpid() not in {int(p.name) for p in rehearsed.iterdir()}


def test_a_watch_rehearsal_compiles_what_a_save_would_and_writes_nothing(project, monkeypatch):
    from printer.sheets import bytecode, sandbox

    compiled: list[str] = []
    monkeypatch.setattr(sandbox, "COMPILED", bytecode.Compiled())  # as in a fresh process, with no cache folder
    dump = sandbox.COMPILED.dump_bytecode
    monkeypatch.setattr(sandbox.COMPILED, "dump_bytecode", lambda bucket: compiled.append(bucket.key) or dump(bucket))
    files = sorted(project.rglob("*"))
    loaded = api.load_project(project)
    api._rehearse(loaded, loaded.game("t"), api.BuildRequest(out_dir=project / "out"))
    assert compiled and sorted(project.rglob("*")) == files
    compiled.clear()
    outcome = _build(project, cache=False)  # every face made again: the templates are compiled already
    assert outcome.stats["faces laid out"] == 7 and compiled == []


class _Planted:
    """A pickle that, when loaded, would write a file: what a stranger's build/.cache could hold."""

    def __init__(self, marker: Path):
        self.marker = marker

    def __reduce__(self):
        return (Path.write_text, (self.marker, "pickle ran"))


@pytest.mark.slow
def test_a_planted_pickle_in_the_cache_is_never_loaded(project, tmp_path):
    import diskcache

    marker = tmp_path / "pwned"
    with diskcache.Cache(str(project / "build" / ".cache" / "faces")) as store:
        keys = list(store.iterkeys())
        assert keys and all(isinstance(store.get(k), (bytes, str)) for k in keys)  # printer writes no pickle
        for key in keys:
            if not key.startswith("blob:"):
                store.set(key, ("planted", _Planted(marker)))
    (project / "build" / ".cache" / "faces" / "recent.json").unlink()
    again = _build(project)
    assert not marker.exists()
    assert not again.up_to_date and again.stats["faces laid out"] == 7  # the planted entries read as misses
    assert _build(project).up_to_date


@pytest.mark.slow
def test_the_recent_file_answers_for_the_stored_entries(project):
    recent = project / "build" / ".cache" / "faces" / "recent.json"
    entries = json.loads(recent.read_text(encoding="utf-8"))
    assert sum(k.startswith("face:") for k in entries) == 7 and sum(k.startswith("html:") for k in entries) == 6
    cards = _cards(project)
    cards[2]["text"] = "Edited again."
    _write_cards(project, cards)
    assert (_build(project).stats["faces laid out"], json.loads(recent.read_text()) != entries) == (1, True)
    recent.write_text("{not json", encoding="utf-8")  # a damaged file is ignored: the store answers
    cards[2]["text"] = "Edited once more."
    _write_cards(project, cards)
    outcome = _build(project)
    assert (outcome.stats["faces laid out"], outcome.stats["faces from cache"]) == (1, 6)


@pytest.mark.slow
def test_faces_of_many_edits_are_laid_out_again_together(project):
    laid_out = []
    for i in range(5):  # each edit lays its card's face out alone, in a batch of its own
        cards = _cards(project)
        cards[i]["text"] = f"Edit {i}."
        _write_cards(project, cards)
        laid_out.append(_build(project).stats["faces laid out"])
    # the fifth edit finds the other faces in five small batches (the first build's and four edits'): all seven
    # faces are laid out again, as one batch
    assert laid_out == [1, 1, 1, 1, 7]
    full = _build(project, "full", cache=False)
    edited = project / "out" / "t.pdf"
    assert _pages(edited) == _pages(full.target)
    assert edited.stat().st_size <= 1.5 * full.target.stat().st_size


def test_the_recent_file_is_read_when_an_entry_is_first_asked_for_and_an_entry_written_before_stays(tmp_path):
    """An up-to-date build opens the face cache and asks for no entry: it does not read the recent file."""
    from printer.sheets import cache as face_cache

    first = face_cache.FaceCache(tmp_path)
    first.put_html("k1", "<p>old</p>", [])
    first.put_html("k2", "<p>two</p>", [])
    first.close()
    reads = []
    original = face_cache.FaceCache._read_recent
    opened = face_cache.FaceCache(tmp_path)
    opened._read_recent = lambda: reads.append(1) or original(opened)  # type: ignore[method-assign]
    assert reads == []
    opened.put_html("k1", "<p>new</p>", [])  # written before the recent file is read: not replaced by it
    assert opened.get_html("k1") == ("<p>new</p>", []) and opened.get_html("k2") == ("<p>two</p>", [])
    assert reads == [1]
    opened.close()
    untouched = face_cache.FaceCache(tmp_path)
    untouched._read_recent = lambda: reads.append(2) or []  # type: ignore[method-assign]
    untouched.close()
    assert reads == [1]


def test_a_batchs_warnings_are_looked_up_once_a_process_however_many_of_its_faces_are_read(tmp_path):
    """A batch's faces share its warnings, and a batch that gave none has no entry: each face read asked the store
    for it again (900 lookups in a one-card edit of 900 cards)."""
    from printer.problems import Problem
    from printer.sheets import cache as face_cache

    first = face_cache.FaceCache(tmp_path)
    quiet, noisy = b"%PDF quiet batch", b"%PDF noisy batch"
    first.put(quiet, {f"q{i}": (i, {}, {}) for i in range(5)})
    first.put(noisy, {f"n{i}": (i, {}, {}) for i in range(5)}, [Problem("card.json", "art is low-dpi")])
    assert [first.get(f"q{i}")[4] for i in range(5)] == [[]] * 5  # type: ignore[index]
    first.close()
    opened = face_cache.FaceCache(tmp_path)
    asked: list[str] = []
    store_get = opened.store.get
    opened.store.get = lambda name, *a, **k: asked.append(name) or store_get(name, *a, **k)  # type: ignore[method-assign]
    assert [opened.get(f"q{i}")[4] for i in range(5)] == [[]] * 5  # type: ignore[index]
    assert [len(opened.get(f"n{i}")[4]) for i in range(5)] == [1] * 5  # type: ignore[index]
    assert sum(name.startswith("warnings:") for name in asked) <= 2  # one each, at most (the recent file has some)
    opened.close()
    again = face_cache.FaceCache(tmp_path)  # the warnings still reach the recent file and a later process
    assert again.get("n3")[4][0].message == "art is low-dpi"  # type: ignore[index]


def _colours_on_first_page(pdf: Path, tmp: Path) -> dict[str, int]:
    """How many pixels of page 1 (the fronts, 30 dpi) are pure red, blue or green (one channel over 180, the other
    two under 60)."""
    subprocess.run(
        ["pdftoppm", "-r", "30", "-png", "-f", "1", "-l", "1", "-singlefile", str(pdf), str(tmp)], check=True
    )
    data = Image.open(tmp.with_suffix(".png")).convert("RGB").tobytes()
    pixels = [data[i : i + 3] for i in range(0, len(data), 3)]
    return {
        name: sum(p[channel] > 180 and sum(p) - p[channel] < 120 for p in pixels)
        for name, channel in (("red", 0), ("green", 1), ("blue", 2))
    }


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("pdftoppm") is None, reason="pdftoppm (poppler-utils) is not installed")
def test_an_edit_to_art_or_an_image_outside_the_walked_folders_is_printed_not_found_up_to_date(project, tmp_path):
    """A card's art may be anywhere in the project, and a template may name an image by its path from the
    project's folder: neither is in the folders the up-to-date check walks (printer.toml, cards, templates,
    schemas). The build keeps the files its faces named, and is up to date only while each is unchanged."""
    (project / "art").mkdir()
    (project / "shared").mkdir()
    Image.new("RGB", (60, 60), "red").save(project / "art" / "a.png")
    Image.new("RGB", (60, 60), "red").save(project / "shared" / "logo.png")
    cards = _cards(project)
    cards[4]["art"] = "../../art/a.png"
    _write_cards(project, cards)
    card = project / "templates" / "t" / "card.html.j2"
    logo = '<img src="shared/logo.png" style="position: absolute; right: 5mm; top: 5mm; width: 15mm" alt="">'
    touch(card, CARD.replace('<div class="title">', logo + '<div class="title">'))
    built = _build(project)
    assert not built.up_to_date and _build(project).up_to_date
    assert _colours_on_first_page(built.target, tmp_path / "red")["red"] > 0
    Image.new("RGB", (60, 60), "blue").save(project / "art" / "a.png")
    after_art = _build(project)
    assert not after_art.up_to_date and after_art.stats["faces laid out"] == 1
    seen = _colours_on_first_page(after_art.target, tmp_path / "art")
    assert seen["blue"] > 0 and seen["red"] > 0  # the art is blue; the six logos are still red
    Image.new("RGB", (60, 60), (0, 255, 0)).save(project / "shared" / "logo.png")
    after_logo = _build(project)
    assert not after_logo.up_to_date and after_logo.stats["faces laid out"] == 6  # the six fronts show the logo
    seen = _colours_on_first_page(after_logo.target, tmp_path / "logo")
    assert (seen["red"], seen["blue"] > 0, seen["green"] > 0) == (0, True, True)
    assert _build(project).up_to_date
    (project / "art" / "a.png").unlink()  # gone: built (the art's placeholder), then up to date while it stays gone
    assert not _build(project).up_to_date and _build(project).up_to_date


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("pdftoppm") is None, reason="pdftoppm (poppler-utils) is not installed")
def test_an_image_the_sheet_template_shows_is_printed_anew_when_it_changes(project, tmp_path):
    """A game's own sheet template may show an image on every sheet (a logo by the sheet label), named by its path
    from the project's folder, outside the folders the up-to-date check walks. The sheets' chrome (laid out without
    the faces, kept in the face cache by what its HTML is made from) is laid out again when that image changes,
    and the build is up to date only while it is unchanged. Each face's page is laid out in the sheet template
    too: a change to it lays the faces out again, and what it shows outside the label shows on every face."""
    from printer.paths import bundled_root

    (project / "shared").mkdir()
    Image.new("RGB", (60, 60), (0, 255, 0)).save(project / "shared" / "logo.png")  # green: card 4's art is red
    logo = '<img src="shared/logo.png" style="position: absolute; left: 5mm; top: 2mm; width: 30mm; height: 8mm">'
    bundled = (bundled_root() / "templates" / "sheet.html.j2").read_text(encoding="utf-8")
    assert bundled.count("{% if label %}") == 1
    sheet = project / "templates" / "t" / "sheet.html.j2"
    touch(sheet, bundled.replace("{% if label %}", "{% if label %}" + logo))  # on the sheets only
    built = _build(project)
    assert built.stats["faces laid out"] == 7  # another sheet template: every face's page is laid out again
    one_logo = _colours_on_first_page(built.target, tmp_path / "green")["green"]
    assert one_logo > 100 and _build(project).up_to_date
    Image.new("RGB", (60, 60), "blue").save(project / "shared" / "logo.png")
    after = _build(project)
    assert not after.up_to_date  # the faces are laid out again too (the files the template names are in their key)
    seen = _colours_on_first_page(after.target, tmp_path / "blue")
    assert seen["green"] == 0 and abs(seen["blue"] - one_logo) <= 2  # the faces do not show it
    assert _build(project).up_to_date
    cards = _cards(project)
    cards[0]["text"] = "Changed."  # a real build with the logo unchanged: the chrome comes from the cache
    _write_cards(project, cards)
    edited = _build(project)
    assert (
        not edited.up_to_date and abs(_colours_on_first_page(edited.target, tmp_path / "edit")["blue"] - one_logo) <= 2
    )
    touch(sheet, bundled.replace("{% if label %}", logo + "{% if label %}"))  # on every page: the faces' too
    everywhere = _build(project)
    assert everywhere.stats["faces laid out"] == 7
    assert _colours_on_first_page(everywhere.target, tmp_path / "faces")["blue"] > 5 * one_logo  # 6 fronts, 1 sheet


def test_deferred_entries_are_read_back_at_once_and_written_a_few_at_a_time(tmp_path, monkeypatch):
    from printer.sheets import cache as cache_module
    from printer.sheets.cache import FaceCache

    monkeypatch.setattr(cache_module, "DEFERRED_MOST", 3)
    cache = FaceCache(tmp_path / "cache")
    with cache.deferred():
        for n in range(7):
            cache.put_text(f"t{n}", f"text {n}")
        assert cache.get_text("t6") == "text 6"  # this process's copy
        assert len(cache.store) == 6  # two transactions of three; the last one waits for the end
    assert len(cache.store) == 7
    again = FaceCache(tmp_path / "cache")  # another process's view: the store
    assert [again.get_text(f"t{n}") for n in range(7)] == [f"text {n}" for n in range(7)]
    cache.close()
    again.close()
