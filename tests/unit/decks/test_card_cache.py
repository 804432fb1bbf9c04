"""The card cache of ``printer deck check`` (printer.decks.card_cache): right after any change, never trusted when
damaged, safe when two commands write it at once."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import PERSONALITY, write_cards

import printer.cards.catalog as catalog
from printer.decks.card_cache import load_cards_cached
from printer.decks.resolve import name_index
from printer.project import load_project

REPO = Path(__file__).resolve().parents[3]


@pytest.fixture
def project(tmp_path):
    root = tmp_path / "p"
    root.mkdir()
    (root / "printer.toml").write_text(
        '[games.l5r]\nname = "L5R"\nback_field = "deck"\nbacks = { Dynasty = "dynasty", Fate = "fate" }\n',
        encoding="utf-8",
    )
    write_cards(root / "cards" / "l5r" / "cards.json", "l5r", [PERSONALITY, dict(PERSONALITY, id="p2", title="Other")])
    return root


@pytest.fixture
def loads(monkeypatch):
    """How many times the card files were really read and validated."""
    count = []
    original = catalog.load_cards
    monkeypatch.setattr(catalog, "load_cards", lambda *a, **k: count.append(1) or original(*a, **k))
    return count


def _load(root: Path):
    project = load_project(root)
    return load_cards_cached(project, [project.games["l5r"].cards], "l5r")


def _entry(root: Path) -> Path:
    (entry,) = (root / "build" / ".cache" / "cards").glob("*.json")
    return entry


def _same(a, b) -> None:
    assert [(c.id, c.data, c.where) for c in a[0]["l5r"]] == [(c.id, c.data, c.where) for c in b[0]["l5r"]]
    assert a[1] == b[1]


def test_loaded_once_then_read_from_the_cache(project, loads):
    first = _load(project)
    assert first[2] == "miss" and len(loads) == 1
    second = _load(project)
    assert second[2] == "hit" and len(loads) == 1
    _same(first, second)
    index = name_index(second[0]["l5r"])
    assert [c.id for c in index.lookup("test samurai")] == ["p1"]


@pytest.mark.parametrize(
    "change",
    [
        "edit a card",
        "add a card file",
        "remove a card file",
        "change the schema",
        "change printer.toml",
    ],
)
def test_any_change_loads_again(project, loads, change):
    _load(project)
    cards = project / "cards" / "l5r"
    if change == "edit a card":
        write_cards(cards / "cards.json", "l5r", [dict(PERSONALITY, title="Edited")])
    elif change == "add a card file":
        write_cards(cards / "more.json", "l5r", [dict(PERSONALITY, id="p3", title="Third")])
    elif change == "remove a card file":
        write_cards(cards / "more.json", "l5r", [dict(PERSONALITY, id="p3", title="Third")])
        _load(project)
        (cards / "more.json").unlink()
    elif change == "change the schema":
        schema = json.loads((REPO / "schema" / "l5r" / "card.schema.json").read_text(encoding="utf-8"))
        schema["description"] = "changed"
        (project / "schema" / "l5r").mkdir(parents=True)
        (project / "schema" / "l5r" / "card.schema.json").write_text(json.dumps(schema), encoding="utf-8")
    else:
        toml = project / "printer.toml"
        toml.write_text(toml.read_text(encoding="utf-8") + 'card_size = "poker"\n', encoding="utf-8")
    before = len(loads)
    again = _load(project)
    assert again[2] == "miss" and len(loads) == before + 1
    titles = {c.title for c in again[0]["l5r"]}
    if change == "edit a card":
        assert titles == {"Edited"}
    if change == "add a card file":
        assert "Third" in titles
    if change == "remove a card file":
        assert "Third" not in titles


def _translate(root: Path, title: str) -> None:
    """Declare English and Japanese for l5r and give card p1 a Japanese title in an overlay file."""
    toml = root / "printer.toml"
    if "languages" not in toml.read_text(encoding="utf-8"):
        toml.write_text(
            toml.read_text(encoding="utf-8") + 'languages = ["en", "ja"]\ntranslatable = ["title"]\n', encoding="utf-8"
        )
    overlay = {"game": "l5r", "lang": "ja", "cards": [{"id": "p1", "title": title, "from": {"title": "0" * 12}}]}
    folder = root / "cards" / "l5r" / "ja"
    folder.mkdir(exist_ok=True)
    (folder / "cards.json").write_text(json.dumps(overlay, ensure_ascii=False), encoding="utf-8")


def test_a_card_is_found_by_its_translations_title_from_the_cache_too(project, loads):
    """A decklist may name a card in any language of the set: its translation's title finds it, on a cache miss,
    on a hit, and after the translation changed."""
    _translate(project, "試験の侍")
    first = _load(project)
    assert first[2] == "miss" and [c.id for c in name_index(first[0]["l5r"]).lookup("試験の侍")] == ["p1"]
    second = _load(project)
    assert second[2] == "hit" and [c.id for c in name_index(second[0]["l5r"]).lookup("試験の侍")] == ["p1"]
    assert [c.id for c in name_index(second[0]["l5r"]).lookup("Test Samurai")] == ["p1"]  # the source title still
    _translate(project, "別の侍")
    third = _load(project)
    index = name_index(third[0]["l5r"])
    assert third[2] == "miss" and [c.id for c in index.lookup("別の侍")] == ["p1"] and index.lookup("試験の侍") == []


def test_an_art_file_that_appears_is_seen(project, loads):
    write_cards(project / "cards" / "l5r" / "cards.json", "l5r", [dict(PERSONALITY, art="art/p1.png")])
    first = _load(project)
    assert any(p.code == "missing-art" for p in first[1])
    from PIL import Image

    (project / "cards" / "l5r" / "art").mkdir()
    Image.new("RGB", (8, 8)).save(project / "cards" / "l5r" / "art" / "p1.png")
    second = _load(project)
    assert second[2] == "miss" and not any(p.code == "missing-art" for p in second[1])


@pytest.mark.parametrize(
    "damage",
    ["cut short", "garbage", "edited payload", "wrong shape", "empty", "a folder", "huge"],
)
def test_a_damaged_entry_is_rebuilt_never_trusted(project, loads, damage):
    first = _load(project)
    entry = _entry(project)
    raw = entry.read_bytes()
    if damage == "cut short":
        entry.write_bytes(raw[: len(raw) // 2])
    elif damage == "garbage":
        entry.write_bytes(os.urandom(len(raw)))
    elif damage == "edited payload":
        entry.write_bytes(raw.replace(b"Test Samurai", b"Evil Samurai"))
    elif damage == "wrong shape":  # a valid digest over a payload printer did not write
        head, _, body = raw.partition(b"\n")
        import hashlib

        body = json.dumps({"cards": [[1, 2, 3]], "problems": [], "art": [], "art_state": []}).encode()
        header = json.loads(head)
        header["sha256"] = hashlib.sha256(body).hexdigest()
        entry.write_bytes(json.dumps(header).encode() + b"\n" + body)
    elif damage == "empty":
        entry.write_bytes(b"")
    elif damage == "a folder":
        entry.unlink()
        entry.mkdir()
    else:
        entry.write_bytes(raw.partition(b"\n")[0] + b"\n" + b" " * (50 * len(raw)))
    again = _load(project)
    assert again[2] in ("miss", "off") and len(loads) == 2
    _same(first, again)
    if damage != "a folder":
        assert _load(project)[2] == "hit"  # rewritten whole


def test_a_build_folder_that_is_a_link_is_not_used(project, tmp_path, loads):
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (project / "build").symlink_to(elsewhere, target_is_directory=True)
    assert _load(project)[2] == "off"
    assert _load(project)[2] == "off" and len(loads) == 2
    assert not any(elsewhere.rglob("*.json"))


def test_a_read_only_cache_folder_still_loads(project, loads):
    if os.geteuid() == 0:
        pytest.skip("root writes into read-only folders")
    folder = project / "build" / ".cache" / "cards"
    folder.mkdir(parents=True)
    folder.chmod(0o500)
    try:
        assert _load(project)[2] == "off"
    finally:
        folder.chmod(0o700)


@pytest.mark.slow
def test_two_commands_writing_at_once(project):
    """Two processes loading the same project at the same moment both succeed, and the entry is whole."""
    code = "import sys; from test_card_cache import _load; from pathlib import Path; print(_load(Path(sys.argv[1]))[2])"
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(Path(__file__).parent), str(REPO / "tests"), str(REPO)]))
    procs = [
        subprocess.Popen([sys.executable, "-c", code, str(project)], stdout=subprocess.PIPE, text=True, env=env)
        for _ in range(4)
    ]
    outs = [p.communicate()[0].strip() for p in procs]
    assert all(p.returncode == 0 for p in procs) and set(outs) <= {"hit", "miss"}, outs
    assert _load(project)[2] == "hit"
