"""No function of the build (printer/sheets) or the library API (printer/api) is over 60 lines, and no module of
printer over 600.

A function's length is its body's lines, from the first statement after the docstring to the last (a docstring
says what the function does and is not counted). Ruff holds complexity, statements and arguments
(pyproject.toml); this holds the lines the developers' guide asks for.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("printer/sheets", "printer/api")
MAX_LINES = 60

#: functions still over the limit, with why: ``"path:name"`` -> reason
EXCEPTIONS: dict[str, str] = {}


def _body_lines(node: ast.FunctionDef | ast.AsyncFunctionDef) -> int:
    body = node.body
    first = body[0]
    if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) and isinstance(first.value.value, str):
        body = body[1:]
    if not body:
        return 0
    return (body[-1].end_lineno or body[-1].lineno) - body[0].lineno + 1


def _long_functions() -> dict[str, int]:
    found: dict[str, int] = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
            for node in ast.walk(tree):
                if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                    lines = _body_lines(node)
                    if lines > MAX_LINES:
                        found[f"{path.relative_to(ROOT).as_posix()}:{node.name}"] = lines
    return found


def test_no_function_of_the_build_or_the_api_is_over_60_lines() -> None:
    long = {name: lines for name, lines in _long_functions().items() if name not in EXCEPTIONS}
    assert not long, f"over {MAX_LINES} lines (split into named steps, or list with a reason): {long}"


def test_each_exception_is_still_needed() -> None:
    long = _long_functions()
    stale = [name for name in EXCEPTIONS if name not in long]
    assert not stale, f"within {MAX_LINES} lines now: take them off EXCEPTIONS: {stale}"


def test_no_module_of_printer_is_over_600_lines() -> None:
    long = {
        path.relative_to(ROOT).as_posix(): lines
        for path in sorted((ROOT / "printer").rglob("*.py"))
        if (lines := len(path.read_text(encoding="utf-8").splitlines())) > 600
    }
    assert not long, f"over 600 lines (split into cohesive modules): {long}"
