"""What a stranger's printer.toml cannot decide alone: reading outside the project, writing outside it, raising limits.

- ``[project] read_also`` folders outside the project are read only when the user allows them (``--read-also DIR``,
  ``PRINTER_READ_ALSO``, or ``read_also`` in the user's own config); otherwise a located warning says how.
- The editor writes a card file only inside the project's real folder, never in a ``read_also`` folder nor in
  printer's bundled files (one rule: :meth:`printer.project.Project.write_problem`), for save, new, duplicate and
  delete alike.
- A project may lower a limit; raising one needs ``--allow-limit NAME=VALUE`` or the user config's ``[limits]``.
  ``size_mm`` raised that way is honoured (paper, card and lengths in printer.toml).

The editor is driven through :func:`printer.serve.edits.edit_card`, the function behind every write route.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from printer.limits import DEFAULT, over
from printer.paths import bundled_root
from printer.problems import UsageError
from printer.project import load_project

REPO = Path(__file__).resolve().parents[2]
GAME = '[games.l5r]\nname = "L5R"\ncard_size = "poker"\nback_field = "deck"\nbacks = { Dynasty = "dynasty" }\n'
CARD = {"id": "shared-card", "title": "Shared", "type": "Event", "deck": "Dynasty"}


def _project(root: Path, head: str = "", cards: str | None = None) -> Path:
    root.mkdir(parents=True, exist_ok=True)
    game = GAME + (f"cards = {json.dumps(cards)}\n" if cards else "")
    (root / "printer.toml").write_text(head + game, encoding="utf-8")
    (root / "cards" / "l5r").mkdir(parents=True, exist_ok=True)
    return root


def _shared(tmp_path: Path) -> Path:
    """A folder outside the project with one card file in it: what read_also points at."""
    shared = tmp_path / "shared"
    (shared / "cards").mkdir(parents=True)
    (shared / "cards" / "shared.json").write_text(json.dumps({"game": "l5r", "cards": [CARD]}, indent=2) + "\n")
    return shared


# --- read_also -----------------------------------------------------------------------------------------------------


def test_a_projects_read_also_outside_it_is_refused_with_a_located_warning(tmp_path):
    root = _project(tmp_path / "proj", '[project]\nread_also = ["/", "art"]\n')
    project = load_project(root)
    assert Path("/") not in project.read_also
    assert project.read_also == [(root / "art").resolve()]  # a folder inside the project needs no one's word
    [warning] = project.problems
    assert not warning.is_error and warning.code == "read-also-refused"
    assert warning.where == f"{root / 'printer.toml'}:2:1"
    assert "--read-also /" in (warning.hint or "") and "config" in (warning.hint or "")


def test_a_cards_folder_through_a_refused_read_also_does_not_load(tmp_path, run):
    shared = _shared(tmp_path)
    root = _project(tmp_path / "proj", f'[project]\nread_also = ["{shared}"]\n', cards=str(shared / "cards"))
    with pytest.raises(UsageError) as caught:
        load_project(root)
    assert caught.value.problems[0].code == "outside-project"
    result = run("--project", root, "validate", "--no-render")
    assert result.code == 2
    assert "is not read: a project cannot let printer read outside its folder on its own" in result.err
    assert f"--read-also {shared}" in result.err


def test_a_read_also_folder_on_the_command_line_that_is_not_there_is_a_usage_error(tmp_path, run):
    root = _project(tmp_path / "proj", "")
    result = run("--project", root, "--read-also", tmp_path / "shraed", "validate", "--no-render")
    assert result.code == 2 and "is not a folder" in result.err


def test_the_user_allows_read_also_on_the_command_line_or_in_their_config(tmp_path, run, monkeypatch):
    shared = _shared(tmp_path)
    root = _project(tmp_path / "proj", '[project]\nread_also = ["../shared"]\n', cards="../shared/cards")
    for args in (
        ("--read-also", shared, "validate", "--no-render"),
        ("validate", "--no-render", "--read-also", shared),
    ):
        result = run("--project", root, *args)
        assert result.code == 0, result.err
        assert "1 valid card" in result.out and "not read" not in result.err
    config = tmp_path / "config.toml"
    config.write_text(f'read_also = ["{shared}"]\n', encoding="utf-8")
    monkeypatch.setenv("PRINTER_CONFIG", str(config))
    assert load_project(root).problems == []
    config.write_text('read_also = ["relative/art"]\n', encoding="utf-8")
    result = run("--project", root, "validate", "--no-render")
    assert result.code == 2 and f"{config}:1:1" in result.err and "not an absolute path" in result.err


def _edits(root: Path):
    from printer.serve.edits import EditRefused, edit_card
    from printer.serve.workspace import Workspace

    return Workspace(root), edit_card, EditRefused


def test_the_editor_never_writes_in_a_read_also_folder(tmp_path, monkeypatch):
    pytest.importorskip("starlette")
    from printer.serve.edits import digest

    shared = _shared(tmp_path)
    monkeypatch.setenv("PRINTER_READ_ALSO", str(shared))  # what --read-also DIR passes on: read, never written
    root = _project(tmp_path / "proj", '[project]\nread_also = ["../shared"]\n', cards="../shared/cards")
    file = shared / "cards" / "shared.json"
    before = file.read_text()
    workspace, edit_card, EditRefused = _edits(root)
    assert [e.editable for e in workspace.entries.values()] == [False]
    name = str(Path("..") / "shared" / "cards" / "shared.json")
    base = digest(CARD)
    attempts = {
        "save": {"file": name, "pointer": "$.cards[0]", "base": base, "data": dict(CARD, title="Changed")},
        "duplicate": {"file": name, "after": "$.cards[0]", "data": dict(CARD, id="copy")},
        "new": {"new_file": "more", "data": dict(CARD, id="more")},
        "delete": {"file": name, "pointer": "$.cards[0]", "base": base},
    }
    for what, body in attempts.items():
        action = "new" if what == "duplicate" else what
        with pytest.raises(EditRefused) as caught:
            edit_card(workspace, action, {"game": "l5r", **body})
        assert caught.value.status == 403, what
        assert "read_also folders are read-only" in str(caught.value) or "outside the project" in str(caught.value)
    assert file.read_text() == before
    assert sorted(p.name for p in (shared / "cards").iterdir()) == ["shared.json"]


def test_a_read_also_folder_inside_the_project_is_read_only_too(tmp_path):
    root = _project(tmp_path / "proj", '[project]\nread_also = ["cards/l5r/common"]\n')
    project = load_project(root)
    assert project.write_problem(root / "cards/l5r/common/x.json").code == "read-only"
    assert project.write_problem(root / "cards/l5r/x.json") is None


# --- printer's bundled files ---------------------------------------------------------------------------------------


def test_no_writer_may_write_printers_bundled_files(tmp_path):
    project = load_project(_project(tmp_path / "proj"))
    for folder in ("schema", "templates"):
        problem = project.write_problem(bundled_root() / folder / "l5r" / "x.json")
        assert problem is not None and "bundled" in problem.message
    assert project.write_problem(tmp_path / "elsewhere.json").code == "read-only"


def test_the_editor_writes_nothing_into_printers_bundled_schema(tmp_path):
    pytest.importorskip("starlette")
    from printer.cards.edit import card_at
    from printer.serve.edits import digest

    schema_folder = bundled_root() / "schema" / "l5r"
    root = _project(tmp_path / "proj", cards=str(schema_folder))
    target = schema_folder / "card.schema.json"
    schema_text = target.read_bytes()
    made = schema_folder / "planted.json"
    workspace, edit_card, EditRefused = _edits(root)
    current = card_at(schema_text.decode(), "$")
    name = str(target)
    try:
        attempts = {
            "new": {"new_file": "planted", "data": CARD},
            "save": {"file": name, "pointer": "$", "base": digest(current), "data": CARD},
        }
        for action, body in attempts.items():
            with pytest.raises(EditRefused) as caught:
                edit_card(workspace, action, {"game": "l5r", **body})
            assert caught.value.status == 403, action
            assert "bundled" in str(caught.value), action
    finally:
        if target.read_bytes() != schema_text:
            target.write_bytes(schema_text)
        made.unlink(missing_ok=True)
    assert not made.exists()


def test_an_import_writes_nothing_into_printers_bundled_files():
    from printer.api import write_card_files

    planted = bundled_root() / "schema" / "l5r" / "planted.json"
    try:
        with pytest.raises(UsageError) as caught:
            write_card_files({"planted.json": "{}"}, planted.parent, force=True, dry_run=False)
        assert "bundled files" in caught.value.problems[0].message
    finally:
        planted.unlink(missing_ok=True)


def test_the_servers_problems_show_what_printer_toml_may_not_decide(tmp_path):
    pytest.importorskip("starlette")
    from printer.serve.workspace import Workspace

    root = _project(tmp_path / "proj", '[project]\nread_also = ["/"]\n[limits]\ndrafts = 100000\n')
    codes = [p.code for p in Workspace(root).problems]
    assert codes[:2] == ["read-also-refused", "limit-raise"]


# --- limits --------------------------------------------------------------------------------------------------------

RAISED = "[limits]\nface_render_seconds = 100000\ncards_per_build = 5\n"


def test_a_project_may_lower_a_limit_but_not_raise_it(tmp_path, run):
    root = _project(tmp_path / "proj", RAISED)
    project = load_project(root)
    assert project.limits.cards_per_build == 5
    assert project.limits.face_render_seconds == DEFAULT.face_render_seconds
    [warning] = project.problems
    assert not warning.is_error and warning.code == "limit-raise"
    assert warning.where == f"{root / 'printer.toml'}:2:1"
    assert "a project may lower a limit, not raise it" in warning.message
    assert "--allow-limit face_render_seconds=100000" in (warning.hint or "")
    result = run("--project", root, "validate", "--no-render")
    assert "face_render_seconds = 100000 is not used" in result.err
    (root / "printer.toml").write_text(GAME + "[limits]\nrequest_bytes = 12345678\n", encoding="utf-8")
    [warning] = load_project(root).problems
    assert "--allow-limit request_bytes=12345678 " in (warning.hint or "")  # a value to copy as it is


def test_the_user_allows_a_raise_on_the_command_line_or_in_their_config(tmp_path, run, monkeypatch):
    root = _project(tmp_path / "proj", RAISED)
    monkeypatch.setenv("PRINTER_ALLOW_LIMIT", "face_render_seconds=100000")  # what --allow-limit passes on
    project = load_project(root)
    assert project.limits.face_render_seconds == 100000 and project.problems == []
    monkeypatch.delenv("PRINTER_ALLOW_LIMIT")
    config = tmp_path / "config.toml"
    config.write_text("[limits]\nface_render_seconds = 50\n", encoding="utf-8")
    monkeypatch.setenv("PRINTER_CONFIG", str(config))
    project = load_project(root)
    assert project.limits.face_render_seconds == 50  # the user's value; the project asked for more
    assert "above 50 (you allow)" in project.problems[0].message
    result = run("--project", root, "--allow-limit", "face_render_seconds=100000", "validate", "--no-render")
    assert result.code == 0 and "not used" not in result.err
    result = run("--project", root, "validate", "--no-render", "--allow-limit", "face_render_seconds=100000")
    assert result.code == 0 and "not used" not in result.err  # after the command, as on every command that loads one
    result = run("--project", root, "--allow-limit", "face_render_second=3", "validate")
    assert (
        result.code == 2 and "unknown limit 'face_render_second'" in result.err and "face_render_seconds" in result.err
    )
    result = run("--project", root, "--allow-limit", "cards_per_build=-1", "validate")
    assert result.code == 2 and "must be a positive number" in result.err
    result = run("--project", root, "--allow-limit", "cards_per_build", "validate")
    assert result.code == 2 and "--allow-limit 'cards_per_build' gives no value" in result.err
    assert "(hint: NAME=VALUE, e.g. --allow-limit cards_per_build=50000)" in result.err


def test_size_mm_raised_by_the_user_is_honoured(tmp_path, run):
    head = '[project]\npaper = "2500x3000mm"\n[limits]\nsize_mm = 4000\n'
    root = _project(tmp_path / "proj", head)
    with pytest.raises(UsageError) as caught:  # the project's own raise is not used: 2,000 mm still holds
        load_project(root)
    assert "--allow-limit size_mm=N" in (caught.value.problems[0].hint or "")
    result = run("--project", root, "--allow-limit", "size_mm=4000", "validate", "--no-render")
    assert result.code == 0, result.err
    from printer.sheets.options import resolve_options

    shutil.rmtree(root / "cards")
    (root / "cards" / "l5r").mkdir(parents=True)
    project = load_project(root, _allowing(size_mm=4000))
    opts = resolve_options(project.settings, {}, "poker", {"margin": "2200mm"}, "printer.toml", project.limits)
    assert opts.paper == (2500.0, 3000.0) and opts.margin == 2200.0


def test_a_projects_own_markdown_nesting_holds_in_its_rules(tmp_path):
    from printer.book.context import RulesContext

    project = load_project(_project(tmp_path / "proj", "[limits]\nmarkdown_nesting = 3\n"))
    context = RulesContext(project, project.games["l5r"], None, [project.root])
    html = context.md.render("> > > > > deep\n")
    assert html.count("<blockquote>") == 3  # printer's default (20) would nest all five


def _allowing(**limits: float):
    from printer.userconfig import UserWord

    return UserWord(limits=limits)


def test_every_limit_hint_says_lower_in_printer_toml_and_raise_with_the_users_word():
    hint = over("sheets_per_build", 6000, 5000, "x", "sheets").hint or ""
    assert "lower it in printer.toml" in hint and "--allow-limit sheets_per_build=N" in hint
    assert "your own config" in hint and "raise it in printer.toml" not in hint


def test_a_project_reads_printers_bundled_schema_and_templates_but_nothing_else_of_printer(tmp_path, run):
    """In a source checkout printer's bundled files sit at the repository's root: a project may use its schema/ and
    templates/, not the rest of the checkout (its tests, its own printer.toml, its .git)."""
    from printer.paths import bundled_root

    root = tmp_path / "p"
    assert run("init", root).code == 0
    toml = root / "printer.toml"
    elsewhere = bundled_root() / "tests" / "fixtures"
    toml.write_text(toml.read_text() + f'\n[games.peek]\ncards = "{elsewhere}"\n', encoding="utf-8")
    result = run("--project", root, "validate")
    assert result.code != 0
    assert "[games.peek] cards" in result.err and "outside" in result.err
