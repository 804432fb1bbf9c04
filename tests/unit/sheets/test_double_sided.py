"""printer.toml double_sided: a card printed on both sides, its back its own template with side = "back"."""

from __future__ import annotations

import pdfplumber
import pytest

from printer import api
from tests.unit.sheets.test_components import make_project


def _project(root):
    root = make_project(root, "")
    toml = root / "printer.toml"
    toml.write_text(toml.read_text().replace("[games.t]\n", '[games.t]\ndouble_sided = { id = ["a0", "a1"] }\n'))
    template = root / "templates" / "t" / "card.html.j2"
    template.write_text('<div class="card"><div class="title">{{ card.title }} {{ side }}</div></div>\n')
    return root


@pytest.mark.slow
def test_a_double_sided_card_prints_itself_on_its_back_and_the_others_keep_the_shared_back(tmp_path):
    root = _project(tmp_path / "p")
    result = api.build(api.load_project(root), api.BuildRequest(out_dir=root / "out", cache=False, jobs=1))
    assert result.ok, result.problems
    with pdfplumber.open(root / "out" / "t.pdf") as pdf:
        front, back = (pdf.pages[0].extract_text() or ""), (pdf.pages[1].extract_text() or "")
    assert "Card 0 front" in front and "Card 2 front" in front
    assert "Card 0 back" in back and "Card 1 back" in back  # itself, as its back
    assert "Card 2" not in back  # not double-sided: the game's back


def test_validate_renders_the_back_side_too(tmp_path, run):
    root = _project(tmp_path / "p")
    template = root / "templates" / "t" / "card.html.j2"
    template.write_text(
        '<div class="card">{% if side == "back" %}{{ 1 // 0 }}{% endif %}{{ card.title }}</div>\n'
    )  # fails only when rendered as a back
    result = run("--project", root, "validate")
    assert result.code == 1 and "card.html.j2" in result.err and "Traceback" not in result.err
