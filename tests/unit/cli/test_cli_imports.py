"""The command line imports printer.api and the build plan only: what it needs from below is a name of the API."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import printer.cli

CLI = Path(printer.cli.__file__).parent
#: the modules of printer the CLI may import, with what is under each
ALLOWED = ("printer.api", "printer.sheets.plan", "printer.cli")
#: one command's own exception: `printer serve` starts the server, a front end over the API one layer under the CLI
EXCEPTIONS = {("serve_cmd.py", "printer.serve")}
#: the libraries the CLI may import besides Python's own
LIBRARIES = {"click"}


def _imports(path: Path) -> list[tuple[int, str]]:
    """``(line, module)`` of every import in ``path``, in a function or under ``TYPE_CHECKING`` too (``from printer
    import api`` counts as ``printer.api``)."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module is not None:
            if node.module == "printer":
                found += [(node.lineno, f"printer.{alias.name}") for alias in node.names]
            else:
                found.append((node.lineno, node.module))
    return found


def _allowed(file: str, module: str) -> bool:
    top = module.split(".")[0]
    if top != "printer":
        return top in sys.stdlib_module_names or top in LIBRARIES
    return any(module == a or module.startswith(a + ".") for a in ALLOWED) or (file, module) in EXCEPTIONS


def test_the_cli_imports_only_the_api_the_build_plan_and_itself():
    wrong = [
        f"printer/cli/{path.name}:{line}: imports {module}"
        for path in sorted(CLI.glob("*.py"))
        for line, module in _imports(path)
        if not _allowed(path.name, module)
    ]
    assert not wrong, (
        "the command line imports printer.api and printer.sheets.plan only; re-export what it needs from "
        "printer.api (a module of printer/api/ and its name in printer/api/__init__.pyi):\n" + "\n".join(wrong)
    )


def test_the_rule_sees_an_import_inside_a_function(tmp_path):
    source = tmp_path / "x_cmd.py"
    source.write_text("def run():\n    from printer.project import find_root\n    import printer.problems\n")
    assert [m for _, m in _imports(source) if not _allowed(source.name, m)] == ["printer.project", "printer.problems"]
