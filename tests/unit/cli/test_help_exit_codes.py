"""Each command's help states only the exit codes it returns, and points at documents that hold what it says."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[3]


@pytest.mark.parametrize(
    ("command", "codes"),
    [
        (["serve"], {"0", "2"}),
        (["completion"], {"0", "2"}),
        (["align"], {"0", "1", "2"}),
        (["deck", "formats"], {"0", "2"}),
        (["games"], {"0", "2"}),
    ],
)
def test_help_names_only_the_exit_codes_the_command_returns(run, command, codes):
    result = run(*command, "--help")
    assert result.code == 0
    text = " ".join(result.out.split())
    stated = text[text.index("Exit codes:") :]
    assert "invalid data or illegal deck" not in stated
    assert set(re.findall(r"\b(\d) ", stated.removeprefix("Exit codes: "))) == codes, stated


def test_json_help_points_at_the_page_with_the_json_shape(run):
    text = " ".join(run("deck", "check", "--help").out.split())
    assert "README" not in text
    assert "(its shape: docs/decks.md, 'JSON output')" in text
    assert "\n### JSON output\n" in (REPO / "docs" / "decks.md").read_text(encoding="utf-8")
