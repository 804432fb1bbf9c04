"""``printer rules``: the rules reference PDF, read back with pdfplumber and pypdf.

One small project (its own cards, chapters and a Japanese edition) is printed once per module; the tests
read the PDFs: table of contents against the pages where headings land, the embedded card's box, the card
index, icons as vector drawings, kinsoku in Japanese lines.
"""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pdfplumber
import pypdfium2
import pytest
from pypdf import PdfReader

from printer.book import aid_items
from printer.project import load_project

MM = 72 / 25.4

CARDS = {
    "game": "l5r",
    "cards": [
        {
            "id": "t-hiro",
            "title": "Test Hiro",
            "type": "Personality",
            "deck": "Dynasty",
            "clan": "Crab",
            "unique": True,
            "cost": 6,
            "force": 3,
            "chi": 2,
            "honor_requirement": 1,
            "personal_honor": 1,
            "keywords": ["Samurai"],
            "text": "**Battle:** {bow} Hiro: a test ability.",
            "set": "Test Set",
            "number": 2,
        },
        {
            "id": "t-mine",
            "title": "Alpha Mine",
            "type": "Holding",
            "deck": "Dynasty",
            "cost": 3,
            "gold_production": 2,
            "text": "{bow}: Produce {gold:2}.",
            "set": "Test Set",
            "number": 1,
        },
        {
            "id": "t-ring",
            "title": "Ring of Test Water",
            "type": "Ring",
            "deck": "Fate",
            "element": "Water",
            "focus": 3,
            "text": "A test ring.",
            "set": "Other Set",
            "number": 7,
        },
    ],
}

RULES_TOML = """
title = "Test Rules"
subtitle = "A reference for tests"
version = "Version 9"
cover_cards = ["t-ring"]
[glossary]
Bow = "Turn a card sideways {bow}."
Zeta = "The last term."
Alpha = "The first term."
[icons]
gold = "Gold coin meaning"
"""

CHAPTER_1 = (
    """# Getting started

Opening paragraph with an icon {gold} inline and a footnote.[^n]

## Winning the game

"""
    + "Filler text to push headings around the pages. " * 60
    + """

::: example A worked example
The attacker bows {bow} a unit.
:::

```printer card t-hiro
Hiro, embedded.
```

[^n]: The footnote body.
"""
)

CHAPTER_2 = (
    """# Playing a turn

## Phases of play

"""
    + "More filler so that this chapter runs over a page. " * 120
    + """

## Late section

See [the start](#getting-started).

# Reference tables

## Icon legend

```printer icon-legend icons=gold,bow,force
```

## Glossary of terms

```printer glossary
```

## Index of cards

```printer card-index sort=type fields=cost:Gold,focus:Fo
```

## Format summary

```printer format l5r-ivory-extended
```
"""
)

FORBIDDEN_START = "、。」）"


def japanese_paragraph(start: int = 1) -> str:
    """A long paragraph whose sentences of every length put punctuation at every position of a line."""
    parts = []
    for k in range(start, start + 39):
        parts.append(
            "山" * k + "、" + "川" * (k % 7 + 1) + "。「" + "森" * (k % 5 + 1) + "」（" + "空" * (k % 3 + 1) + "）"
        )
    return "".join(parts)


JA_TOML = 'title = "テストのルール"\nlang = "ja"\n'
JA_CHAPTER = "# 日本語の章\n\n" + japanese_paragraph() + "\n\n" + japanese_paragraph(5) + "\n"

AID = """# Test aid

1. **Draw** a card {bow}.
2. **Act**.

---

# Aid back

The back side.
"""


@pytest.fixture(scope="module")
def rules_project(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("rules")
    (root / "printer.toml").write_text('[games.l5r]\nname = "L5R"\ncard_size = "poker"\n', encoding="utf-8")
    (root / "cards" / "l5r").mkdir(parents=True)
    (root / "cards" / "l5r" / "cards.json").write_text(json.dumps(CARDS), encoding="utf-8")
    rules = root / "rules" / "l5r"
    (rules / "ja").mkdir(parents=True)
    (rules / "aids").mkdir()
    (rules / "rules.toml").write_text(RULES_TOML, encoding="utf-8")
    (rules / "01-start.md").write_text(CHAPTER_1, encoding="utf-8")
    (rules / "02-turn.md").write_text(CHAPTER_2, encoding="utf-8")
    (rules / "aids" / "summary.md").write_text(AID, encoding="utf-8")
    (rules / "ja" / "rules.toml").write_text(JA_TOML, encoding="utf-8")
    (rules / "ja" / "01.md").write_text(JA_CHAPTER, encoding="utf-8")
    return root


@pytest.fixture(scope="module")
def books(rules_project: Path) -> dict[str, Path]:
    from printer.cli import main

    try:
        main(["--project", str(rules_project), "rules", "l5r"])
    except SystemExit as exc:
        assert exc.code == 0
    build = rules_project / "build"
    return {"en": build / "l5r-rules.pdf", "ja": build / "l5r-rules-ja.pdf"}


@pytest.fixture(scope="module")
def en(books):
    with pdfplumber.open(books["en"]) as pdf:
        yield pdf


def words(page, **kw):
    return page.extract_words(extra_attrs=["size"], keep_blank_chars=False, **kw)


def toc_entries(page) -> list[tuple[str, int]]:
    """(title, page number) of every contents line: words before the leader dots, and the last number."""
    lines: dict[int, list] = {}
    for w in words(page):
        lines.setdefault(round(w["top"]), []).append(w)
    entries = []
    for top in sorted(lines):
        line = sorted(lines[top], key=lambda w: w["x0"])
        text = [w["text"] for w in line]
        if len(text) >= 2 and text[-1].isdigit() and any(set(t) <= {"."} for t in text):
            title = " ".join(t for t in text[:-1] if not set(t) <= {"."}).rstrip(" .")
            entries.append((title, int(text[-1])))
    return entries


@pytest.mark.slow
def test_toc_page_numbers_are_the_pages_where_headings_land(en):
    entries = toc_entries(en.pages[1])
    titles = [t for t, _ in entries]
    assert titles == [
        "Getting started",
        "Winning the game",
        "Playing a turn",
        "Phases of play",
        "Late section",
        "Reference tables",
        "Icon legend",
        "Glossary of terms",
        "Index of cards",
        "Format summary",
    ]
    assert len({n for _, n in entries}) >= 3, "the headings should spread over several pages"
    body = min(w["size"] for w in words(en.pages[2]))
    for title, number in entries:
        page = en.pages[number - 1]
        big = " ".join(w["text"] for w in words(page) if w["size"] > body + 2)
        assert title in big, f"{title!r} is not a heading on page {number}"
        # The printed page number (the footer) is the same number.
        footer = [w["text"] for w in words(page) if w["top"] > page.height - 20 * MM]
        assert str(number) in footer


@pytest.mark.slow
def test_cover_and_running_headers(en):
    cover = en.pages[0].extract_text()
    assert "Test Rules" in cover and "A reference for tests" in cover and "Version 9" in cover
    top = lambda p: " ".join(w["text"] for w in words(p) if w["bottom"] < 22 * MM)
    # Left (even) pages carry the book title, right (odd) pages the chapter.
    assert "Test Rules" in top(en.pages[3])
    assert "Getting started" in top(en.pages[2])
    assert (
        re.search(r"\d", " ".join(w["text"] for w in words(en.pages[0]) if w["top"] > en.pages[0].height - 15 * MM))
        is None
    )


@pytest.mark.slow
def test_embedded_card_is_a_card_sized_box_with_the_card(en):
    w, h = 63 * MM, 88 * MM
    found = []
    for number, page in enumerate(en.pages[2:], start=3):
        boxes = [r for r in page.rects if abs(r["width"] - w) < 1 and abs(r["height"] - h) < 1]
        if boxes and "Test Hiro" in page.extract_text():
            found.append(number)
            box = boxes[0]
            inside = page.crop((box["x0"], box["top"], box["x1"], box["bottom"])).extract_text()
            assert "Test Hiro" in inside and "Hiro, embedded." not in inside
    assert found, "no 63 x 88 mm card box with the card's title"


@pytest.mark.slow
def test_card_index_lists_every_card_grouped_by_type(en):
    page = next(
        p for p in en.pages if "Index of cards" in (p.extract_text() or "") and "Alpha Mine" in p.extract_text()
    )
    text = page.extract_text()
    for card in CARDS["cards"]:
        assert card["title"] in text
    order = [text.index(s) for s in ("Holding", "Alpha Mine", "Personality", "Test Hiro", "Ring", "Ring of Test Water")]
    assert order == sorted(order)


@pytest.mark.slow
def test_icons_are_vector_drawings(en, books):
    number, page = next((i, p) for i, p in enumerate(en.pages) if "Gold coin meaning" in (p.extract_text() or ""))
    assert page.images == [], "icons must not be raster images"
    xobjects = PdfReader(books["en"]).pages[number]["/Resources"]["/XObject"]
    assert {x.get_object()["/Subtype"] for x in xobjects.values()} == {"/Form"}
    label = next(w for w in words(page) if w["text"] == "Gold")
    middle = (label["top"] + label["bottom"]) / 2
    near = [c for c in page.curves if c["x1"] <= label["x0"] and abs((c["top"] + c["bottom"]) / 2 - middle) < 8]
    assert near, "no vector drawing beside the legend entry"


@pytest.mark.slow
def test_glossary_and_format_summary(en):
    text = "\n".join(p.extract_text() or "" for p in en.pages)
    assert text.index("The first term.") < text.index("Turn a card sideways") < text.index("The last term.")
    assert "Advance Warning" in text and re.search(r"at\s+least\s+40", text)


@pytest.mark.slow
def test_an_edition_prints_card_types_in_its_own_words(rules_project, tmp_path, run):
    """``types`` in rules.toml: the card index's groups and the format summary's sections print the edition's name
    of each type; a name no card has is a warning with the closest type."""
    root = tmp_path / "p"
    shutil.copytree(rules_project, root, ignore=shutil.ignore_patterns("build", "sheets"))
    toml = root / "rules" / "l5r" / "rules.toml"
    toml.write_text(toml.read_text("utf-8") + '\n[types]\nPersonality = "家臣"\nHoldng = "資産"\n', encoding="utf-8")
    result = run("--project", root, "rules", "l5r", "--edition", "main", "--out", tmp_path / "out")
    assert result.code == 0, result.err
    assert re.search(
        r"rules\.toml::\$\.types\.Holdng: warning: no l5r card has the type 'Holdng' \(hint: did you mean 'Holding'",
        result.err,
    )
    with pdfplumber.open(tmp_path / "out" / "l5r-rules.pdf") as pdf:
        text = "\n".join(p.extract_text() or "" for p in pdf.pages)
    index = text[text.rindex("Index of cards") :]
    assert index.index("Holding") < index.index("Alpha Mine") < index.index("家臣") < index.index("Test Hiro")
    assert "Personality" not in index[: index.index("Format summary")]
    summary = index[index.index("Format summary") :]
    assert re.search(r"Dynasty at least 40 家臣, Holding, Event", summary)  # the section's types


@pytest.mark.slow
def test_footnote_at_the_foot_of_its_page(en):
    page = next(p for p in en.pages if "The footnote body." in (p.extract_text() or ""))
    note = next(w for w in words(page) if w["text"] == "footnote" and w["size"] < 8)
    assert note["top"] > page.height * 0.75


@pytest.mark.slow
def test_japanese_lines_never_start_with_closing_punctuation(books):
    with pdfplumber.open(books["ja"]) as pdf:
        lines: dict[tuple[int, int, int], list] = {}
        for n, page in enumerate(pdf.pages[2:]):
            for ch in page.chars:
                if ch["size"] < 8 or ch["size"] > 11:
                    continue  # running heads, footers and headings
                column = 0 if ch["x0"] < page.width / 2 else 1
                lines.setdefault((n, column, round(ch["top"])), []).append(ch)
        starts = [min(chars, key=lambda c: c["x0"])["text"] for chars in lines.values()]
        text = "".join(c["text"] for chars in lines.values() for c in chars)
    assert len(starts) > 40 and text.count("。") > 60
    bad = [s for s in starts if s in FORBIDDEN_START]
    assert bad == []


@pytest.mark.slow
def test_a5_and_letter_page_sizes(rules_project, run):
    for paper, size in (("A5", (148, 210)), ("Letter", (215.9, 279.4))):
        out = rules_project / f"out-{paper}"
        result = run("--project", rules_project, "rules", "l5r", "--edition", "main", "--paper", paper, "--out", out)
        assert result.code == 0, result.err
        box = PdfReader(out / "l5r-rules.pdf").pages[3].mediabox
        assert (round(float(box.width) / MM, 1), round(float(box.height) / MM, 1)) == size


@pytest.mark.slow
def test_aids_print_on_card_sheets(rules_project, run):
    project = load_project(rules_project)
    items, problems = aid_items(project, project.games["l5r"])
    assert problems == [] and len(items) == 1
    assert "Test aid" in items[0].front_html and "Aid back" in items[0].back_html
    result = run("--project", rules_project, "build", "l5r", "--out", rules_project / "sheets")
    assert result.code == 0, result.err
    with pdfplumber.open(rules_project / "sheets" / "l5r.pdf") as pdf:
        assert "Test aid" in pdf.pages[0].extract_text()
        assert "Aid back" in pdf.pages[1].extract_text()
        words = pdf.pages[0].extract_words()
        (word,) = [w for w, after in zip(words, words[1:]) if (w["text"], after["text"]) == ("Test", "aid")]
    # like a card, the aid's background runs 3 mm into the bleed: below its slot (the last face, nothing under it) the
    # accent colour 1.5 mm past the trim, white past the bleed (A4, poker cards 3 x 3, centred)
    column, row = int((word["x0"] / MM - 10.5) // 63), int((word["top"] / MM - 16.5) // 88)
    x, bottom = 10.5 + (column + 0.5) * 63, 16.5 + (row + 1) * 88
    document = pypdfium2.PdfDocument(str(rules_project / "sheets" / "l5r.pdf"))
    try:
        image = document[0].render(scale=100 / 72).to_pil().convert("RGB")
    finally:
        document.close()
    inside, outside = (image.getpixel((round(x / 25.4 * 100), round((bottom + d) / 25.4 * 100))) for d in (1.5, 4.5))
    assert min(inside) < 200 and min(outside) > 235, (inside, outside)


def test_bad_blocks_are_reported_with_location_and_hint(tmp_path, run, rules_project):
    root = tmp_path / "p"
    root.mkdir()
    (root / "printer.toml").write_text((rules_project / "printer.toml").read_text(), encoding="utf-8")
    shutil.copytree(rules_project / "cards", root / "cards")  # a link out of the project would be refused
    rules = root / "rules" / "l5r"
    rules.mkdir(parents=True)
    (rules / "rules.toml").write_text('titel = "x"\n', encoding="utf-8")
    (rules / "a.md").write_text(
        "# A\n\n{glod} here\n\n```printer card-indx\n```\n\n```printer card t-hirro\n```\n", encoding="utf-8"
    )
    target = root / "build" / "l5r-rules.pdf"
    target.parent.mkdir()
    target.write_bytes(b"old")
    result = run("--project", root, "rules", "l5r")
    assert result.code == 1
    assert re.search(r"rules\.toml:1:1: error: unknown setting 'titel' \(hint: did you mean 'title'", result.err)
    assert target.read_bytes() == b"old"
    (rules / "rules.toml").write_text('title = "x"\n', encoding="utf-8")
    result = run("--project", root, "rules", "l5r")
    assert result.code == 1
    assert re.search(
        r"a\.md:5:1: error: unknown printer block 'card-indx' \(hint: did you mean 'card-index'", result.err
    )
    assert re.search(r"a\.md:3:1: warning: unknown icon \{glod\} \(hint: did you mean 'gold'", result.err)
    assert re.search(r"a\.md:8:1: warning: no l5r card with id or name 't-hirro'.*did you mean 't-hiro'", result.err)
    assert "Traceback" not in result.err
    assert target.read_bytes() == b"old"


def test_unknown_game_and_missing_rules_are_usage_errors(run, rules_project):
    result = run("--project", rules_project, "rules", "l5rr")
    assert result.code == 2 and "did you mean 'l5r'" in result.err
    result = run("--project", rules_project, "rules", "l5r", "--edition", "fr")
    assert result.code == 2 and "--edition: error: --edition 'fr': l5r has no such edition" in result.err
    assert "(hint: editions: main, ja)" in result.err or "(hint: editions: ja, main)" in result.err
