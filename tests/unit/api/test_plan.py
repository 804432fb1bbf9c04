"""The Plan stage: every decision of a build before a face is laid out, made without WeasyPrint and without writing;
and the build request, each of whose fields says whether it changes the output."""

from __future__ import annotations

import dataclasses
import subprocess
import sys
from pathlib import Path

import pytest

from printer import api
from printer.api.runtime import build_key as _build_key
from printer.api.runtime import build_signature as _build_signature
from printer.sheets.plan import EXPORTS, PRESETS, SHEET_OPTIONS, BuildRequest

REPO = Path(__file__).resolve().parents[3]

#: a value other than the default for each field: enough to tell whether it changes the up-to-date key
OTHER = {
    "games": ("l5r",),
    "cards_dir": REPO / "cards" / "l5r",
    "only": ("x",),
    "deck_file": REPO / "deck.txt",
    "out_dir": REPO / "elsewhere",
    "options": {"paper": "A3"},
    "exports": ("png",),
    "dpi": 150,
    "png_bleed": True,
    "icc": REPO / "cmyk.icc",
    "strict": True,
    "aids": False,
    "preset": "mpc",
    "jobs": 3,
    "scheduler": "tcp://127.0.0.1:8786",
    "cache": False,
    "cut_files": ("svg",),
    "image_url_base": "https://example.org/",
    "players": 4,
    "verify": True,
    "max_size": 10**8,
    "min_dpi": 300.0,
    "since": "HEAD~1",
    "lang": "ja",
}


def test_every_request_field_says_whether_it_changes_the_output() -> None:
    project = api.load_project(REPO)
    game = project.game("l5r")
    base = _build_key(project, game, BuildRequest())
    assert {f.name for f in dataclasses.fields(BuildRequest)} == set(OTHER), "give a new field a value in OTHER"
    for f in dataclasses.fields(BuildRequest):
        affects = f.metadata.get("affects")
        assert affects in ("output", "run", "output when set"), f"{f.name}: declare it with option(affects...)"
        changed = _build_key(project, game, BuildRequest(**{f.name: OTHER[f.name]}))
        assert (changed != base) == (affects != "run"), f.name


def test_a_file_the_request_names_is_in_the_signature_and_watched(tmp_path: Path) -> None:
    project = api.load_project(REPO)
    game = project.game("l5r")
    deck = tmp_path / "deck.txt"
    deck.write_text("1 Anything\n", encoding="utf-8")
    request = BuildRequest(games=("l5r",), deck_file=deck)
    assert request.read_paths() == [deck] and request.read_paths("cards") == []
    before = _build_signature(project, game, request)
    deck.write_text("2 Anything\n", encoding="utf-8")
    assert _build_signature(project, game, request) != before
    assert deck.resolve() in api.watched_inputs(project, request)


def test_the_command_line_gives_each_field_by_its_option() -> None:
    values = {
        "games": ("l5r",),
        "no_aids": True,
        "no_cache": False,
        "max_size": "1.5GB",
        "paper": "A3",
        "flip": "short-edge",
    }
    request = BuildRequest.from_options(values)
    assert request.games == ("l5r",) and request.aids is False and request.cache is True
    assert request.max_size == 1_500_000_000
    assert list(request.options) == list(SHEET_OPTIONS)
    assert request.options["paper"] == "A3" and request.options["duplex"] == "short-edge"
    assert request.jobs is None and request.dpi == 300  # not given: the field's default


def test_the_names_the_command_line_offers_are_the_stages_own() -> None:
    from printer.sheets.export import EXPORTERS
    from printer.sheets.export.presets import presets
    from printer.sheets.options import KEYS

    assert set(EXPORTERS) == {*EXPORTS, "cut-svg", "cut-dxf", "cricut"}
    assert PRESETS == tuple(presets()) and KEYS == SHEET_OPTIONS


def test_a_plan_holds_the_items_components_and_target_of_a_build(tmp_path: Path) -> None:
    project = api.load_project(REPO)
    game = project.game("l5r")
    request = BuildRequest(games=("l5r",), out_dir=tmp_path, players=3)
    plan = api.make_plan(project, game, request)
    assert plan.failure is None and plan.target == tmp_path / "l5r.pdf"
    assert plan.players == 3 and plan.sheets == -(-len(plan.items) // plan.layout.per_sheet)
    names = [c.name for c, _ in plan.components]
    assert "honor-track" in names  # split off the card sheets
    assert not any(
        item.card is not None and item.card.id in {i.card.id for _, its in plan.components for i in its if i.card}
        for item in plan.items
    )
    tracks = dict((c.name, its) for c, its in plan.components)["honor-track"]
    fewer = api.make_plan(project, game, dataclasses.replace(request, players=1))
    assert len(tracks) == 3 * len(dict((c.name, its) for c, its in fewer.components)["honor-track"])
    assert list(tmp_path.iterdir()) == []  # nothing written
    with pytest.raises(dataclasses.FrozenInstanceError):
        plan.sheets = 0  # type: ignore[misc]


def test_a_plan_says_why_nothing_prints(tmp_path: Path) -> None:
    project = api.load_project(REPO)
    plan = api.make_plan(project, project.game("l5r"), BuildRequest(games=("l5r",), cards_dir=tmp_path))
    assert plan.failure == "not printed: no cards" and [p.code for p in plan.problems][-1] == "empty"
    assert plan.items == () and plan.sheets == 0


def test_make_plan_imports_no_weasyprint(tmp_path: Path) -> None:
    code = f"""
import sys
from pathlib import Path
from printer import api
project = api.load_project({str(REPO)!r})
plan = api.make_plan(project, project.game("l5r"), api.BuildRequest(out_dir=Path({str(tmp_path)!r}), lang="ja"))
assert plan.failure is None and plan.items, plan.problems
assert "weasyprint" not in sys.modules, "make_plan imported WeasyPrint"
print(len(plan.items))
"""
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO, timeout=300)
    assert done.returncode == 0, done.stderr
    assert int(done.stdout) > 0 and list(tmp_path.iterdir()) == []
