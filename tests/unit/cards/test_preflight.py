"""printer validate renders every card's template (HTML only), so that a valid project also builds."""

from __future__ import annotations


def _project(tmp_path, run):
    root = tmp_path / "p"
    assert run("init", root).code == 0
    return root


def test_a_template_error_is_reported_by_validate_at_the_template_line(tmp_path, run):
    root = _project(tmp_path, run)
    template = root / "templates/p/card.html.j2"
    template.write_text(template.read_text().replace("{{ card.type }}{%", "{{ card.typ }}{%"), encoding="utf-8")
    result = run("--project", root, "validate")
    assert result.code == 1
    assert (
        f"{template}:13: error: template error: 'dict object' has no attribute 'typ' (and 5 more cards)" in result.err
    )
    assert "6 cards, 1 problem" in result.out and "valid" not in result.out


def test_an_unknown_icon_is_reported_by_validate(tmp_path, run):
    root = _project(tmp_path, run)
    crew = root / "cards/p/crew.csv"
    crew.write_text(crew.read_text().replace("{shield} Pell", "{sheild} Pell"), encoding="utf-8")
    result = run("--project", root, "validate")
    assert f"{crew}:H3 ($.text): warning: unknown icon {{sheild}} (hint: did you mean 'shield'?)" in result.err
    assert result.code == 0
    strict = run("--project", root, "validate", "--strict")
    assert strict.code == 1 and "6 cards, 1 problem" in strict.out


def test_a_missing_back_template_is_reported(tmp_path, run):
    root = _project(tmp_path, run)
    (root / "templates/p/back.html.j2").unlink()
    result = run("--project", root, "validate")
    assert result.code == 1 and "back.html.j2" in result.err


def test_no_render_checks_the_data_only(tmp_path, run):
    root = _project(tmp_path, run)
    (root / "templates/p/back.html.j2").unlink()
    assert run("--project", root, "validate", "--no-render").code == 0
