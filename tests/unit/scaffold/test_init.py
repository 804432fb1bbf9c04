"""printer init: a new project that validates, builds, checks its sample deck and prints its rules."""

from __future__ import annotations

import pytest
from pypdf import PdfReader


@pytest.mark.slow
def test_init_makes_a_project_that_works_out_of_the_box(tmp_path, run):
    root = tmp_path / "Starfall"
    made = run("init", root)
    assert made.code == 0, made.err
    assert (root / "cards/starfall/crew.csv").is_file() and (root / "cards/starfall/ships.json").is_file()
    assert '"$id"' in (root / "schema/starfall/card.schema.json").read_text()

    checked = run("--project", root, "validate")
    assert checked.code == 0, checked.err
    assert "6 valid cards" in checked.out

    built = run("--project", root, "build")
    assert built.code == 0, built.err
    pdf = PdfReader(root / "build/starfall.pdf")
    assert len(pdf.pages) == 4  # 3 Ships + 3 + 2 + 2 Crew and Events (the CSV copies column): 2 sheets, duplex
    assert "Navigator Osei" in pdf.pages[0].extract_text()

    deck = run("--project", root, "deck", "check", root / "decks/sample.txt", "--format", "starfall-standard")
    assert deck.code == 0, deck.err
    assert "verdict: legal" in deck.out
    # the project's one format is the default: a newcomer's first deck check needs no --format
    alone = run("--project", root, "deck", "check", root / "decks/sample.txt")
    assert alone.code == 0 and alone.out == deck.out, alone.err

    rules = run("--project", root, "rules")
    assert rules.code == 0, rules.err
    assert (root / "build/starfall-rules.pdf").is_file()


def test_init_refuses_an_existing_project(tmp_path, run):
    assert run("init", tmp_path / "a").code == 0
    again = run("init", tmp_path / "a")
    assert again.code == 2 and "already" in again.err


def test_init_from_an_example_game(tmp_path, run):
    made = run("init", tmp_path / "mine", "--from", "via-magica")
    assert made.code == 0, made.err
    checked = run("--project", tmp_path / "mine", "validate")
    assert checked.code == 0, checked.err
    assert "via-magica: 23" in checked.out


def test_init_from_an_unknown_game_names_the_closest(tmp_path, run):
    made = run("init", tmp_path / "mine", "--from", "via-magic")
    assert made.code == 2 and "via-magica" in made.err


def test_the_game_name_comes_from_the_folder(tmp_path, run):
    assert run("init", tmp_path / "star-fall").code == 0
    assert 'name = "Star Fall"' in (tmp_path / "star-fall/printer.toml").read_text()


@pytest.mark.slow
def test_a_name_with_quotes_braces_and_comment_ends_is_written_as_each_file_needs_it(tmp_path, run):
    import tomllib

    name = 'Evil "quote" \\ name {{ x }} {% y %} #} */ <b>'
    root = tmp_path / "evil"
    assert run("init", root, "--name", name).code == 0
    assert tomllib.loads((root / "printer.toml").read_text("utf-8"))["games"]["evil"]["name"] == name
    for args in (["validate"], ["build"], ["rules"], ["deck", "check", root / "decks/sample.txt"]):
        result = run("--project", root, *args)
        assert result.code == 0, (args, result.err)
    back = PdfReader(root / "build/evil.pdf").pages[1].extract_text()
    assert 'Evil "quote" \\' in back and "{{ x }}" in back


@pytest.mark.parametrize("name", ["two\nlines", "Star\udcfffall"])  # the second: a byte that is not UTF-8
def test_a_name_of_two_lines_or_not_utf8_is_a_usage_error_and_nothing_is_written(tmp_path, run, name):
    result = run("init", tmp_path / "x", "--name", name)
    assert result.code == 2 and "line break" in result.err and not (tmp_path / "x").exists()
