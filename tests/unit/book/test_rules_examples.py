"""The rules references of the five example games print cleanly (the README's main job)."""

from __future__ import annotations

import pdfplumber
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


@pytest.mark.slow
def test_japanese_edition_of_edelweiss(repo, run, tmp_path):
    result = run("--project", repo, "rules", "edelweiss", "--edition", "ja", "--out", tmp_path, "--strict")
    assert result.code == 0, result.err
    with pdfplumber.open(tmp_path / "edelweiss-rules-ja.pdf") as pdf:
        assert "目次" in pdf.pages[1].extract_text()
        lines: dict[tuple[int, int, int], list] = {}
        for n, page in enumerate(pdf.pages[2:]):
            for ch in page.chars:
                if 8 <= ch["size"] <= 11:
                    lines.setdefault((n, ch["x0"] > page.width / 2, round(ch["top"])), []).append(ch)
    starts = [min(chars, key=lambda c: c["x0"])["text"] for chars in lines.values()]
    assert len(starts) > 30
    assert [s for s in starts if s in "、。」）"] == []
