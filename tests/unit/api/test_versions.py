"""Versions of a card set: the build manifest, ``printer changes --since``, reprints (``build --since``) and the
version stamp templates get (``project.version``, ``project.build_date``)."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pikepdf
import pytest
from helpers import write_game_schema

from printer import api

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="needs git")

CARDS = [
    {"id": "a", "title": "Ash", "type": "Unit", "text": "Strike {gold}."},
    {"id": "b", "title": "Birch", "type": "Unit", "copies": 2},
    {"id": "c", "title": "Cinder", "type": "Spell"},
    {"id": "d", "title": "Dusk", "type": "Spell"},
]
ICON = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><circle cx="5" cy="5" r="4" fill="{}"/></svg>'


def make_project(root: Path) -> Path:
    """A small project of one game ``t``: units on card.html.j2, spells on card-spell.html.j2, an icon."""
    root.mkdir(parents=True)
    (root / "printer.toml").write_text(
        '[project]\npaper = "A4"\nversion = "1.2"\n\n[games.t]\nname = "Tree"\ncard_size = "poker"\n', encoding="utf-8"
    )
    templates = root / "templates" / "t"
    (templates / "icons").mkdir(parents=True)
    (templates / "icons" / "gold.svg").write_text(ICON.format("#c90"), encoding="utf-8")
    stamp = '<div class="stamp">v{{ project.version }} {{ project.build_date }}</div>'
    (templates / "card.html.j2").write_text(
        '<div class="card"><div class="title">{{ card.title }}</div><div class="text">{{ text }}</div>'
        + stamp
        + "</div>\n",
        encoding="utf-8",
    )
    (templates / "card-spell.html.j2").write_text(
        '<div class="card spell"><div class="title">Spell {{ card.title }}</div>' + stamp + "</div>\n",
        encoding="utf-8",
    )
    (templates / "back.html.j2").write_text('<div class="card"><div class="title">Tree back</div></div>\n')
    (templates / "card.css").write_text(
        '.card { position: absolute; inset: 0; font: 8pt "DejaVu Sans", sans-serif; background: #eee; }',
        encoding="utf-8",
    )
    write_game_schema(root, "t")
    write_cards(root, CARDS)
    return root


def write_cards(root: Path, cards: list[dict]) -> None:
    path = root / "cards" / "t" / "cards.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"game": "t", "cards": cards}, indent=2), encoding="utf-8")


def edited(**changes: dict) -> list[dict]:
    """The fixture's cards with the fields of some changed, by id."""
    return [{**card, **changes.get(card["id"], {})} for card in CARDS]


def git(root: Path, *args: str) -> None:
    subprocess.run(
        ["git", "-c", "user.email=t@example.invalid", "-c", "user.name=T", *args],
        cwd=root,
        check=True,
        capture_output=True,
        timeout=60,
    )


def committed(root: Path) -> Path:
    """``root`` made a git repository with everything committed (build/ ignored)."""
    (root / ".gitignore").write_text("build/\n")
    git(root, "init", "-q")
    git(root, "add", "-A")
    git(root, "commit", "-qm", "first print")
    return root


def build(root: Path, **request) -> api.GameBuild:
    result = api.build(api.load_project(root), api.BuildRequest(**{"jobs": 1, "cache": False, **request}))
    assert result.ok, result.problems
    return result.games[0]


def pages_text(pdf: Path) -> list[str]:
    text = subprocess.run(["pdftotext", "-layout", str(pdf), "-"], capture_output=True, check=True, timeout=60)
    return text.stdout.decode().split("\f")[:-1]


@pytest.fixture(autouse=True)
def _fixed_date(monkeypatch):
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")  # 2023-11-14


# --- the manifest ---------------------------------------------------------------------------------------------


@pytest.mark.slow
def test_the_manifest_records_each_card_and_two_builds_give_the_same_bytes_wherever_the_project_is(tmp_path):
    root = make_project(tmp_path / "p")
    outcome = build(root)
    manifest = root / "build" / "t.manifest.json"
    assert manifest in outcome.paths
    first = manifest.read_bytes()
    data = json.loads(first)
    assert data["game"] == "t" and data["version"] == "1.2" and data["pdf"] == "t.pdf"
    assert sorted(data["cards"]) == ["a", "b", "c", "d"]
    birch = data["cards"]["b"]
    assert birch["copies"] == 2 and birch["slots"] == [[1, 2], [1, 3]]
    assert set(birch) >= {"front", "back", "fields", "name"} and birch["name"] == "Birch"
    assert data["cards"]["a"]["files"] == {
        "templates/t/icons/gold.svg": data["cards"]["a"]["files"]["templates/t/icons/gold.svg"]
    }
    assert data["options"]["bleed"] == 3.0 and data["options"]["duplex"] == "long-edge"
    assert str(tmp_path) not in first.decode()  # paths relative to the project
    write_cards(root, edited(a={"title": "Alder"}))
    build(root, cache=True, jobs=2)  # an edit's build: the manifest made while a worker lays out the face
    assert json.loads(manifest.read_text())["cards"]["a"]["front"] != data["cards"]["a"]["front"]
    write_cards(root, CARDS)
    build(root, cache=True, jobs=2)  # and back, through the face cache
    assert manifest.read_bytes() == first
    moved = tmp_path / "elsewhere" / "q"
    shutil.copytree(root, moved, ignore=shutil.ignore_patterns("build"))
    build(moved)
    assert (moved / "build" / "t.manifest.json").read_bytes() == first


@pytest.mark.slow
def test_an_up_to_date_build_keeps_its_manifest_and_an_edit_updates_it(tmp_path):
    root = make_project(tmp_path / "p")
    build(root, cache=True)
    manifest = root / "build" / "t.manifest.json"
    before = json.loads(manifest.read_text())
    assert build(root, cache=True).up_to_date
    manifest.unlink()
    assert not build(root, cache=True).up_to_date  # an output gone: built again
    assert json.loads(manifest.read_text()) == before
    write_cards(root, edited(a={"title": "Alder"}))
    build(root, cache=True)
    after = json.loads(manifest.read_text())
    assert after["cards"]["a"]["front"] != before["cards"]["a"]["front"]
    assert {k: v for k, v in after["cards"].items() if k != "a"} == {
        k: v for k, v in before["cards"].items() if k != "a"
    }


# --- printer changes ------------------------------------------------------------------------------------------


def test_changes_since_a_revision_lists_cards_field_by_field(tmp_path, run):
    root = committed(make_project(tmp_path / "p"))
    cards = edited(a={"title": "Alder"}, b={"copies": 3})
    write_cards(root, [c for c in cards if c["id"] != "d"] + [{"id": "e", "title": "Elm", "type": "Unit"}])
    report = api.changes(api.load_project(root), "t", "HEAD")
    by_id = {c.id: c for c in report.changes}
    assert sorted(by_id) == ["a", "b", "d", "e"]
    assert [str(f) for f in by_id["a"].fields] == ['title: "Ash" -> "Alder"'] and by_id["a"].reprint
    assert [str(f) for f in by_id["b"].fields] == ["copies: 2 -> 3"] and not by_id["b"].reprint
    assert by_id["d"].status == "removed" and by_id["e"].status == "added"
    result = run("--project", root, "changes", "t", "--since", "HEAD")
    assert result.code == 0, result.err
    assert '~ a Alder (reprint)\n    title: "Ash" -> "Alder"' in result.out
    assert "+ e Elm" in result.out and "- d Dusk" in result.out
    assert "1 added, 1 removed, 2 changed (2 to reprint)" in result.out


def test_a_face_that_changed_only_through_a_template_an_icon_or_the_css_says_so(tmp_path):
    root = committed(make_project(tmp_path / "p"))
    templates = root / "templates" / "t"
    (templates / "icons" / "gold.svg").write_text(ICON.format("#fc0"), encoding="utf-8")
    spell = templates / "card-spell.html.j2"
    spell.write_text(spell.read_text().replace("Spell {{", "Sorcery {{"), encoding="utf-8")
    report = api.changes(api.load_project(root), "t", "HEAD")
    causes = {c.id: (c.fields, c.causes) for c in report.changes}
    assert causes == {
        "a": ([], ["icon templates/t/icons/gold.svg"]),
        "c": ([], ["template templates/t/card-spell.html.j2"]),
        "d": ([], ["template templates/t/card-spell.html.j2"]),
    }
    css = templates / "card.css"
    css.write_text(css.read_text() + "\n.title { font-weight: bold; }\n", encoding="utf-8")
    report = api.changes(api.load_project(root), "t", "HEAD")
    assert [c.id for c in report.reprint] == ["a", "b", "c", "d"]
    assert "stylesheet templates/t/card.css" in report.changes[1].causes


@pytest.mark.slow
def test_changes_against_a_manifest_file(tmp_path, run):
    root = make_project(tmp_path / "p")
    build(root)
    kept = tmp_path / "v1.manifest.json"
    shutil.copy(root / "build" / "t.manifest.json", kept)
    write_cards(root, edited(c={"title": "Coal"}))
    result = run("--project", root, "changes", "t", "--since", kept)
    assert result.code == 0, result.err
    assert '~ c Coal (reprint)\n    title: changed, now "Coal"' in result.out
    assert "0 added, 0 removed, 1 changed (1 to reprint)" in result.out


def test_a_bad_ref_is_a_usage_error_with_a_hint(tmp_path, run):
    root = committed(make_project(tmp_path / "p"))
    for ref in ("no-such-tag", "--output=x", "HEAD~5"):
        result = run("--project", root, "changes", "t", "--since", ref)
        assert result.code == 2, (ref, result.out, result.err)
        assert "hint: give a git revision" in result.err and "Traceback" not in result.err
    (tmp_path / "junk.json").write_text("[1, 2]")
    result = run("--project", root, "changes", "t", "--since", tmp_path / "junk.json")
    assert result.code == 2 and "not a printer build manifest" in result.err
    (tmp_path / "other.json").write_text(json.dumps({"format": 1, "game": "other", "cards": {}}))
    result = run("--project", root, "changes", "t", "--since", tmp_path / "other.json")
    assert result.code == 2 and "a manifest of 'other', not of 't'" in result.err
    (tmp_path / "deck.txt").write_text("1 Ash\n")
    result = run("--project", root, "build", "t", "--since", "HEAD", "--deck", tmp_path / "deck.txt")
    assert result.code == 2 and "not a decklist" in result.err


# --- reprints -------------------------------------------------------------------------------------------------


@pytest.mark.slow
def test_since_after_one_field_edit_prints_exactly_that_card_with_its_back_and_a_changelog(tmp_path, run):
    root = committed(make_project(tmp_path / "p"))
    write_cards(root, edited(a={"title": "Alder"}))
    result = run("--project", root, "build", "t", "--since", "HEAD", "-j", "1", "--no-cache")
    assert result.code == 0, result.err
    pdf = root / "build" / "t-reprint.pdf"
    with pikepdf.open(pdf) as opened:
        assert len(opened.pages) == 3  # the fronts' sheet, its backs, the changelog
    front, back, changelog = pages_text(pdf)
    assert "Alder" in front and "v1.2 2023-11-14" in front  # the version stamp
    assert not any(name in front for name in ("Ash", "Birch", "Cinder", "Dusk"))
    assert back.count("Tree back") == 1
    assert "Tree: reprint" in changelog and "version 1.2" in changelog
    assert 'title: "Ash" -> "Alder"' in changelog and "changes since HEAD" in changelog
    assert not (root / "build" / "t.pdf").exists()  # a reprint leaves the whole game's PDF alone


@pytest.mark.slow
def test_since_after_a_template_change_prints_every_card_using_the_template(tmp_path):
    root = committed(make_project(tmp_path / "p"))
    spell = root / "templates" / "t" / "card-spell.html.j2"
    spell.write_text(spell.read_text().replace("Spell {{", "Sorcery {{"), encoding="utf-8")
    outcome = build(root, since="HEAD")
    assert outcome.target == root / "build" / "t-reprint.pdf" and outcome.cards == 2
    front, _, changelog = pages_text(outcome.target)
    assert "Sorcery Cinder" in front and "Sorcery Dusk" in front and "Ash" not in front
    assert changelog.count("template templates/t/card-spell.html.j2") == 2


@pytest.mark.slow
def test_since_with_nothing_changed_prints_nothing(tmp_path):
    root = committed(make_project(tmp_path / "p"))
    outcome = build(root, since="HEAD")
    assert outcome.target is None and outcome.cards == 0
    assert any("nothing to reprint" in note for note in outcome.notes)
    assert not (root / "build" / "t-reprint.pdf").exists()


def test_a_project_in_a_folder_of_its_repository_is_compared_with_its_own_files_at_the_revision(tmp_path):
    repo = tmp_path / "repo"
    root = make_project(repo / "games" / "tree")
    (repo / "notes.txt").write_text("not the project's\n")
    committed(repo)
    write_cards(root, edited(d={"title": "Dawn"}))
    report = api.changes(api.load_project(root), "t", "HEAD")
    assert [(c.id, [str(f) for f in c.fields]) for c in report.changes] == [("d", ['title: "Dusk" -> "Dawn"'])]
    assert report.old_version == report.version == "1.2" and report.problems == []


def _translated(root: Path, titles: dict[str, str]) -> None:
    """The fixture game in English and French, ``titles`` (by id) its French titles."""
    toml = root / "printer.toml"
    if "languages" not in toml.read_text():
        text = toml.read_text().replace('card_size = "poker"\n', 'card_size = "poker"\nlanguages = ["en", "fr"]\n')
        toml.write_text(text.replace("languages", 'translatable = ["title"]\nlanguages', 1))
    source = {card["id"]: card["title"] for card in CARDS}

    def digest(value: str) -> str:
        import hashlib

        return hashlib.sha256(json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode()).hexdigest()[:12]

    entries = [{"id": i, "title": t, "from": {"title": digest(source[i])}} for i, t in titles.items()]
    overlay = root / "cards" / "t" / "fr" / "cards.json"
    overlay.parent.mkdir(parents=True, exist_ok=True)
    overlay.write_text(json.dumps({"game": "t", "lang": "fr", "cards": entries}, ensure_ascii=False), encoding="utf-8")


@pytest.mark.slow
def test_a_reprint_in_one_language_compares_and_prints_that_language(tmp_path, run):
    root = make_project(tmp_path / "p")
    french = {"a": "Frêne", "b": "Bouleau", "c": "Braise", "d": "Crépuscule"}
    _translated(root, french)
    committed(root)
    _translated(root, {**french, "c": "Cendre"})
    report = api.changes(api.load_project(root), "t", "HEAD", lang="fr")
    assert [(c.id, [str(f) for f in c.fields]) for c in report.changes] == [("c", ['title: "Braise" -> "Cendre"'])]
    assert api.changes(api.load_project(root), "t", "HEAD").changes == []  # the English cards did not change
    outcome = build(root, since="HEAD", lang="fr")
    assert outcome.target == root / "build" / "t-fr-reprint.pdf" and outcome.cards == 1
    front, _, changelog = pages_text(outcome.target)
    assert "Spell Cendre" in front and 'title: "Braise" -> "Cendre"' in changelog
    in_english = build(root, since="HEAD", lang="en")  # says which language has nothing to reprint (--lang all)
    assert in_english.notes[-1] == "t-en: nothing to reprint: no card's printed face changed since HEAD"
    result = run("--project", root, "changes", "t", "--since", "HEAD", "--lang", "all")
    assert result.code == 2 and "one language" in result.err


@pytest.mark.slow
def test_a_changed_component_is_named_by_the_reprint_not_left_unsaid(tmp_path):
    from tests.unit.sheets.test_components import make_project as with_components

    root = committed(with_components(tmp_path / "c"))
    cards = root / "cards" / "t" / "cards.json"
    data = json.loads(cards.read_text())
    data["cards"] = [dict(c, title="Coin Zero") if c["id"] == "coin0" else c for c in data["cards"]]
    cards.write_text(json.dumps(data), encoding="utf-8")
    assert [c.id for c in api.changes(api.load_project(root), "t", "HEAD").reprint] == ["coin0"]
    outcome = build(root, since="HEAD")  # a token is not on the card sheets a reprint prints
    assert outcome.target is None or not outcome.target.exists()
    assert any("1 component changed (Coin Zero)" in note and "t-components.pdf" in note for note in outcome.notes)
    assert any("nothing to reprint" in note for note in outcome.notes)


@pytest.mark.slow
def test_against_a_manifest_the_components_are_not_new_cards(tmp_path):
    from tests.unit.sheets.test_components import make_project as with_components

    root = with_components(tmp_path / "c")
    build(root)
    kept = tmp_path / "kept.manifest.json"
    kept.write_bytes((root / "build" / "t.manifest.json").read_bytes())  # the card sheets' cards only
    cards = root / "cards" / "t" / "cards.json"
    data = json.loads(cards.read_text())
    data["cards"] = [dict(c, title="Card Zero") if c["id"] == "a0" else c for c in data["cards"]]
    cards.write_text(json.dumps(data), encoding="utf-8")
    report = api.changes(api.load_project(root), "t", str(kept))
    assert [(c.id, c.status) for c in report.changes] == [("a0", "changed")]


@pytest.mark.slow
def test_a_manifest_says_its_language_and_another_language_is_warned_of(tmp_path):
    root = make_project(tmp_path / "p")
    _translated(root, {"a": "Frêne", "b": "Bouleau", "c": "Braise", "d": "Crépuscule"})
    build(root, lang="fr")
    kept = root / "build" / "t-fr.manifest.json"
    assert json.loads(kept.read_text())["lang"] == "fr"
    same = api.changes(api.load_project(root), "t", str(kept), lang="fr")
    assert same.changes == [] and not [p for p in same.problems if p.code == "since-lang"]
    other = api.changes(api.load_project(root), "t", str(kept))
    (warned,) = [p for p in other.problems if p.code == "since-lang"]
    assert "--lang fr" in warned.message and warned.hint == "compare it with --lang fr"
    build(root)
    assert "lang" not in json.loads((root / "build" / "t.manifest.json").read_text())  # as before --lang
