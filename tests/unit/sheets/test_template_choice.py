"""A renderer finds a card type's template once: the template it chose for a list of names is asked for again by
its own name, still reloaded when its file changes, and looked for again when it is gone."""

from __future__ import annotations

from helpers import touch, write_project

from printer import api
from printer.api.common import load_cards
from printer.sheets.render import Renderer


def test_a_card_types_template_is_chosen_once_reloaded_when_edited_and_found_again_when_gone(tmp_path, monkeypatch):
    sources = {
        "card.html.j2": '<div class="card">plain {{ card.title }}</div>',
        "card-hero.html.j2": '<div class="card">hero {{ card.title }}</div>',
    }
    cards = [{"id": "a", "title": "Ann", "type": "Hero"}, {"id": "b", "title": "Bo", "type": "Hero"}]
    write_project(tmp_path, "t", sources, cards)
    templates = tmp_path / "templates" / "t"
    project = api.load_project(tmp_path)
    sets, problems = load_cards(project, [project.game("t").cards])
    assert not problems
    ann, bo = list(sets["t"])
    renderer = Renderer(project.game("t"), [tmp_path])

    looked: list[list[str]] = []
    select = renderer.env.select_template
    monkeypatch.setattr(renderer.env, "select_template", lambda names: looked.append(list(names)) or select(names))
    assert "hero Ann" in renderer.front(ann) and "hero Bo" in renderer.front(bo)
    assert looked == [["card-hero.html.j2", "card.html.j2"]]  # once for both cards

    touch(templates / "card-hero.html.j2", '<div class="card">HERO {{ card.title }}</div>')
    assert "HERO Ann" in renderer.front(ann)  # the chosen template's file changed: reloaded
    (templates / "card-hero.html.j2").unlink()
    assert "plain Bo" in renderer.front(bo)  # gone: the names looked for again
    assert len(looked) == 2
