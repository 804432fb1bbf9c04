"""Templates get plain data only: dicts, lists, strings, numbers, booleans, None and printer's helper functions.

Every template render is watched while printer prints each kind of
template (card fronts and backs, sheets, a placeholder for a decklist name
that is not in the card data, the alignment page, a rules book with card
embeds, player aids): a context value of any other type (a
``pathlib.Path``, a file object, a project object) fails the test. A
hostile template that tries the I/O methods a ``Path`` would offer gets an
error, not a file.
"""

from __future__ import annotations

import types
from pathlib import Path

import jinja2
import pytest

from printer.sheets.sandbox import TemplateHelper, template_data

REPO = Path(__file__).resolve().parents[2]


def _offending(value, where: str) -> list[str]:
    if isinstance(value, (str, int, float, bool, type(None), TemplateHelper)):
        return []
    if isinstance(value, dict):
        return [bad for k, v in value.items() for bad in _offending(v, f"{where}.{k}")]
    if isinstance(value, list):
        return [bad for i, v in enumerate(value) for bad in _offending(v, f"{where}[{i}]")]
    if isinstance(value, (types.FunctionType, types.MethodType)):
        function = getattr(value, "__func__", value)
        return [] if function.__module__.startswith("printer.") else [f"{where}: foreign function {function!r}"]
    return [f"{where}: {type(value).__name__}"]


@pytest.fixture
def contexts(monkeypatch) -> dict[str, list[dict]]:
    """Every context any template is rendered with, by template file name."""
    seen: dict[str, list[dict]] = {}
    for method in ("render", "generate"):
        original = getattr(jinja2.Template, method)

        def watching(self, *args, _original=original, **kwargs):
            seen.setdefault(Path(self.filename or "?").name, []).append(dict(*args, **kwargs))
            return _original(self, *args, **kwargs)

        monkeypatch.setattr(jinja2.Template, method, watching)
    return seen


@pytest.mark.slow
def test_every_template_kind_gets_plain_data(run, contexts, tmp_path: Path) -> None:
    deck = tmp_path / "deck.txt"
    deck.write_text("# Dynasty\n1 A Card That Is Not In The Data\n", encoding="utf-8")
    # --jobs 1: every face laid out in this process, where the renders are watched, without starting a pool
    assert run("--project", REPO, "build", "l5r", "edelweiss", "--jobs", "1", "--out", tmp_path).code == 0
    assert run("--project", REPO, "build", "l5r", "--deck", deck, "--jobs", "1", "--out", tmp_path).code == 0
    assert run("--project", REPO, "align", "--out", tmp_path / "align.pdf").code == 0
    assert run("--project", REPO, "rules", "l5r", "--out", tmp_path).code == 0
    kinds = set(contexts)
    for kind in (
        "card.html.j2",
        "back.html.j2",
        "sheet.html.j2",
        "placeholder.html.j2",
        "alignment.html.j2",
        "book.html.j2",
        "aid.html.j2",
    ):
        assert kind in kinds, f"{kind} was never rendered: {sorted(kinds)}"
    problems = [bad for kind, calls in contexts.items() for ctx in calls for bad in _offending(ctx, kind)]
    assert problems == []


def test_paths_and_project_objects_never_reach_a_template() -> None:
    from printer.project import load_project

    project = load_project(REPO)
    with pytest.raises(TypeError):
        template_data(open)  # a builtin with I/O
    assert template_data(Path("/etc/hostname")) == "/etc/hostname"  # a path is only text
    view = template_data(project.games["l5r"].template_view())
    assert _offending(view, "game") == [] and "schema" not in view and "cards" not in view


def test_a_template_cannot_read_a_file_through_the_game(project: Path, run, tmp_path_factory) -> None:
    outside = tmp_path_factory.mktemp("outside")
    (outside / "secret.txt").write_text("TOP-SECRET-42", encoding="utf-8")
    templates = project / "templates" / "l5r"
    templates.mkdir(parents=True)
    (templates / "card.html.j2").write_text(
        "<div class='card'>{{ game.schema.joinpath('" + str(outside / "secret.txt") + "').read_text() }}</div>",
        encoding="utf-8",
    )
    (project / "cards" / "l5r" / "a.json").write_text(
        '{"game": "l5r", "cards": [{"id": "a", "title": "A", "type": "Strategy", "deck": "Fate", "focus": 1}]}',
        encoding="utf-8",
    )
    result = run("--project", project, "build", "l5r", "--out", project / "build")
    assert result.code == 1
    assert "TOP-SECRET-42" not in result.out + result.err
    assert "card.html.j2" in result.err and "Traceback" not in result.err
    assert not (project / "build" / "l5r.pdf").exists()
