"""A build's process-level decisions are its runtime's: two builds in one process behave as two processes would."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from helpers import write_project

from printer import api
from printer.sheets.parallel import Workers

API = Path(api.__file__).parent


def _project(root: Path) -> Path:
    sources = {
        "card.html.j2": '<div class="card">{{ card.title }}</div>',
        "back.html.j2": '<div class="card">BACK</div>',
    }
    cards = [{"id": f"c{i}", "title": f"Card {i}", "type": "A"} for i in range(3)]
    return write_project(root, "t", sources, cards)


def _seen(outcome: api.GameBuild) -> tuple:
    """What a build's outcome says, but for its timings."""
    counts = {k: v for k, v in outcome.stats.items() if k.startswith("faces ")}
    return (outcome.ok, outcome.target, outcome.cards, outcome.sheets, outcome.grid, outcome.backs, counts,
            [str(p) for p in outcome.problems], outcome.notes, outcome.exports, outcome.paths, outcome.up_to_date)  # fmt: skip


@pytest.mark.slow
def test_two_builds_in_one_process_behave_as_two_processes_would(tmp_path, monkeypatch):
    root = _project(tmp_path / "p")
    warmed: list[str] = []
    warm = Workers.warm
    monkeypatch.setattr(Workers, "warm", lambda self, spec: warmed.append(spec.game) or warm(self, spec))
    project = api.load_project(root)
    request = api.BuildRequest(out_dir=root / "out", jobs=2, cache=False)
    first = api.build(project, request).games[0]
    assert warmed == ["t"]  # a call's first build starts its pool at once
    second = api.build(project, request).games[0]
    # WeasyPrint is imported by now, and this process built before: the second call's runtime decides as the first's
    assert warmed == ["t", "t"]
    assert first.ok and _seen(first) == _seen(second)
    assert first.stats["faces laid out"] == 4  # three fronts and the back, both times


@pytest.mark.slow
def test_the_runtime_says_whether_the_pool_starts_at_once(tmp_path, monkeypatch):
    root = _project(tmp_path / "p")
    warmed: list[str] = []
    monkeypatch.setattr(Workers, "warm", lambda self, spec: warmed.append(spec.game))
    project = api.load_project(root)
    request = api.BuildRequest(out_dir=root / "out", jobs=2, cache=False)
    served = api.build(project, request, runtime=api.Runtime(warm_pool=False)).games[0]
    assert served.ok and warmed == []  # a server's build: no pool started at once
    kept = api.Runtime()  # one runtime passed to two calls: only its first build starts the pool
    api.build(project, request, runtime=kept)
    api.build(project, request, runtime=kept)
    assert warmed == ["t"]
    assert kept.workers is None and kept.cache is None  # closed after each call


def test_the_up_to_date_check_and_the_face_cache_are_the_runtimes(tmp_path):
    root = _project(tmp_path / "p")
    project = api.load_project(root)
    game, request = project.game("t"), api.BuildRequest(out_dir=root / "out", jobs=1)
    closed = api.Runtime()
    assert closed.inputs(project, game, request) is None  # not open: no cache, always builds
    runtime = api.Runtime()
    with runtime.open(project, request):
        assert runtime.cache is not None and runtime.workers is not None
        inputs = runtime.inputs(project, game, request)
        assert inputs is not None and runtime.recall(inputs) is None  # never built
    assert runtime.cache is None and runtime.workers is None
    with api.Runtime().open(project, api.BuildRequest(cache=False)) as uncached:
        assert uncached.cache is None and uncached.inputs(project, game, request) is None


def _module_level_state(tree: ast.Module) -> list[str]:
    """Names a module binds at its top level to a list, dict or set it could change between calls."""
    found = []
    for node in tree.body:
        targets = (
            node.targets if isinstance(node, ast.Assign) else [node.target] if isinstance(node, ast.AnnAssign) else []
        )
        value = getattr(node, "value", None)
        mutable = isinstance(value, (ast.List, ast.Dict, ast.Set, ast.ListComp, ast.DictComp, ast.SetComp))
        names = [t.id for t in targets if isinstance(t, ast.Name) and t.id != "__all__"]
        if mutable and names:
            found += names
    return found


def test_no_module_of_the_api_keeps_state_or_asks_sys_modules():
    for path in sorted(API.glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        assert not _module_level_state(tree), (
            f"{path.name}: module-level state {_module_level_state(tree)}: a field of printer.api.runtime.Runtime"
        )
        asks = [n.lineno for n in ast.walk(tree) if isinstance(n, ast.Attribute) and n.attr == "modules" and isinstance(n.value, ast.Name) and n.value.id == "sys"]  # fmt: skip
        assert not asks, f"{path.name}:{asks}: a build decides by its runtime, not by what this process imported"
