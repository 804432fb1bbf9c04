"""Fuzzing of what a project is made of: printer.toml, rules.toml and Markdown chapters (Hypothesis).

Card files and decklists are fuzzed in test_properties.py. Here any TOML a
stranger could write (known keys with values of any type, unknown keys,
nesting, text that is not TOML at all) goes through printer.toml loading and
validation, and through rules.toml reading; any text goes through the rules
Markdown renderer. The only exceptions allowed out are printer's own
(:class:`printer.problems.PrinterError`, which carry located problems); any
other exception is a bug. The budget is the Hypothesis profile's (75
examples per test in CI; a third of that for the printer.toml property, whose
examples each load and validate a project).
"""

from __future__ import annotations

from pathlib import Path

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from markupsafe import Markup

from printer import api
from printer.book.markdown import render_chapter, rules_markdown
from printer.book.source import read_settings
from printer.problems import PrinterError

PROJECT_KEYS = ["paper", "margin", "gutter", "bleed", "duplex", "marks", "sort", "sheet_layout", "read_also", "x"]
GAME_KEYS = ["name", "card_size", "back_field", "backs", "cards", "schema", "templates", "lang", "rules", "bakcs"]
RULES_KEYS = ["title", "subtitle", "lang", "files", "aid_copies", "cover_cards", "accent", "version", "credits", "x"]

scalars = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(10**12), max_value=10**12)
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.text(max_size=30)
    | st.sampled_from(["A4", "63x88mm", "1e9x1e9mm", "nan", "../..", "/etc", "poker", "long-edge", "l5r"])
)
values = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)


def _toml_value(value) -> str:
    if value is None:
        return '""'
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return (
            "nan"
            if value != value
            else ("inf" if value == float("inf") else "-inf" if value == float("-inf") else repr(value))
        )
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'
    if isinstance(value, list):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    return "{" + ", ".join(f"{_toml_value(str(k))} = {_toml_value(v)}" for k, v in value.items()) + "}"


def _table(keys: list[str]):
    return st.dictionaries(st.sampled_from(keys), values, max_size=5)


printer_tomls = st.builds(
    lambda project, games, junk: (
        "[project]\n"
        + "".join(f"{k} = {_toml_value(v)}\n" for k, v in project.items())
        + "".join(
            f"[games.{_toml_value(gid)}]\n" + "".join(f"{k} = {_toml_value(v)}\n" for k, v in table.items())
            for gid, table in games.items()
        )
        + junk
    ),
    _table(PROJECT_KEYS),
    st.dictionaries(st.sampled_from(["l5r", "t", "../x", "A B", ""]), _table(GAME_KEYS), max_size=2),
    st.sampled_from(["", "[limits]\ncards_per_build = 0\n", "x = [[[[1]]]]\n", "= broken", "[games]\n"]),
)


# each example loads and validates a project: a third of the profile's examples (25 under scripts/test)
@settings(
    max_examples=max(10, settings.default.max_examples // 3),
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(printer_tomls)
@example(text='[project]\npaper = ""\nmargin = ""\nread_also = 1.0\n')  # read_also not a list: once a TypeError
def test_any_printer_toml_loads_or_says_why(tmp_path: Path, text: str) -> None:
    (tmp_path / "printer.toml").write_text(text, encoding="utf-8")
    try:
        project = api.load_project(tmp_path)
        api.validate(project, render=False)
    except PrinterError as exc:
        assert exc.problems and all(p.where for p in exc.problems)


@settings(suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.text(max_size=300))
def test_any_text_as_printer_toml_loads_or_says_why(tmp_path: Path, text: str) -> None:
    (tmp_path / "printer.toml").write_text(text, encoding="utf-8")
    try:
        api.load_project(tmp_path)
    except PrinterError as exc:
        assert exc.problems


@settings(suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.dictionaries(st.sampled_from(RULES_KEYS), values, max_size=6) | st.text(max_size=200))
def test_any_rules_toml_reads_or_says_why(tmp_path: Path, content) -> None:
    text = content if isinstance(content, str) else "".join(f"{k} = {_toml_value(v)}\n" for k, v in content.items())
    path = tmp_path / "rules.toml"
    path.write_text(text, encoding="utf-8")
    settings_read, problems = read_settings(path)
    assert isinstance(settings_read, dict)
    assert all(str(p.where).startswith(str(path)) for p in problems)


markdown_bits = st.sampled_from(
    [
        "# ",
        "## ",
        "> ",
        "- ",
        "1. ",
        "[",
        "](",
        ")",
        "**",
        "*",
        "`",
        "```",
        "```printer card x\n",
        ":::",
        "{gold}",
        "{",
        "}",
        "\n",
        "\n\n",
        "|a|b|\n|-|-|\n",
        "[^1]",
        "[^1]: n\n",
        "term\n: def\n",
        "<b>",
        "مرحبا",
        "🐉",
        "text",
    ]
)


@given(st.lists(markdown_bits | st.text(max_size=10), max_size=60).map("".join) | st.text(max_size=400))
def test_any_markdown_chapter_renders_or_says_why(text: str) -> None:
    md = rules_markdown()
    chapter, problems = render_chapter(
        md, Path("rules/t/01.md"), text, lambda info, body, line: Markup(""), lambda name: None, lambda: [], set()
    )
    assert isinstance(str(chapter.html), str)
    assert all(str(p.where).startswith("rules/t/01.md") for p in problems)


def test_deeply_nested_markdown_is_bounded() -> None:
    text = "> " * 5000 + "deep\n\n" + "[" * 3000 + "x" + "](y)" * 3000 + "\n"
    chapter, _ = render_chapter(
        rules_markdown(), Path("rules/t/01.md"), text, lambda *a: Markup(""), lambda name: None, lambda: [], set()
    )
    assert "deep" in str(chapter.html) or chapter.html is not None
