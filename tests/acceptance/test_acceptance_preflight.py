"""Acceptance on the real data: real L5R cards (imported from the Oracle files) written for MB Print and
DriveThruCards, read back with pikepdf and checked with printer preflight.

Skipped when ../shared/data is absent.
"""

from __future__ import annotations

import re
import subprocess
import sys

import pikepdf
import pytest

from tests.conftest import SHARED_DATA

pytestmark = [pytest.mark.shared, pytest.mark.slow]
CARDS = ("agasha-kodo", "ageless-shrine", "akodo-ashiko")


@pytest.fixture(scope="module")
def imported(tmp_path_factory, repo):
    if not SHARED_DATA.is_dir():
        pytest.skip("../shared/data is not here")
    tmp = tmp_path_factory.mktemp("preflight")
    files = [str(SHARED_DATA / "l5r" / "oracle" / f) for f in ("personalities.json", "holdings.json")]
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "printer",
            "--project",
            str(repo),
            "import",
            "oracle",
            *files,
            "--out",
            str(tmp / "l5r"),
        ],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    return tmp


def build(repo, tmp, preset: str) -> subprocess.CompletedProcess:
    only = [a for card in CARDS for a in ("--only", card)]
    return subprocess.run(
        [sys.executable, "-m", "printer", "--project", str(repo), "build", "l5r", "--cards", str(tmp / "l5r"), *only]
        + ["--preset", preset, "--out", str(tmp / preset), "--no-cache", "--jobs", "1"],
        capture_output=True,
        text=True,
    )


def no_rgb(path) -> None:
    with pikepdf.open(path) as pdf:
        for obj in pdf.objects:
            if isinstance(obj, pikepdf.Dictionary | pikepdf.Stream):
                assert all("/DeviceRGB" not in repr(value) for _key, value in obj.items())
        for page in pdf.pages:
            ops = {str(i.operator) for i in pikepdf.parse_content_stream(page)}
            assert not ops & {"rg", "RG"}


def test_real_cards_for_mb_print_pass_its_preflight(imported, repo):
    built = build(repo, imported, "mbprint")
    assert built.returncode == 0, built.stderr[-3000:]
    pdf = imported / "mbprint" / "l5r-mbprint.pdf"
    no_rgb(pdf)
    with pikepdf.open(pdf) as opened:
        assert [str(p.label).split()[0] for p in opened.pages] == ["front", "back"] * len(CARDS)
        assert str(opened.Root.OutputIntents[0].OutputConditionIdentifier) == "FOGRA39"


def test_real_cards_for_drivethrucards_are_cmyk_back_first_under_240_percent_ink_and_pass_its_preflight(imported, repo):
    built = build(repo, imported, "drivethrucards")
    pdf = imported / "drivethrucards" / "l5r-drivethrucards.pdf"
    no_rgb(pdf)
    with pikepdf.open(pdf) as opened:
        assert str(opened.trailer.Info.GTS_PDFXVersion) == "PDF/X-1a:2003"
        assert [str(p.label).split()[0] for p in opened.pages] == ["back", "front"] * len(CARDS)
        assert str(opened.Root.OutputIntents[0].OutputConditionIdentifier) == "CGATS TR 006"
    errors = [line for line in built.stderr.splitlines() if re.search(r": error: ", line)]
    # the GRACoL profile built under DriveThruCards' 240 % (docs/print-on-demand.md): no ink error left
    assert errors == [] and built.returncode == 0, built.stderr[-3000:]
