"""Reading decklists: plain text, Egg of P'an Ku ``.l5d`` and JSON deck files, on hand-written samples."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from printer.decks import DeckSyntaxError, Entry, load_decklist, read_decklist

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "decks"


def write(tmp_path: Path, name: str, text: str | bytes) -> Path:
    path = tmp_path / name
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8")
    return path


def entries(deck) -> list[tuple[int, str, str | None, int]]:
    return [(e.count, e.name, e.section, e.line) for e in deck.entries]


# --- plain text ---------------------------------------------------------------------------------

PLAIN = """\
# Ayame Kotei list – Kotei 2014 winner
1 The Paper Lantern Keep
Sensei: Willow Sensei

# Dynasty (40):
3 Rice Terrace
3x Salt Pans
2 x Quiet Tea House
1 Asahi Daisuke • Experienced 2
// a comment
1 Asahi Daisuke - exp   # keep this one

Fate: 40
# Fate – 40
3 Ring Of Quiet Water
"""  # "Fate: 40" and "# Fate – 40" are both headers


def test_plain_text_counts_sections_and_lines(tmp_path):
    deck, problems = read_decklist(write(tmp_path, "deck.txt", PLAIN))
    assert deck.syntax == "text" and problems == []
    assert entries(deck) == [
        (1, "The Paper Lantern Keep", None, 2),
        (1, "Willow Sensei", "Sensei", 3),
        (3, "Rice Terrace", "Dynasty", 6),
        (3, "Salt Pans", "Dynasty", 7),
        (2, "Quiet Tea House", "Dynasty", 8),
        (1, "Asahi Daisuke • Experienced 2", "Dynasty", 9),
        (1, "Asahi Daisuke - exp", "Dynasty", 11),
        (3, "Ring Of Quiet Water", "Fate", 15),
    ]
    assert deck.headers == {"Dynasty": 5, "Fate": 13}
    assert deck.total == 15


def test_comment_lines_are_not_headers(tmp_path):
    text = "# Tom Example – World Champion\n# This deck was posted by someone.\n# Greg Wong\n3 Rice Terrace\n"
    deck, problems = read_decklist(write(tmp_path, "deck.txt", text))
    assert problems == []
    assert entries(deck) == [(3, "Rice Terrace", None, 4)]


@pytest.mark.parametrize("suffix", [".txt", ".l5d"])
def test_a_header_whose_count_is_no_number_is_a_comment_said_so(tmp_path, suffix):
    text = (
        "# Dynasty (40)\n1 A\n# Fate (zz)\n1 B\n# Holdings (-1)\n1 C\n# Greg Wong (2nd place)\n# Sideboard (optional)\n"
    )
    deck, problems = read_decklist(write(tmp_path, f"deck{suffix}", text))
    assert entries(deck) == [(1, "A", "Dynasty", 2), (1, "B", "Dynasty", 4), (1, "C", "Dynasty", 6)]
    assert [(p.where.line, p.message) for p in problems if p.code == "deck-syntax"] == [
        (3, "'# Fate (zz)' is read as a comment: (zz) is not a count"),
        (5, "'# Holdings (-1)' is read as a comment: (-1) is not a count"),
    ]


def test_header_forms(tmp_path):
    text = (
        "# Dynasty (40):\n1 A\n# Fate: 40\n1 B\n# Pre-Game\n1 C\nHoldings (3):\n1 D\n# Fate – 40\n1 E\n"
        "Dynasty:\n1 F\nStronghold: 1 G\n"
    )
    deck, problems = read_decklist(write(tmp_path, "deck.txt", text))
    assert problems == []
    assert [e.section for e in deck.entries] == [
        "Dynasty",
        "Fate",
        "Pre-Game",
        "Holdings",
        "Fate",
        "Dynasty",
        "Stronghold",
    ]


def test_junk_lines_are_skipped_with_a_located_warning(tmp_path):
    text = "3 Rice Terrace\nProxy Holding: 1 Some Card\nThree Salt Pans\n"
    deck, problems = read_decklist(write(tmp_path, "deck.txt", text))
    assert entries(deck) == [(3, "Rice Terrace", None, 1)]
    assert [(p.severity, str(p.where).rsplit(":", 1)[1], p.code) for p in problems] == [
        ("warning", "2", "deck-syntax"),
        ("warning", "3", "deck-syntax"),
    ]
    assert "N Card Name" in problems[0].hint


def test_zero_count_is_skipped(tmp_path):
    deck, problems = read_decklist(write(tmp_path, "deck.txt", "0 Rice Terrace\n1 Salt Pans\n"))
    assert entries(deck) == [(1, "Salt Pans", None, 2)]
    assert str(problems[0].where).endswith(":1") and "between 1 and" in problems[0].message


def test_file_without_card_lines_is_an_error(tmp_path):
    deck, problems = read_decklist(write(tmp_path, "list.txt", "Kalani's Landing\nAll That Will Be Lost\n"))
    assert deck.entries == []
    assert [p.code for p in problems] == ["empty-deck"]
    assert problems[0].is_error and "2 other lines" in problems[0].message


@pytest.mark.parametrize(
    "content, code",
    [
        (b"\x00\x01\x02binary", "encoding"),
        (b"", "empty-deck"),
    ],
)
def test_unreadable_files(tmp_path, content, code):
    deck, problems = read_decklist(write(tmp_path, "deck.txt", content))
    assert [p.code for p in problems] == [code] and problems[0].is_error


def test_missing_file_and_folder(tmp_path):
    _, problems = read_decklist(tmp_path / "nope.txt")
    assert [p.code for p in problems] == ["not-found"]
    _, problems = read_decklist(tmp_path)
    assert [p.code for p in problems] == ["not-a-file"]


def test_byte_order_mark_and_windows_1252(tmp_path):
    deck, problems = read_decklist(write(tmp_path, "a.txt", "\ufeff1 Rice Terrace\n".encode("utf-8")))
    assert problems == [] and entries(deck) == [(1, "Rice Terrace", None, 1)]
    deck, problems = read_decklist(write(tmp_path, "b.txt", b"1 Asahi Daisuke \x95 Experienced\n"))
    assert [p.code for p in problems] == ["encoding"] and problems[0].severity == "warning"
    assert deck.entries[0].name == "Asahi Daisuke \u2022 Experienced"


def test_load_decklist_raises_deck_syntax_error(tmp_path):
    with pytest.raises(DeckSyntaxError) as info:
        load_decklist(tmp_path / "nope.txt")
    assert info.value.exit_code == 2 and info.value.problems[0].code == "not-found"
    assert load_decklist(FIXTURES / "ivory" / "legal.txt").total == 82


# --- .l5d ---------------------------------------------------------------------------------------

L5D = """\

# Pre-Game (1)

# Stronghold (1)
1 The Paper Lantern Keep (1)

# Dynasty (40)

# Holdings (18)
2 Rice Terrace
# Personalities (22)
1 Asahi Daisuke - exp2

# Fate (40)

# Items (10)
1 Kaze's Paper Fan - exp
"""


def test_l5d_sections_and_suffixes(tmp_path):
    deck, problems = read_decklist(write(tmp_path, "starter.l5d", L5D))
    assert problems == [] and deck.syntax == "l5d"
    assert entries(deck) == [
        (1, "The Paper Lantern Keep", "Stronghold", 5),
        (2, "Rice Terrace", "Holdings", 10),
        (1, "Asahi Daisuke - exp2", "Personalities", 12),
        (1, "Kaze's Paper Fan - exp", "Items", 17),
    ]
    assert deck.headers["Pre-Game"] == 2 and deck.headers["Fate"] == 14


# --- JSON ---------------------------------------------------------------------------------------


def test_json_deck_entries_carry_their_line(tmp_path):
    text = json.dumps(
        {
            "name": "t",
            "format": "l5r-ivory-extended",
            "cards": [
                {"count": 1, "name": "The Paper Lantern Keep", "section": "Stronghold"},
                {"count": 3, "name": "Rice Terrace"},
            ],
        },
        indent=2,
    )
    deck, problems = read_decklist(write(tmp_path, "deck.json", text))
    assert problems == []
    assert deck.syntax == "json" and deck.name == "t" and deck.format == "l5r-ivory-extended"
    lines = text.splitlines()
    assert [e.line for e in deck.entries] == [i + 1 for i, line in enumerate(lines) if line.strip() == "{"][1:]
    assert deck.entries[0] == Entry(1, "The Paper Lantern Keep", "Stronghold", deck.entries[0].line)
    assert deck.entries[1].section is None


def test_json_deck_fixture_matches_the_text_one():
    text_deck, _ = read_decklist(FIXTURES / "ivory" / "legal.txt")
    json_deck, problems = read_decklist(FIXTURES / "ivory" / "legal.json")
    assert problems == []
    assert json_deck.total == text_deck.total == 82


def test_json_deck_schema_problems_are_located(tmp_path):
    text = '{"cards": [{"count": 0, "name": "Rice Terrace"}, {"count": 1, "nmae": "Salt Pans"}], "colour": 1}'
    deck, problems = read_decklist(write(tmp_path, "deck.json", text))
    assert deck.entries == []
    wheres = {str(p.where).split("::", 1)[1] for p in problems}
    assert {"$.cards[0].count", "$.cards[1]", "$.colour"} <= wheres | {w.rsplit(".", 1)[0] for w in wheres}
    assert all(p.is_error and p.code == "schema" for p in problems)
    unknown = next(p for p in problems if "nmae" in p.message)
    assert "name" in unknown.hint


def test_json_syntax_error_has_line_and_column(tmp_path):
    deck, problems = read_decklist(write(tmp_path, "deck.json", '{"cards": [\n  {"count": 1,}\n]}'))
    assert problems[0].code == "json-syntax" and str(problems[0].where).endswith(":2:15")


def test_json_detected_by_content_without_suffix(tmp_path):
    deck, problems = read_decklist(write(tmp_path, "deck", '{"cards": [{"count": 2, "name": "Salt Pans"}]}'))
    assert problems == [] and deck.syntax == "json" and entries(deck) == [(2, "Salt Pans", None, 1)]


def test_json_deck_lines_are_found_past_strings_that_look_like_cards(tmp_path):
    text = (
        '{"name": "a { b [ c",\n'
        ' "notes": "{\\"cards\\": [{\\"count\\": 9}]}",\n'
        ' "cards": [\n'
        '   {"count": 1, "name": "Rice Terrace } ]", "section": "Holdings"},\n'
        "\n"
        '   {"count": 2, "name": "Salt Pans"}]}'
    )
    deck, problems = read_decklist(write(tmp_path, "deck.json", text))
    assert problems == []
    assert [e.line for e in deck.entries] == [4, 6] and deck.headers["Holdings"] == 4


def test_the_json_deck_reader_uses_the_documented_json_api_only():
    import ast

    import printer.decks.readers.json_deck as module

    tree = ast.parse(Path(module.__file__).read_text(encoding="utf-8"))
    named = {node.attr for node in ast.walk(tree) if isinstance(node, ast.Attribute)}
    imported = {alias.name for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names}
    assert not {"WHITESPACE", "JSONObject", "py_make_scanner", "scan_once", "parse_object"} & named
    assert not {"json.decoder", "json.scanner"} & imported
