"""The rules references of the five example games print cleanly (the README's main job)."""

from __future__ import annotations

import json
import re
import tomllib
from pathlib import Path

import pdfplumber
import pikepdf
import pytest

GAMES = ["l5r", "res-arcana", "arcanductor", "via-magica", "edelweiss"]


@pytest.mark.slow
@pytest.mark.parametrize("game", GAMES)
def test_example_game_reference_prints_without_problems(game, repo, run, tmp_path):
    result = run("--project", repo, "rules", game, "--out", tmp_path, "--strict")
    assert result.code == 0, result.err
    assert result.err == ""
    with pdfplumber.open(tmp_path / f"{game}-rules.pdf") as pdf:
        assert len(pdf.pages) >= 4
        contents = pdf.pages[1].extract_text()
        assert "Contents" in contents and "Reference" in contents
        # a hyphenated line ends in "-": Noto Serif CJK's U+2010 is a wide raised dash, set apart from the word
        hyphens = [c for page in pdf.pages for c in page.chars if c["text"] in "-\u2010" and "Serif" in c["fontname"]]
        assert hyphens and not [c for c in hyphens if c["text"] == "\u2010" and "CJK" in c["fontname"]]
    if game == "l5r":  # its cards draw no gradient: any shading would be a blurred shadow's tiles, whose seams print
        with pikepdf.open(tmp_path / f"{game}-rules.pdf") as pdf:
            assert not [o for o in pdf.objects if isinstance(o, pikepdf.Dictionary) and "/ShadingType" in o]


def _outline(folder: Path) -> tuple[list[int], list[str]]:
    """The heading levels and the ``printer`` blocks' kinds of an edition's chapters, in order."""
    levels, blocks = [], []
    for chapter in sorted(folder.glob("*.md")):
        for line in chapter.read_text(encoding="utf-8").splitlines():
            if heading := re.match(r"(#{1,6}) ", line):
                levels.append(len(heading.group(1)))
            elif line.startswith("```printer "):
                blocks.append(line.split()[1])
    return levels, blocks


@pytest.mark.parametrize("game", GAMES)
def test_each_game_has_a_japanese_edition_with_the_english_ones_sections_and_blocks(game, repo):
    english, japanese = repo / "rules" / game, repo / "rules" / game / "ja"
    assert (japanese / "rules.toml").is_file()
    assert _outline(japanese) == _outline(english)
    assert sorted(p.name for p in (japanese / "aids").glob("*.md")) == sorted(
        p.name for p in (english / "aids").glob("*.md")
    )
    # the same aids in the same numbers: a translation changes words, not what a player gets
    # the Japanese edition names every card type in Japanese (card index groups, format summaries)
    types = {
        c["type"] for f in (repo / "cards" / game).glob("*.json") for c in json.loads(f.read_text("utf-8"))["cards"]
    }
    assert types <= set(tomllib.loads((japanese / "rules.toml").read_text("utf-8")).get("types", {}))
    copies = [
        tomllib.loads((edition / "rules.toml").read_text("utf-8")).get("aid_copies", 1)
        for edition in (english, japanese)
    ]
    assert copies[0] == copies[1]


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("edition", ["", "ja"])
def test_an_icon_legend_says_what_each_icon_means_in_its_editions_language(game, edition, repo):
    """An edition that prints an icon legend names every icon of the game in its rules.toml [icons]: the fallback,
    the SVG's own comment, is a note in English for the designer, written in card-text markup."""
    folder = repo / "rules" / game / edition
    if not any("```printer icon-legend" in chapter.read_text("utf-8") for chapter in folder.glob("*.md")):
        pytest.skip("no icon legend")
    icons = {svg.stem for svg in (repo / "templates" / game / "icons").glob("*.svg")}
    meanings = tomllib.loads((folder / "rules.toml").read_text("utf-8")).get("icons", {})
    assert icons - set(meanings) == set()


@pytest.mark.slow
@pytest.mark.parametrize("game", GAMES)
def test_japanese_edition_prints_with_kinsoku_and_no_markup_left(game, repo, run, tmp_path):
    result = run("--project", repo, "rules", game, "--edition", "ja", "--out", tmp_path, "--strict")
    assert result.code == 0, result.err
    with pdfplumber.open(tmp_path / f"{game}-rules-ja.pdf") as pdf:
        assert "目次" in pdf.pages[1].extract_text()
        assert not [n for n, page in enumerate(pdf.pages) if "**" in (page.extract_text() or "")]
        lines: dict[tuple[int, int, int], list] = {}
        for n, page in enumerate(pdf.pages[2:]):
            for ch in page.chars:
                if 8 <= ch["size"] <= 11:
                    lines.setdefault((n, ch["x0"] > page.width / 2, round(ch["top"])), []).append(ch)
    firsts = {key: min(chars, key=lambda c: c["x0"]) for key, chars in lines.items()}
    # a column's text starts at its left edge; a line whose first character sits further right begins with an icon
    edges: dict[tuple[int, int], float] = {}
    for (n, column, _), ch in firsts.items():
        edges[n, column] = min(edges.get((n, column), ch["x0"]), ch["x0"])
    starts = [ch["text"] for (n, column, _), ch in firsts.items() if ch["x0"] < edges[n, column] + 1]
    assert len(starts) > 30
    assert [s for s in starts if s in "、。」）"] == []
