"""Shared test helpers: the repository, ../shared, and running the CLI in-process."""

from __future__ import annotations

import os
import resource
from dataclasses import dataclass
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

from printer.cli import main

REPO = Path(__file__).resolve().parents[1]
SHARED = REPO.parent / "shared"
SHARED_DATA = SHARED / "data"

# tests/helpers.py holds the plain helpers the test modules share; its asserts report like a test's.
pytest.register_assert_rewrite("helpers")

# Hypothesis (tests/hardening/test_properties.py and others): "quick" (20 examples per test) when pytest is run by
# hand, for the edit loop; scripts/test, which CI runs, sets "ci" (75 examples); HYPOTHESIS_PROFILE=thorough or
# `pytest --hypothesis-profile=thorough` for 2,000. No profile writes an example database into the repository.
_bounded = dict(deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("quick", max_examples=20, **_bounded)
settings.register_profile("ci", max_examples=75, **_bounded)
settings.register_profile("thorough", max_examples=2000, **_bounded)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "quick"))


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Every browser test and every acceptance test on ../shared/data is also ``slow``: the edit loop
    (``pytest -m "not slow"``) leaves them to CI, which runs everything."""
    for item in items:
        if item.get_closest_marker("browser") or item.get_closest_marker("shared"):
            item.add_marker(pytest.mark.slow)


#: The most memory one test process may use (resident, at its peak): a test that takes this process, or a child
#: it waited for (a CLI run, a build's worker), past it fails, named. PRINTER_TEST_MAX_RSS_MB changes it.
MAX_RSS_MB = int(os.environ.get("PRINTER_TEST_MAX_RSS_MB", "2048"))


def _peak_rss_mb() -> tuple[float, float]:
    """The peak resident memory (MiB) of this process and of the largest child it has waited for (Linux: KiB)."""
    own = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    children = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    return own / 1024, children / 1024


@pytest.fixture(autouse=True)
def _memory_bound(request):
    """Fails the test that takes this test process (one pytest-xdist worker, or pytest itself) or a child it waited
    for past :data:`MAX_RSS_MB`: a memory regression is caught at the test that made it, never as a machine that
    swaps. Peaks only rise, so only the test that crosses the bound fails."""
    own_before, children_before = _peak_rss_mb()
    yield
    own, children = _peak_rss_mb()
    for who, before, after in (("this test process", own_before, own), ("a child process", children_before, children)):
        if before <= MAX_RSS_MB < after:
            pytest.fail(f"{who} peaked at {after:,.0f} MiB during {request.node.nodeid} (bound: {MAX_RSS_MB} MiB)")


@pytest.fixture(autouse=True)
def _one_job_by_default(monkeypatch):
    """A build a test runs in-process (``run("build", ...)``, ``api.build``) without ``--jobs`` lays its faces out
    in the test's process, as ``--jobs 1`` does: under pytest-xdist each core already runs a test process, and a
    pool of one process per core more would only start, load the job and hand back batches. A test of the pool
    passes ``--jobs N`` (or ``jobs=N``), which this leaves alone; a CLI run in a subprocess keeps the user's
    default (one process per core)."""
    from printer.sheets import parallel

    monkeypatch.setattr(parallel, "default_jobs", lambda: 1)


@pytest.fixture(scope="session", autouse=True)
def _no_user_config(tmp_path_factory):
    """No test reads the user's own config (~/.config/printer/config.toml) or a --read-also/--allow-limit of the
    shell: PRINTER_CONFIG names a file that is not there. A test that needs one sets it (monkeypatch.setenv)."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("PRINTER_CONFIG", str(tmp_path_factory.mktemp("user-config") / "config.toml"))
        patch.delenv("PRINTER_READ_ALSO", raising=False)
        patch.delenv("PRINTER_ALLOW_LIMIT", raising=False)
        yield


@pytest.fixture(scope="session", autouse=True)
def _no_user_cache(request, tmp_path_factory):
    """No test writes into the user's cache (~/.cache/printer: the CMYK profiles the presets build on first use):
    XDG_CACHE_HOME names a folder in pytest's own cache, kept between runs, so that a profile is built once per
    checkout (about 30 s each), not once per run."""
    cache = getattr(request.config, "cache", None)
    folder = cache.mkdir("xdg-cache") if cache is not None else tmp_path_factory.mktemp("xdg-cache")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("XDG_CACHE_HOME", str(folder))
        yield


@dataclass
class Result:
    code: int
    out: str
    err: str


@pytest.fixture(scope="session")
def repo() -> Path:
    return REPO


@pytest.fixture
def shared_data() -> Path:
    """../shared/data; the test is skipped when it is absent."""
    if not SHARED_DATA.is_dir():
        pytest.skip("../shared/data is not here")
    return SHARED_DATA


@pytest.fixture
def run(capsys, monkeypatch):
    """Run the printer CLI in-process: ``run("validate", "x.json", cwd=path)`` gives a :class:`Result`."""

    def _run(*args: str | os.PathLike, cwd: Path | None = None) -> Result:
        if cwd is not None:
            monkeypatch.chdir(cwd)
        capsys.readouterr()
        try:
            main([str(a) for a in args])
            code = 0
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
        captured = capsys.readouterr()
        return Result(code, captured.out, captured.err)

    return _run


@pytest.fixture
def run_cli(run):
    """Run ``printer --project REPO ARGS`` in-process: ``run_cli("validate", path)`` gives ``(code, stdout, stderr)``."""

    def _run_cli(*args: str | os.PathLike) -> tuple[int, str, str]:
        result = run("--project", REPO, *args)
        return result.code, result.out, result.err

    return _run_cli


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """An empty printer project with one game, l5r, using printer's bundled schema and templates."""
    (tmp_path / "printer.toml").write_text(
        '[games.l5r]\nname = "L5R"\ncard_size = "poker"\nback_field = "deck"\n'
        'backs = { Dynasty = "dynasty", Fate = "fate", "Pre-Game" = "pregame" }\n',
        encoding="utf-8",
    )
    (tmp_path / "cards" / "l5r").mkdir(parents=True)
    return tmp_path
