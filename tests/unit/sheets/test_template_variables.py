"""The template-variables page is generated from printer/sheets/variables.py, and lists what printer passes."""

from __future__ import annotations

from helpers import REPO
from markupsafe import Markup

from printer.cards.catalog import load_cards
from printer.project import load_project
from printer.sheets import variables
from printer.sheets.placed import Face, face_style
from printer.sheets.render import Renderer


def test_the_page_is_up_to_date():
    page = (REPO / "docs/template-variables.md").read_text(encoding="utf-8")
    assert page == variables.markdown(), "run: python -m printer.sheets.variables > docs/template-variables.md"


def test_the_listed_variables_are_the_ones_printer_passes(monkeypatch):
    project = load_project(REPO)
    sets, _ = load_cards(project, [project.games["l5r"].cards])
    renderer = Renderer(project.games["l5r"], [REPO])
    renderer.source_lang = "en"  # as every job that renders cards sets it (sheets.job.make_job, validate, the rules)
    seen: dict[str, set[str]] = {}
    original = Renderer._render

    def record(self, template, where, **context):
        seen.setdefault(template.name, set()).update(context)
        return original(self, template, where, **context)

    monkeypatch.setattr(Renderer, "_render", record)
    card = next(iter(sets["l5r"]))
    renderer.front(card)
    renderer.back("fate")
    renderer.placeholder("Nobody", "not found")
    kinds = variables.TEMPLATE_VARIABLES
    assert seen["card.html.j2"] == set(kinds["Card front"][1])
    assert seen["back.html.j2"] == set(kinds["Card back"][1])
    assert seen["placeholder.html.j2"] == set(kinds["Placeholder"][1])
    assert set(variables.GLOBALS) <= set(renderer.env.globals)
    assert set(variables.FILTERS) <= set(renderer.env.filters)
    placed = face_style(Face(Markup(""), 0, 0, 63, 88, rotate=90))
    assert all(f"{name}:" in placed for name in variables.CSS_VARIABLES)
