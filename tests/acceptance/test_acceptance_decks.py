"""Acceptance on the real data: the Oracle export imported, every Emperor decklist checked in one call, twice
(the second time from the card cache), and the fast verdict agreeing with python-jsonschema on real cards.

Skipped when ../shared/data is absent.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import SHARED_DATA

pytestmark = pytest.mark.shared
EMPEROR = SHARED_DATA / "l5r" / "decks" / "emperor"


@pytest.fixture(scope="module")
def real_project(tmp_path_factory, repo) -> Path:
    """A project holding the imported Oracle cards in cards/l5r (its own build/ for the caches)."""
    if not SHARED_DATA.is_dir():
        pytest.skip("../shared/data is not here")
    root = tmp_path_factory.mktemp("real")
    shutil.copy(repo / "printer.toml", root / "printer.toml")
    files = sorted(str(p) for p in (SHARED_DATA / "l5r" / "oracle").glob("*.json"))
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "printer",
            "--project",
            str(root),
            "import",
            "oracle",
            *files,
            "--out",
            str(root / "cards/l5r"),
        ],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    return root


def _check(root: Path, *more: str) -> subprocess.CompletedProcess:
    args = ["--project", str(root), "deck", "check", str(EMPEROR), "--format", "l5r-emperor", *more]
    return subprocess.run([sys.executable, "-m", "printer", *args], capture_output=True, text=True, cwd=root)


def test_every_emperor_decklist_in_one_call_then_from_the_cache(real_project):
    from printer.decks.readers import decklist_files

    decks, problems = decklist_files([EMPEROR], 10_000)
    assert not problems and len(decks) > 200
    first = _check(real_project)
    assert first.returncode == 1 and "Traceback" not in first.stderr
    lines = first.stdout.splitlines()
    assert len(lines) == len(decks) + 1
    assert [line.split(": ", 1)[0] for line in lines[:-1]] == [str(d) for d in decks]
    assert lines[-1].startswith(f"{len(decks)} decklists: ") and "illegal" in lines[-1]
    assert list((real_project / "build" / ".cache" / "cards").glob("l5r-*.json"))
    second = _check(real_project)
    assert second.stdout == first.stdout and second.returncode == 1
    data = json.loads(_check(real_project, "--json").stdout)
    assert len(data) == len(decks) and {d["status"] for d in data} <= {"legal", "illegal", "unresolved", "unreadable"}


def test_the_fast_verdict_agrees_with_python_jsonschema_on_real_cards(real_project):
    from printer.cards.schema import SchemaStore, _errors
    from printer.project import bundled_root

    store = SchemaStore([real_project, bundled_root()])
    schema = bundled_root() / "schema" / "l5r" / "card.schema.json"
    fast = store.fast_validator(schema)
    slow = store.validator(schema)
    cards = [c for f in sorted((real_project / "cards/l5r").glob("*.json")) for c in json.loads(f.read_text())["cards"]]
    for card in cards[::20]:
        broken = dict(card, force="strong", copies=0)
        assert fast.is_valid(card) and not list(_errors(slow, card, schema))
        assert not fast.is_valid(broken) and list(_errors(slow, broken, schema))
