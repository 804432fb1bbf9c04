"""printer validate: schema errors, syntax errors, cross-file checks, messages and exit codes."""

from __future__ import annotations

import pytest
from helpers import PERSONALITY, write_json

from printer.cards.catalog import load_cards
from printer.cli.output import relative
from printer.project import load_project


def test_bundled_examples_are_valid(run, repo):
    result = run("validate", cwd=repo)
    assert result.code == 0, result.err
    assert "valid cards" in result.out


def test_every_l5r_type_is_in_the_examples(repo):
    project = load_project(repo)
    sets, problems = load_cards(project, [repo / "cards" / "l5r"])
    assert not problems
    types = {c.type for c in sets["l5r"]}
    assert types == {
        "Personality",
        "Holding",
        "Event",
        "Region",
        "Celestial",
        "Strategy",
        "Follower",
        "Item",
        "Spell",
        "Ring",
        "Stronghold",
        "Sensei",
        "Honor Track",  # play pieces printed as components
        "Honor Marker",
        "Imperial Favor",
    }
    from printer.cards.translations import load_translations

    book, _ = load_translations(project, [repo / "cards" / "l5r"], cards=sets)
    japanese = book.of("l5r", "ja").values()
    assert any(any("\u3040" <= ch <= "\u30ff" for ch in str(t.fields.get("text", ""))) for t in japanese), (
        "no Japanese card: the English cards' Japanese is in cards/l5r/ja/"
    )


def test_valid_card_in_each_file_shape(run, project):
    cards = project / "cards" / "l5r"
    write_json(cards / "one.json", PERSONALITY)
    write_json(cards / "list.json", [dict(PERSONALITY, id="p2")])
    write_json(cards / "wrapped.json", {"game": "l5r", "cards": [dict(PERSONALITY, id="p3")]})
    result = run("validate", cwd=project)
    assert result.code == 0, result.err
    assert "3 valid cards" in result.out


def test_schema_errors_are_all_reported_with_paths_and_hints(run, project):
    bad = [
        dict(PERSONALITY, id="a", type="Personalty"),
        dict(PERSONALITY, id="b", forse=3),
        dict(PERSONALITY, id="c", clan="Crabb"),
        {k: v for k, v in PERSONALITY.items() if k != "chi"} | {"id": "d"},
        dict(PERSONALITY, id="e", cost="lots"),
        dict(PERSONALITY, id="f", deck="Fate"),
    ]
    path = write_json(project / "cards" / "l5r" / "bad.json", {"cards": bad})
    result = run("validate", cwd=project)
    assert result.code == 1
    err = result.err
    lines = path.read_text().splitlines()

    def at(text: str, nth: int = 0) -> str:  # file:line:col of the nth line holding text (a member: at its key)
        found = [(i, line) for i, line in enumerate(lines, 1) if text in line][nth]
        return f"{relative(str(path))}:{found[0]}:{len(found[1]) - len(found[1].lstrip()) + 1}"

    assert (
        f'{at("Personalty")} ($.cards[0].type): error: "Personalty" is not a valid type (hint: did you mean '
        "'Personality'?)" in err
    )
    assert f"{at('forse')} ($.cards[1].forse): error: unknown field 'forse' (hint: did you mean 'force'" in err
    assert f"{at('Crabb')} ($.cards[2].clan): error: \"Crabb\" is not a valid clan (hint: did you mean 'Crab'" in err
    assert f"{at('{', 4)} ($.cards[3]): error: missing required field 'chi'" in err  # a missing field: at its card
    assert f'{at("lots")} ($.cards[4].cost): error: "lots" does not match the expected form' in err
    assert f'{at("Fate")} ($.cards[5].deck): error: "Fate" should be "Dynasty"' in err
    assert "6 errors, 0 warnings" in err


@pytest.mark.parametrize(
    "raw, where, message",
    [
        (
            '{"id": "x",\n  "title": "y",\n}',
            ":3:1",
            "invalid JSON: Expecting property name enclosed in double quotes (hint: remove the trailing comma)",
        ),
        ('{"id": "x" // note\n}', ":1:12", "invalid JSON: Expecting ',' delimiter (hint: JSON has no comments)"),
        (
            '[{"id": "x"',
            ":1:12",
            "invalid JSON: Expecting ',' delimiter (hint: the file ends too early: is it cut short?)",
        ),
        ("", ":1:1", "file is empty"),
        (
            '{"id": "a", "id": "b", "title": "t", "type": "Event", "deck": "Dynasty"}',
            ":1:13 ($.id)",
            "key 'id' appears twice in one object: the first value would be lost",
        ),
    ],
)
def test_syntax_errors_are_located(run, project, raw, where, message):
    path = write_json(project / "cards" / "l5r" / "bad.json", None, raw)
    result = run("validate", cwd=project)
    assert result.code == 1
    assert relative(f"{path}{where}: error: {message}") in result.err


def test_non_utf8_is_located(run, project):
    path = project / "cards" / "l5r" / "latin1.json"
    path.write_bytes(b'{"id": "x",\n "title": "caf\xe9"}')
    result = run("validate", cwd=project)
    assert result.code == 1
    assert relative(f"{path}:2:15: error: not UTF-8: byte 0xe9 cannot be decoded") in result.err


def test_duplicate_ids_across_files(run, project):
    a = write_json(project / "cards" / "l5r" / "a.json", PERSONALITY)
    b = write_json(project / "cards" / "l5r" / "b.json", PERSONALITY)
    result = run("validate", cwd=project)
    assert result.code == 1
    assert relative(f"{b}:2:3 ($.id): error: duplicate id 'p1', first used at {a}::$.id") in result.err


def test_missing_art_is_reported_with_closest_file(run, project):
    cards = project / "cards" / "l5r"
    (cards / "art").mkdir(parents=True)
    (cards / "art" / "samurai.jpg").write_bytes(b"")
    path = write_json(cards / "a.json", dict(PERSONALITY, art="art/samurei.jpg"))
    result = run("validate", cwd=project)
    assert result.code == 0
    assert relative(f"{path}:12:3 ($.art): warning: art file not found") in result.err
    assert "did you mean 'samurai.jpg'?" in result.err


def test_unknown_game(run, project, tmp_path):
    path = write_json(project / "elsewhere" / "a.json", {"game": "l5rr", "cards": [PERSONALITY]})
    result = run("validate", path, cwd=project)
    assert result.code == 1
    assert relative(f"{path}:4:5 ($.cards[0]): error: unknown game 'l5rr' (hint: did you mean 'l5r'?)") in result.err


def test_game_from_option_and_unknown_option_game(run, project):
    path = write_json(project / "elsewhere" / "a.json", PERSONALITY)
    assert run("validate", path, "--game", "l5r", cwd=project).code == 0
    result = run("validate", path, "--game", "l5", cwd=project)
    assert result.code == 2
    assert "unknown game 'l5'" in result.err


def test_usage_errors_exit_2(run, project, tmp_path_factory):
    assert run("validate", "--nope", cwd=project).code == 2
    assert run("nope", cwd=project).code == 2
    empty = tmp_path_factory.mktemp("no-project")
    result = run("validate", cwd=empty)
    assert result.code == 2
    assert "no printer.toml" in result.err


def test_a_missing_path_is_a_usage_error_with_the_closest_name(run, project):
    result = run("validate", project / "nothing.json", cwd=project)
    assert result.code == 2
    assert "PATHS: error: " in result.err and "nothing.json: no such file or folder" in result.err
    (project / "cards.json").write_text("{}", encoding="utf-8")
    result = run("validate", project / "card.json", cwd=project)
    assert result.code == 2 and "(hint: did you mean 'cards.json'" in result.err
