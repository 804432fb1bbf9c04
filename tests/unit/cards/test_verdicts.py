"""Card files known to pass their schema: their check is skipped when read again, and only then."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from helpers import PERSONALITY

from printer.cards.catalog import check_records, schema_store
from printer.cards.load import load_records
from printer.cards.schema import SchemaStore
from printer.cards.verdicts import Verdicts
from printer.project import load_project


def _write(project: Path, name: str, cards: list[dict[str, object]]) -> Path:
    file = project / "cards" / "l5r" / name
    file.write_text(json.dumps({"cards": cards}), encoding="utf-8")
    return file


def _check(project_root: Path, folder: Path, game: str | None = None) -> tuple[list[str], int]:
    """The problems' messages and how many cards the schema checked, with the verdicts kept in ``folder``."""
    project = load_project(project_root)
    store = schema_store(project)
    checked = []
    original = SchemaStore.validate

    def counted(self: SchemaStore, data: object, *args: object) -> object:
        checked.append(data)
        return original(self, data, *args)  # type: ignore[arg-type]

    SchemaStore.validate = counted  # type: ignore[method-assign]
    try:
        records, problems = load_records([project_root / "cards" / "l5r"])
        _, found = check_records(project, records, [], game, store, verdicts=Verdicts(store, folder))
    finally:
        SchemaStore.validate = original  # type: ignore[method-assign]
    return [p.message for p in problems + found], len(checked)


def test_a_file_that_passed_is_not_checked_again_until_it_changes(project: Path, tmp_path: Path) -> None:
    folder = tmp_path / "verdicts"
    file = _write(project, "a.json", [PERSONALITY, PERSONALITY | {"id": "p2"}])
    assert _check(project, folder) == ([], 2)
    assert _check(project, folder) == ([], 0)
    file.write_text(json.dumps({"cards": [PERSONALITY | {"cost": "five"}]}), encoding="utf-8")
    messages, checked = _check(project, folder)
    assert checked == 1 and any("five" in m for m in messages), messages


def test_a_file_with_a_problem_is_never_remembered(project: Path, tmp_path: Path) -> None:
    folder = tmp_path / "verdicts"
    _write(project, "bad.json", [PERSONALITY, PERSONALITY | {"id": "p2", "force": "strong"}])
    for _ in range(2):
        messages, checked = _check(project, folder)
        assert checked == 2 and any("strong" in m for m in messages), messages
    assert not (folder / "known").exists() or (folder / "known").read_text() == ""


def test_a_changed_schema_checks_the_cards_again(project: Path, tmp_path: Path) -> None:
    folder = tmp_path / "verdicts"
    _write(project, "a.json", [PERSONALITY])
    assert _check(project, folder) == ([], 1)
    schema = project / "schema" / "l5r"
    schema.mkdir(parents=True)
    bundled = json.loads((Path(__file__).parents[3] / "schema" / "l5r" / "card.schema.json").read_text("utf-8"))
    bundled["properties"]["cost"] = {"type": "integer", "maximum": 3}
    (schema / "card.schema.json").write_text(json.dumps(bundled), encoding="utf-8")
    messages, checked = _check(project, folder)
    assert checked == 1 and messages, messages


def test_the_game_the_cards_are_read_as_is_part_of_the_verdict(project: Path, tmp_path: Path) -> None:
    folder = tmp_path / "verdicts"
    _write(project, "a.json", [PERSONALITY])
    assert _check(project, folder) == ([], 1)
    assert _check(project, folder, game="l5r")[1] == 0  # the same game, read from its folder either way
    store = schema_store(load_project(project))
    verdicts = Verdicts(store, folder)
    file = project / "cards" / "l5r" / "a.json"
    schema = store.roots[-1] / "schema" / "l5r" / "card.schema.json"
    assert verdicts.key(file, [("l5r", schema)]) != verdicts.key(file, [("other", schema)])


def test_a_folder_others_may_write_to_is_not_used(project: Path, tmp_path: Path) -> None:
    folder = tmp_path / "verdicts"
    folder.mkdir(mode=0o700)
    os.chmod(folder, 0o777)
    _write(project, "a.json", [PERSONALITY])
    assert _check(project, folder) == ([], 1)
    assert not (folder / "known").exists()
    (folder / "known").write_text("", encoding="utf-8")  # a list planted there is not read either
    assert _check(project, folder) == ([], 1)


@pytest.mark.parametrize("content", [b"\xff\xfe", b"x" * 70 + b"\n", b""])
def test_an_unreadable_or_odd_list_is_ignored(project: Path, tmp_path: Path, content: bytes) -> None:
    folder = tmp_path / "verdicts"
    folder.mkdir(mode=0o700)
    (folder / "known").write_bytes(content)
    _write(project, "a.json", [PERSONALITY])
    assert _check(project, folder) == ([], 1)
    assert _check(project, folder) == ([], 0)


def test_the_list_is_kept_in_the_users_cache_never_in_the_project(project: Path, monkeypatch, tmp_path) -> None:
    cache = tmp_path / "xdg"
    monkeypatch.setenv("XDG_CACHE_HOME", str(cache))
    store = schema_store(load_project(project))
    assert Verdicts(store).folder == cache / "printer" / "verdicts"
