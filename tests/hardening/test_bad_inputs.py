"""The bad-input corpus: every case in tests/bad/cases.toml gives its exact messages, exit code, and no output.

Each case sets up a fresh project (``printer.toml`` with the ``l5r`` game)
beside a folder ``outside/`` that the project must never read, copies or
generates its input files there, runs one printer command in-process and
checks:

- the exit code (0 ok, 1 invalid data or illegal deck, 2 usage error or
  unreadable input);
- stderr, line by line, exactly as the manifest says (locations, messages,
  hints and the count line), and the stdout lines it names;
- no traceback anywhere;
- no file written or changed in the project, except the art cache under
  ``build/.cache`` and the outputs the case names in ``writes``.

The manifest's placeholders: ``{file}`` is the case's first input file,
``{project}`` the project folder, ``{outside}`` the folder beside it,
``{repo}`` the repository, ``{fixtures}`` ``tests/fixtures``. ``pdf_text``
lists words the written PDF must show (read back with pdfplumber). Inputs named
``gen:NAME`` are made by :data:`GENERATORS` (binary files, files of tens of
megabytes, images), ``dir:`` is an empty folder and ``link:TARGET`` a
symbolic link. The README ("Bad input, warnings, containment") describes the policy.
"""

from __future__ import annotations

import io
import json
import os
import struct
import tomllib
import zlib
from pathlib import Path

import pytest

from printer.cli.output import relative

REPO = Path(__file__).resolve().parents[2]
BAD = REPO / "tests" / "bad"
CASES = tomllib.loads((BAD / "cases.toml").read_text(encoding="utf-8"))["case"]

PRINTER_TOML = (
    '[games.l5r]\nname = "L5R"\ncard_size = "poker"\nback_field = "deck"\n'
    'backs = { Dynasty = "dynasty", Fate = "fate", "Pre-Game" = "pregame" }\n'
)

CARD = {"id": "gen-card", "title": "Generated Card", "type": "Event", "deck": "Dynasty"}


# --- generated inputs ------------------------------------------------------------------------------


def _card_json(**extra) -> str:
    return json.dumps(dict(CARD, **extra), indent=2, ensure_ascii=False)


def _png(width: int, height: int) -> bytes:
    """A PNG whose header says ``width`` x ``height`` (1-bit grey) and whose data is one empty row: enough for
    Pillow to read the size (and refuse a decompression bomb) without making one."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    header = struct.pack(">IIBBBBB", width, height, 1, 0, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(b"\x00")) + chunk(b"IEND", b"")


def _jpeg(size=(750, 1050)) -> bytes:
    from PIL import Image

    buffer = io.BytesIO()
    Image.new("RGB", size, (150, 60, 40)).save(buffer, "JPEG", quality=80)
    return buffer.getvalue()


def _legal_deck() -> str:
    return (REPO / "tests" / "fixtures" / "decks" / "ivory" / "legal.txt").read_text(encoding="utf-8")


GENERATORS = {
    # card files
    "bom-card": lambda: b"\xef\xbb\xbf" + _card_json().encode(),
    "utf16-card": lambda: _card_json().encode("utf-16"),
    "latin1-card": lambda: _card_json(title="Caf\u00e9 Samurai").encode("latin-1"),
    "crlf-card": lambda: _card_json().replace("\n", "\r\n").encode(),
    "crlf-trailing-comma": lambda: b'{\r\n  "id": "x",\r\n  "title": "y",\r\n}\r\n',
    "png-as-json": lambda: _png(4, 4),
    "fifty-mb-card": lambda: (_card_json()[:-1] + " " * (50_000_000 - len(_card_json())) + "}").encode(),
    "over-limit-card": lambda: b'{"id": "x"' + b" " * (50 * 2**20) + b"}",
    "deep-nesting": lambda: b"[" * 100_000 + b"]" * 100_000,
    "long-title": lambda: _card_json(title="a" * 1_000_000).encode(),
    # decklists
    "deck-cp1252": lambda: (
        _legal_deck()
        .replace("Asahi Daisuke &#149; Experienced", "Asahi Daisuke \u2022 Experienced")
        .replace("\u2013", "-")
        .replace("\u2019", "'")
        .encode("cp1252")
    ),
    "deck-binary": lambda: b"\x00\x01\x02PK\x03\x04" + bytes(range(256)) * 4,
    "deck-utf16": lambda: _legal_deck().encode("utf-16"),
    "deck-too-large": lambda: ("1 Rice Terrace\n" * 80_000).encode(),
    # art
    "jpeg": _jpeg,
    "truncated-jpeg": lambda: _jpeg()[:2000],
    "not-an-image": lambda: b"This is a text file with a .png name.\n",
    "bomb-png": lambda: _png(20_000, 20_000),
    "large-png": lambda: _png(10_000, 10_000),  # 100 million pixels: over Pillow's warning limit, under its error limit
    # templates
    "latin1-template": lambda: '<div class="card">Caf\u00e9 {{ card.title }}</div>\n'.encode("latin-1"),
}


# --- the harness -----------------------------------------------------------------------------------


def _places(tmp_path: Path) -> dict[str, str]:
    return {
        "project": str(tmp_path / "project"),
        "outside": str(tmp_path / "outside"),
        "repo": str(REPO),
        "fixtures": str(REPO / "tests" / "fixtures"),
    }


def _fill(text: str, places: dict[str, str]) -> str:
    for key, value in places.items():
        text = text.replace("{" + key + "}", value)
    return text


def set_up(case: dict, tmp_path: Path) -> dict[str, str]:
    """Make the project and the outside folder, put the case's files in place; returns the placeholders."""
    places = _places(tmp_path)
    project, outside = Path(places["project"]), Path(places["outside"])
    (project / "cards" / "l5r").mkdir(parents=True)
    (project / "printer.toml").write_text(PRINTER_TOML, encoding="utf-8")
    outside.mkdir()
    (outside / "outside.css").write_text(".card { color: red; }\n", encoding="utf-8")
    (outside / "picture.jpg").write_bytes(_jpeg((300, 200)))
    if case.get("base") == "l5r":
        (project / "cards" / "l5r" / "cards.json").write_text(
            (BAD / "good-cards.json").read_text(encoding="utf-8"), encoding="utf-8"
        )
    first = None
    for dest, source in case.get("files", {}).items():
        path = project / dest
        path.parent.mkdir(parents=True, exist_ok=True)
        if source.startswith("gen:"):
            path.write_bytes(GENERATORS[source[4:]]())
        elif source == "dir:":
            path.mkdir()
        elif source.startswith("link:"):
            path.symlink_to(_fill(source[5:], places))
        else:
            path.write_bytes(_fill((BAD / source).read_text(encoding="utf-8"), places).encode("utf-8"))
        first = first or path
    places["file"] = str(first) if first else ""
    return places


def snapshot(folder: Path) -> dict[str, tuple[int, int]]:
    """Every file under ``folder`` (outside ``build/.cache``) with its size and modification time."""
    found = {}
    for path in folder.rglob("*"):
        relative = path.relative_to(folder).as_posix()
        if relative.startswith("build/.cache") or not path.is_file() or path.is_symlink():
            continue
        stat = path.stat()
        found[relative] = (stat.st_size, stat.st_mtime_ns)
    return found


def stderr_lines(err: str) -> list[str]:
    """stderr as lines, without the progress bar's redraws (a bare label repeated) and blank lines."""
    return [line.rstrip() for line in err.splitlines() if line.strip()]


def _renders(case: dict) -> bool:
    """A case whose command lays pages out (build, rules): part of CI, not of the edit loop (marked slow)."""
    return any(arg in ("build", "rules") for arg in case["args"][:3])


@pytest.mark.parametrize(
    "case",
    [pytest.param(c, marks=pytest.mark.slow) if _renders(c) else c for c in CASES],
    ids=[c["id"] for c in CASES],
)
def test_bad_input(case, run, tmp_path):
    places = set_up(case, tmp_path)
    project = Path(places["project"])
    before = snapshot(project)
    args = [_fill(a, places) for a in case["args"]]
    result = run(*args, cwd=project)
    output = result.out + result.err
    assert "Traceback" not in output, output
    # printer shows paths inside the current folder (here the project) relative to it
    expected = [relative(_fill(line, places)) for line in case["expect"]]
    assert stderr_lines(relative(result.err)) == expected, result.err
    for line in case.get("expect_out", []):
        assert relative(_fill(line, places)) in relative(result.out).splitlines(), result.out
    assert result.code == case["exit"], output
    after = snapshot(project)
    written = {name for name in after if before.get(name) != after[name]}
    assert written == set(case.get("writes", [])), f"files written: {sorted(written)}"
    if case.get("pdf_text"):  # what the written PDF shows (a labelled placeholder, say), read back from the PDF
        import pdfplumber

        with pdfplumber.open(project / case["writes"][0]) as pdf:
            text = " ".join(" ".join((page.extract_text() or "").split()) for page in pdf.pages)
        for words in case["pdf_text"]:
            assert words in text, text


def test_every_corpus_file_is_used():
    """Each file under tests/bad/ is the input of some case (no stale, untested files)."""
    used = {"good-cards.json", "cases.toml"} | {source for case in CASES for source in case.get("files", {}).values()}
    files = {p.relative_to(BAD).as_posix() for p in BAD.rglob("*") if p.is_file()}
    assert files - used == set()


def test_every_generator_is_used():
    used = {source[4:] for case in CASES for source in case.get("files", {}).values() if source.startswith("gen:")}
    assert set(GENERATORS) - used == set()


def test_case_ids_are_unique_and_described():
    ids = [c["id"] for c in CASES]
    assert len(ids) == len(set(ids))
    assert all(c.get("what") for c in CASES)
    assert all(c["exit"] in (0, 1, 2) for c in CASES)


@pytest.mark.parametrize("case", [c for c in CASES if c.get("writes")], ids=lambda c: c["id"])
def test_cases_that_write_say_why(case):
    """Only warnings-only cases write their output (a placeholder for unreadable art, say); --strict must not."""
    assert case["exit"] == 0 and "--strict" not in case["args"]


# --- decklist headers in any language (printer/decks/parse.py has the rule) -------------------------

HEADERS = [
    ("# Dynasty", "Dynasty"),
    ("# 先攻", "先攻"),
    ("# シグニフィケータ", "シグニフィケータ"),
    ("# 1巡目", "1巡目"),
    ("# Player 1", "Player 1"),
    ("# Игрок 2", "Игрок 2"),
    ("# Round 1:", "Round 1"),
    ("# Dynasty (40):", "Dynasty"),
    ("# Fate: 40", "Fate"),
    ("# Dynasty – 40", "Dynasty"),
    ("# First player:", "First player"),
    ("# Pre-Game", "Pre-Game"),
    ("# 先攻（２０）：", "先攻"),
    ("## Holdings (18)", "Holdings"),
    ("#Dynasty", "Dynasty"),
    ("# खिलाड़ी", "खिलाड़ी"),
    ("# Dealt hand:", "Dealt hand"),
]
COMMENTS = [
    "# Greg Wong",
    "# Top 4 Kotei",
    "# Tom Kirchgensner – World Champion",
    "# Player – Event",
    "# 2023",
    "# Note: swap later",
    "# 1st Place SnM 9/2023",
    "# Kitsu honour deck – Kotei 2014",
    "# Dealt hand",
    "#",
    "# This deck was posted by someone, and it is long.",
    "// Dynasty",
]


@pytest.mark.parametrize("line, section", HEADERS)
def test_a_short_hash_line_in_any_language_is_a_section_header(tmp_path, line, section):
    from printer.decks import read_decklist

    path = tmp_path / "deck.txt"
    path.write_text(f"{line}\n3 Rice Terrace\n", encoding="utf-8")
    deck, problems = read_decklist(path)
    assert problems == [] and [(e.section, e.line) for e in deck.entries] == [(section, 2)]
    assert deck.headers == {section: 1}


@pytest.mark.parametrize("line", COMMENTS)
def test_a_hash_line_that_is_clearly_prose_is_a_comment(tmp_path, line):
    from printer.decks import read_decklist

    path = tmp_path / "deck.txt"
    path.write_text(f"{line}\n3 Rice Terrace\n", encoding="utf-8")
    deck, problems = read_decklist(path)
    assert problems == [] and [e.section for e in deck.entries] == [None] and deck.headers == {}


# --- the warnings policy: --strict everywhere --------------------------------------------------------

COMMANDS_WITH_WARNINGS = [
    ["validate"],
    ["build"],
    ["rules"],
    ["deck", "check"],
    ["import", "oracle"],
    ["import", "tarot"],
    ["import", "res-arcana"],
    ["import", "via-magica"],
]


@pytest.mark.parametrize("command", COMMANDS_WITH_WARNINGS, ids=" ".join)
def test_every_command_with_warnings_takes_strict(run, command):
    result = run(*command, "--help")
    assert result.code == 0 and "--strict" in result.out


TAROT = [
    "The Fool",
    "The Magician",
    "The High Priestess",
    "The Empress",
    "The Emperor",
    "The Hierophant",
    "The Lovers",
    "The Chariot",
    "Strength",
    "The Hermit",
    "Wheel of Fortune",
    "Justice",
    "The Hanged Man",
    "Death",
    "Temperance",
    "The Devil",
    "The Tower",
    "The Star",
    "The Moon",
    "The Sun",
    "Judgement",
    "The World",
]


def test_import_strict_turns_its_warnings_into_errors(run, tmp_path):
    source = tmp_path / "tarot.json"
    cards = [{"name": n, "rank": i, "suit": "major"} for i, n in enumerate(TAROT)] + [
        {"name": "Two of Cups", "rank": 2, "suit": "cups"}
    ]
    source.write_text(json.dumps({"tarot_interpretations": cards}), encoding="utf-8")
    plain = run("import", "tarot", source, "--out", tmp_path / "a")
    assert plain.code == 0 and f"{source}::$.tarot_interpretations: warning: 1 minor arcana" in plain.err
    strict = run("import", "tarot", source, "--out", tmp_path / "b", "--strict")
    assert strict.code == 1 and f"{source}::$.tarot_interpretations: error: 1 minor arcana" in strict.err
    assert "1 error, 0 warnings" in strict.err


if os.environ.get("PRINTER_RECORD_CORPUS"):  # pragma: no cover - a helper for writing cases.toml

    def test_record(run, tmp_path_factory):
        """Write each case's actual stderr and exit code, as TOML, to the file $PRINTER_RECORD_CORPUS: to review."""
        out = []
        for case in CASES:
            tmp = tmp_path_factory.mktemp(case["id"])
            places = set_up(case, tmp)
            result = run(*[_fill(a, places) for a in case["args"]], cwd=Path(places["project"]))
            lines = stderr_lines(result.err)
            for key in ("file", "project", "outside", "fixtures", "repo"):
                if places.get(key):
                    lines = [line.replace(places[key], "{" + key + "}") for line in lines]
            out.append(f"\n# {case['id']}\nexit = {result.code}\nexpect = [")
            out += ["  " + json.dumps(line, ensure_ascii=False) + "," for line in lines]
            out.append("]")
        Path(os.environ["PRINTER_RECORD_CORPUS"]).write_text("\n".join(out) + "\n", encoding="utf-8")
