"""validate and build agree: whatever build reports, validate reported first, at the same place and severity.

Each case plants one problem in a small project (printer init's) and checks that every problem ``api.build``
reports is among ``api.validate``'s, with the same place, severity and code, and that build's message names the
card and the template line where there is one (docs/hardening.md, "validate and build agree").
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path

import pytest
from PIL import Image

from printer import api
from printer.problems import PrinterError, Problem, Severity
from printer.scaffold import scaffold


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "demo"
    scaffold(root, "demo", "Demo")
    return root


def _template(root: Path) -> Path:
    return root / "templates" / "demo" / "card.html.j2"


def _plant(root: Path, old: str, new: str) -> None:
    path = _template(root)
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def _ships(root: Path) -> Path:
    return root / "cards" / "demo" / "ships.json"


def _set_art(root: Path, art: str) -> None:
    path = _ships(root)
    data = json.loads(path.read_text(encoding="utf-8"))
    data["cards"][0]["art"] = art
    path.write_text(json.dumps(data, indent=2), encoding="utf-8")


def _places(problems) -> set[tuple[str, Severity, str]]:
    return {(p.where, p.severity, p.code) for p in problems}


@dataclass
class Built:
    """What a build reported: its problems, and whether it printed (a template error raises out of api.build)."""

    problems: list[Problem]
    ok: bool


def build(root: Path, strict: bool = False) -> Built:
    try:
        result = api.build(api.load_project(root), api.BuildRequest(jobs=1, cache=False, strict=strict))
    except PrinterError as exc:
        return Built(exc.problems, False)
    return Built(result.problems, result.ok)


def served(root: Path) -> list[Problem]:
    """The problems ``printer serve``'s problems panel shows (its list places a JSON path at its line, as validate)."""
    pytest.importorskip("starlette")
    from printer.cards.positions import with_lines
    from printer.serve.workspace import Workspace

    return with_lines(Workspace(root).problems)


def agree(root: Path) -> tuple[api.ValidationReport, Built]:
    """Validate, then build; every problem build reports is one validate reported, and serve shows."""
    report = api.validate(api.load_project(root))
    built = build(root)
    assert built.problems, "the planted problem shows in build"
    missing = _places(built.problems) - _places(report.problems)
    assert not missing, f"build reports what validate did not: {missing}\nvalidate: {report.problems}"
    unseen = _places(built.problems) - _places(served(root))
    assert not unseen, f"build reports what serve's problems panel does not: {unseen}"
    if not built.ok:
        assert not report.ok, "build fails, so validate fails too"
    return report, built


TITLE = '<span class="title">{{ card.title }}</span>'


def test_icon_url_of_an_unknown_icon_warns_at_the_template_line_and_builds(project):
    _plant(project, TITLE, TITLE + "<img class=\"icon\" src=\"{{ icon_url(card.get('faction', 'x')|lower) }}\">")
    report, built = agree(project)
    assert built.ok and report.ok  # a placeholder prints: a warning, not "cannot read None"
    (problem,) = [p for p in built.problems if p.code == "unknown-icon"]
    assert problem.severity == Severity.WARNING
    assert re.search(r"templates/demo/card\.html\.j2:\d+$", str(problem.where))
    assert "icon_url() finds no icon 'union'" in problem.message and "'drift'" in problem.message
    assert "while rendering" in problem.hint and "cards/demo/" in problem.hint
    assert not any("None" in p.message for p in built.problems)


def test_icon_url_strict_fails_both(project):
    _plant(project, TITLE, TITLE + "<img src=\"{{ icon_url('nope') }}\">")
    assert not build(project, strict=True).ok
    assert any(p.code == "unknown-icon" for p in api.validate(api.load_project(project)).problems)


@pytest.mark.parametrize(
    "src",
    ["pics/{{ card.id }}.png", "{{ card.get('portrait') }}"],
    ids=["missing-file", "none"],
)
def test_a_file_a_template_names_that_is_missing(project, src):
    _plant(project, TITLE, TITLE + f'<img src="{src}" alt="">')
    report, built = agree(project)
    assert not built.ok
    problem = built.problems[0]
    assert problem.severity == Severity.ERROR and problem.code == "fetch"
    assert str(problem.where).endswith("templates/demo/card.html.j2:11"), problem.where
    assert problem.message.startswith("cannot read ")
    assert re.search(r"while rendering .*cards/demo/\w+\.(json|csv)", problem.hint)


def test_a_network_url_in_a_template(project):
    _plant(project, TITLE, TITLE + '<img src="https://example.com/a.png">')
    report, built = agree(project)
    assert not built.ok
    assert built.problems[0].code == "blocked-fetch" and str(built.problems[0].where).endswith("card.html.j2:11")


def test_missing_art_is_a_warning_in_both(project):
    _set_art(project, "art/nowhere.png")
    report, built = agree(project)
    assert report.ok and built.ok
    (problem,) = [p for p in report.problems if p.code == "missing-art"]
    assert problem.severity == Severity.WARNING and str(problem.where).endswith("ships.json:17:7 ($.cards[0].art)")


def test_unreadable_art_is_a_warning_in_both(project):
    (project / "cards" / "demo" / "art").mkdir()
    (project / "cards" / "demo" / "art" / "x.png").write_text("not an image")
    _set_art(project, "art/x.png")
    report, built = agree(project)
    assert report.ok and built.ok
    assert [p.severity for p in report.problems if p.code == "bad-art"] == [Severity.WARNING]


def test_missing_art_strict_fails_both(project, run):
    _set_art(project, "art/nowhere.png")
    assert run("validate", "--strict", cwd=project).code == 1
    assert run("build", "--strict", "--jobs", "1", "--no-cache", cwd=project).code == 1
    assert run("validate", cwd=project).code == 0


def test_a_component_declaration_build_refuses(project):
    with (project / "printer.toml").open("a", encoding="utf-8") as toml:
        toml.write(
            'components.marker = { kind = "token", shape = "round", size = "20x25mm", when = { type = "Event" } }\n'
        )
    report, built = agree(project)
    assert not built.ok
    assert str(built.problems[0].where).endswith("printer.toml: [games.demo.components.marker] size")


def test_a_player_aid_naming_a_missing_picture(project):
    aids = project / "rules" / "demo" / "aids"
    aids.mkdir(parents=True)
    (aids / "turn.md").write_text("# Turn\n\nGain {nope}, see ![x](missing.png).\n", encoding="utf-8")
    report, built = agree(project)
    assert not built.ok
    places = {(str(p.where).rsplit("/", 1)[-1], p.severity.value, p.code) for p in built.problems}
    assert places == {("turn.md:3", "error", "fetch"), ("turn.md:3:6", "warning", "unknown-icon")}


def test_over_the_cards_per_build_limit(project):
    with (project / "printer.toml").open("a", encoding="utf-8") as toml:
        toml.write("\n[limits]\ncards_per_build = 3\n")
    report, built = agree(project)
    assert not built.ok and built.problems[0].code == "limit"


def test_a_typo_in_a_format_file_is_reported_by_validate_as_deck_check_reports_it(project, run):
    file = project / "schema" / "demo" / "formats" / "standard.json"
    file.write_text(file.read_text(encoding="utf-8").replace('"copy_limit"', '"copy_limt"'), encoding="utf-8")
    report = api.validate(api.load_project(project))
    (problem,) = report.problems
    assert (problem.where.file, problem.where.path) == (str(file), "$.copy_limt")  # validate adds the line
    assert problem.severity == Severity.ERROR
    assert problem.message == "unknown field 'copy_limt'" and "did you mean 'copy_limit'" in problem.hint
    checked = run("deck", "check", "decks/sample.txt", "--format", "demo-standard", cwd=project)
    assert checked.code == 2 and "standard.json::$.copy_limt: error: unknown field 'copy_limt'" in checked.err
    assert _places(served(project)) >= _places(report.problems)
    assert run("validate", cwd=project).code == 1


def test_a_format_section_whose_min_is_over_its_max_is_an_error_in_validate_and_deck_check(project, run):
    file = project / "schema" / "demo" / "formats" / "standard.json"
    data = json.loads(file.read_text(encoding="utf-8"))
    data["sections"][0].update(min=3, max=1)
    file.write_text(json.dumps(data, indent=2), encoding="utf-8")
    (problem,) = api.validate(api.load_project(project)).problems
    assert (problem.where.file, problem.where.path) == (str(file), "$.sections[0]")
    assert problem.message == "min 3 is over max 1: no deck could be legal"
    checked = run("deck", "check", "decks/sample.txt", "--format", "demo-standard", cwd=project)
    assert checked.code == 2 and "standard.json::$.sections[0]: error: min 3 is over max 1" in checked.err


def test_a_format_section_naming_a_card_type_the_game_has_not_is_an_error_with_the_closest(project, run):
    file = project / "schema" / "demo" / "formats" / "standard.json"
    data = json.loads(file.read_text(encoding="utf-8"))
    data["sections"][0]["types"] = ["Shp"]
    file.write_text(json.dumps(data, indent=2), encoding="utf-8")
    (problem,) = api.validate(api.load_project(project)).problems
    assert (problem.where.file, problem.where.path) == (str(file), "$.sections[0].types[0]")
    assert problem.message == "demo has no card type 'Shp'" and problem.hint == "did you mean 'Ship'?"
    checked = run("deck", "check", "decks/sample.txt", "--format", "demo-standard", cwd=project)
    assert checked.code == 2 and "demo has no card type 'Shp'" in checked.err


@pytest.mark.parametrize("rule", ["background-image: url(pics/paper.png)", "font-family: X; src: url(fonts/no.woff2)"])
def test_a_file_a_stylesheet_names_that_is_missing(project, rule):
    css = project / "templates" / "demo" / "card.css"
    css.write_text(css.read_text(encoding="utf-8") + f"\n.card {{ {rule}; }}\n", encoding="utf-8")
    report, built = agree(project)
    assert not built.ok
    (problem,) = built.problems
    assert re.search(r"templates/demo/card\.css:\d+:\d+$", str(problem.where)) and problem.code == "fetch"


@pytest.mark.parametrize("call", ["art_for('wide', 30)", "art_for(40, 30, fit='stretch')"])
def test_art_for_with_wrong_arguments_fails_both_at_the_template_line(project, call):
    (project / "cards" / "demo" / "art").mkdir()
    Image.new("RGB", (800, 1100), (90, 120, 150)).save(project / "cards" / "demo" / "art" / "a.png")
    _set_art(project, "art/a.png")  # build prepares it; validate, which prepares no art, must refuse the call too
    _plant(project, TITLE, TITLE + f"{{% set box = {call} %}}")
    report, built = agree(project)
    assert not built.ok and str(built.problems[0].where).endswith("templates/demo/card.html.j2:11")
    assert "art_for(" in built.problems[0].message and "while rendering" in built.problems[0].hint


def test_a_template_error_only_components_meet(project):
    # build renders the cards a component holds with ``component`` set; validate renders them so too
    with (project / "printer.toml").open("a", encoding="utf-8") as toml:
        toml.write(
            'components.marker = { kind = "token", shape = "round", size = "25x25mm", when = { type = "Event" } }\n'
        )
    _plant(project, TITLE, TITLE + "{% if component %}{{ component.knd }}{% endif %}")
    report, built = agree(project)
    assert not built.ok and str(built.problems[0].where).endswith("templates/demo/card.html.j2:11")
    assert "knd" in built.problems[0].message


def test_the_projects_face_html_limit_holds_in_validate_as_in_build(project):
    with (project / "printer.toml").open("a", encoding="utf-8") as toml:
        toml.write("\n[limits]\nface_html_chars = 500\n")  # the scaffold's faces are longer
    report, built = agree(project)
    assert not built.ok and "limits.face_html_chars" in built.problems[0].message


def test_art_outside_the_project_is_an_error_in_both(project, tmp_path):
    Image.new("RGB", (10, 10)).save(tmp_path / "outside.png")
    _set_art(project, "../../../outside.png")
    report, built = agree(project)
    assert not built.ok and built.problems[0].code == "art-outside"


def test_an_unknown_icon_in_card_text_warns_at_the_card_in_both(project):
    path = _ships(project)
    data = json.loads(path.read_text(encoding="utf-8"))
    data["cards"][0]["text"] = "Gain {spark}."
    path.write_text(json.dumps(data, indent=2), encoding="utf-8")
    report, built = agree(project)
    assert built.ok and [str(p.where).rsplit("/", 1)[-1] for p in built.problems] == [
        "ships.json:15:7 ($.cards[0].text)"
    ]


def test_an_unknown_variable_in_a_template_fails_both_at_its_line(project):
    _plant(project, TITLE, TITLE + "{{ card.gold_cost }}")
    report, built = agree(project)
    assert not built.ok and str(built.problems[0].where).endswith("card.html.j2:11")


def test_registration_marks_that_cost_cards_warn_in_both(project):
    text = (project / "printer.toml").read_text(encoding="utf-8")
    (project / "printer.toml").write_text(text.replace("[project]\n", '[project]\nregistration = "silhouette"\n'))
    report, built = agree(project)
    assert built.ok and [p.code for p in built.problems] == ["registration-grid"]
