"""Acceptance on the real data: the Oracle export imported, then the Ivory Crab starter printed as proxies.

Skipped when ../shared/data is absent.
"""

from __future__ import annotations

import math

import pdfplumber
import pytest
from pypdf import PdfReader

from tests.conftest import SHARED_DATA

pytestmark = pytest.mark.shared
MM = 72 / 25.4
STARTER = SHARED_DATA / "l5r" / "decks" / "ivory-starters-l5d" / "Ivory Crab Starter.l5d"


@pytest.fixture(scope="module")
def crab_build(crab_starter, oracle_cards, tmp_path_factory):
    """The Crab starter deck built from every Oracle card (shared with the saved object's tests), and the same build
    with --strict; returns (pdf path, stderr, the strict run)."""
    import subprocess

    from tests.acceptance.conftest import PRINTER

    strict_out = tmp_path_factory.mktemp("crab-strict") / "strict"
    strict = subprocess.run(
        PRINTER
        + ["build", "l5r", "--cards", str(oracle_cards), "--deck", str(STARTER), "--out", str(strict_out), "--strict"],
        capture_output=True,
        text=True,
    )
    return crab_starter.out / "l5r-ivory-crab-starter.pdf", crab_starter.run.stderr, (strict, strict_out)


def deck_size() -> int:
    return sum(int(line.split()[0]) for line in STARTER.read_text(encoding="utf-8").splitlines() if line[:1].isdigit())


def test_every_card_of_the_deck_prints_on_a4_3x3_sheets_with_backs(crab_build):
    pdf, _, _ = crab_build
    cards = deck_size()
    assert cards >= 80
    reader = PdfReader(pdf)
    sheets = math.ceil(cards / 9)
    assert len(reader.pages) == 2 * sheets  # each sheet of fronts is followed by its backs
    for page in reader.pages:
        trim = page.trimbox
        assert (float(trim.width) / MM, float(trim.height) / MM) == pytest.approx((210, 297), abs=0.2)


def test_missing_card_is_a_labelled_placeholder_and_a_warning(crab_build):
    pdf, stderr, _ = crab_build
    assert "warning: unknown card 'The Impregnable Fortress of the Crab'" in stderr
    with pdfplumber.open(pdf) as document:
        text = document.pages[0].extract_text()
    assert "PLACEHOLDER" in text and "Impregnable Fortress" in text


def test_strict_makes_the_missing_card_an_error_and_writes_nothing(crab_build):
    _, _, (strict, strict_out) = crab_build
    assert strict.returncode == 1
    assert "error: unknown card 'The Impregnable Fortress of the Crab'" in strict.stderr
    assert not strict_out.exists() or not any(strict_out.iterdir())


def test_crop_marks_and_card_sized_fronts(crab_build):
    pdf, _, _ = crab_build
    with pdfplumber.open(pdf) as document:
        page = document.pages[2]  # the second sheet of fronts: nine real cards
        words = {w["text"] for w in page.extract_words()}
        assert "HOLDING" in words or "PERSONALITY" in words
        assert page.lines, "no crop marks"
