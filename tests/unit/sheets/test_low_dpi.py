"""Low-dpi art: one warning per art file, a 5 % tolerance under 300 dpi, and the pixel size that would do."""

from __future__ import annotations

import json
from pathlib import Path

from PIL import Image

from printer import api
from printer.scaffold import scaffold


def _project(tmp_path: Path, arts: dict[str, tuple[int, int]], uses: list[str]) -> Path:
    """printer init's project, its first cards given the art files ``uses`` names (made at ``arts``' sizes)."""
    root = tmp_path / "demo"
    scaffold(root, "demo", "Demo")
    folder = root / "cards" / "demo" / "art"
    folder.mkdir()
    for name, size in arts.items():
        Image.new("RGB", size, (90, 120, 150)).save(folder / name)
    path = root / "cards" / "demo" / "ships.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    for card, art in zip(data["cards"], uses, strict=False):
        card["art"] = f"art/{art}"
    path.write_text(json.dumps(data, indent=2), encoding="utf-8")
    return root


def _low_dpi(root: Path, strict: bool = False) -> tuple[api.BuildResult, list]:
    result = api.build(api.load_project(root), api.BuildRequest(jobs=1, cache=False, strict=strict))
    return result, [p for p in result.problems if p.code == "low-dpi"]


# the scaffold's art fills the bleed box, 69 x 94 mm: 815 x 1110 px at 300 dpi
def test_art_a_little_under_300_dpi_does_not_warn(tmp_path):
    root = _project(tmp_path, {"near.png": (812, 1107)}, ["near.png", "near.png", "near.png"])  # 299 dpi
    result, low = _low_dpi(root, strict=True)
    assert result.ok and low == []


def test_low_dpi_art_warns_once_per_file_and_says_what_size_would_do(tmp_path):
    root = _project(
        tmp_path, {"small.png": (543, 740), "fine.png": (815, 1110)}, ["small.png", "small.png", "fine.png"]
    )
    result, low = _low_dpi(root)
    assert result.ok
    (problem,) = low
    assert str(problem.where).endswith(" ($.cards[0].art)") and problem.where.file.endswith("ships.json")
    assert problem.message == "art small.png is 200 dpi at its printed size 69 x 94 mm (543 x 740 px), on 2 cards"
    assert problem.hint == "815 x 1110 px or more would print at 300 dpi"


def test_validate_reports_low_dpi_art_where_build_does(tmp_path):
    root = _project(
        tmp_path, {"small.png": (543, 740), "near.png": (812, 1107)}, ["near.png", "small.png", "small.png"]
    )
    result, low = _low_dpi(root)
    report = api.validate(api.load_project(root))
    found = [p for p in report.problems if p.code == "low-dpi"]
    assert [(p.where, p.severity, p.message, p.hint) for p in found] == [
        (p.where, p.severity, p.message, p.hint) for p in low
    ]
    assert len(found) == 1 and found[0].where.path == "$.cards[1].art" and found[0].where.line
    again = api.validate(api.load_project(root))  # the cards are not remembered as clean: reported every time
    assert [p.message for p in again.problems if p.code == "low-dpi"] == [found[0].message]
