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


def _rendered(monkeypatch, method: str = "front"):
    """What validate renders through ``Renderer.<method>``: the cards' places (``front``) or the backs' names
    (``back``), in order."""
    from printer.sheets.render import Renderer

    rendered: list[str] = []
    original = getattr(Renderer, method)

    def spy(self, what, *args, **kwargs):
        rendered.append(what.where if method == "front" else what)
        return original(self, what, *args, **kwargs)

    monkeypatch.setattr(Renderer, method, spy)
    return rendered


def test_cards_that_rendered_clean_are_not_rendered_again(tmp_path, run, monkeypatch):
    root = _project(tmp_path, run)
    rendered = _rendered(monkeypatch)
    assert run("--project", root, "validate").code == 0
    assert len(rendered) == 6
    rendered.clear()
    assert run("--project", root, "validate").code == 0
    assert rendered == []
    crew = root / "cards/p/crew.csv"
    crew.write_text(crew.read_text().replace("{shield} Pell", "{shield} Pel"), encoding="utf-8")
    assert run("--project", root, "validate").code == 0
    assert len(rendered) == 1 and str(rendered[0]).startswith(str(crew))


def test_a_template_edit_renders_every_card_again(tmp_path, run, monkeypatch):
    root = _project(tmp_path, run)
    rendered = _rendered(monkeypatch)
    run("--project", root, "validate")
    rendered.clear()
    template = root / "templates/p/card.html.j2"
    template.write_text(template.read_text().replace("{{ card.type }}{%", "{{ card.typ }}{%"), encoding="utf-8")
    result = run("--project", root, "validate")
    assert len(rendered) == 6 and result.code == 1 and "(and 5 more cards)" in result.err


def test_a_card_with_a_problem_is_reported_on_every_run(tmp_path, run, monkeypatch):
    root = _project(tmp_path, run)
    crew = root / "cards/p/crew.csv"
    crew.write_text(crew.read_text().replace("{shield} Pell", "{sheild} Pell"), encoding="utf-8")
    for _ in range(2):
        result = run("--project", root, "validate")
        assert "unknown icon {sheild}" in result.err


def test_a_damaged_memory_is_ignored(tmp_path, run, monkeypatch):
    root = _project(tmp_path, run)
    assert run("--project", root, "validate").code == 0
    (memory,) = (root / "build" / ".cache" / "preflight").glob("*.json")
    rendered = _rendered(monkeypatch)
    for damage in ("", "{", '{"templates": 1, "clean": 5}', "[1, 2]"):
        memory.write_text(damage, encoding="utf-8")
        rendered.clear()
        assert run("--project", root, "validate").code == 0
        assert len(rendered) == 6


def test_backs_that_rendered_clean_are_not_rendered_again_and_a_back_edit_renders_them(tmp_path, run, monkeypatch):
    root = _project(tmp_path, run)
    backs = _rendered(monkeypatch, "back")
    assert run("--project", root, "validate").code == 0
    assert backs, "the backs in use are rendered on the first run"
    backs.clear()
    assert run("--project", root, "validate").code == 0
    assert backs == []
    template = root / "templates/p/back.html.j2"
    template.write_text(template.read_text() + "{{ card.nothing_here.at_all }}", encoding="utf-8")
    for _ in range(2):  # a back with an error is never remembered: reported on every run
        result = run("--project", root, "validate")
        assert result.code == 1 and "back.html.j2" in result.err


def test_unchanged_cards_are_validated_without_loading_a_template(tmp_path):
    import subprocess
    import sys

    root = tmp_path / "p"
    subprocess.run([sys.executable, "-m", "printer", "init", str(root)], check=True, capture_output=True)
    probe = (
        "import sys; from printer.cli import run\n"
        "try: run()\n"
        "except SystemExit as exit: code = exit.code\n"
        "print('loaded:', sorted(m for m in ('jinja2', 'markdown_it', 'PIL', 'printer.sheets.render') if m in sys.modules))\n"
        "sys.exit(code)\n"
    )
    # the cards' folder (the whole project also checks its player aids, which are made from the rules' Markdown)
    args = [sys.executable, "-c", probe, "--project", str(root), "validate", str(root / "cards" / "p")]
    first = subprocess.run(args, capture_output=True, text=True)
    assert first.returncode == 0, first.stderr
    assert "'jinja2'" in first.stdout  # the first run renders every card
    again = subprocess.run(args, capture_output=True, text=True)
    assert again.returncode == 0, again.stderr
    assert "loaded: []" in again.stdout and "6 valid cards" in again.stdout
