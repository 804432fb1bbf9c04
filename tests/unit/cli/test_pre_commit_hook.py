"""The pre-commit hook runs printer validate on the project."""

from __future__ import annotations

import re

import pytest
from helpers import REPO


def test_the_hook_runs_printer_validate():
    yaml = pytest.importorskip("yaml")
    hooks = yaml.safe_load((REPO / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))
    hook = next(h for h in hooks if h["id"] == "printer-validate")
    assert hook["entry"] == "printer validate" and hook["pass_filenames"] is False
    pattern = re.compile(hook["files"])
    assert pattern.search("cards/l5r/fate.json") and pattern.search("cards/starfall/crew.xlsx")
    assert pattern.search("printer.toml") and not pattern.search("docs/index.md")


def test_the_hook_entry_passes_on_a_valid_project(run):
    assert run("--project", REPO, "validate").code == 0
