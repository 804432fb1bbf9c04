"""The compiled verdict (jsonschema-rs) never accepts what python-jsonschema refuses, and bad schemas still say why."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import jsonschema
import pytest

from printer import fastschema as fast_schema
from printer.cards.schema import SchemaStore, _errors

PATTERNS = [
    r"\S",
    r"\s",
    r"^\d+$",
    r"^\w+$",
    r"^\D+$",
    r"^\W+$",
    r"^[^a-z]+$",
    r"^a$",
    r"^.$",
    r"\bword\b",
    r"(?i)^abc$",
    r"^(?=a)\w+$",
    r"^[a-z0-9][a-z0-9-]*$",
    r"^([+-]?[0-9]+\*?|[+-]?\*|X)$",
]
VALUES = ["", " ", "a", "A", "abc", "ABC", "a\n", "\x1c", "\x85", "\ufeff", "\u00a0", "\u0663", "é", "word", "-1", "+*"]


def _store(tmp_path: Path, schema: dict) -> tuple[SchemaStore, Path]:
    folder = tmp_path / "schema"
    folder.mkdir(exist_ok=True)
    file = folder / "thing.schema.json"
    file.write_text(json.dumps(schema), encoding="utf-8")
    return SchemaStore([tmp_path]), file


def _python_valid(store: SchemaStore, file: Path, data: object) -> bool:
    return not list(_errors(store.validator(file), data, file))


@pytest.mark.parametrize("pattern", PATTERNS)
def test_a_pattern_never_accepts_more_than_python_regex(tmp_path, pattern):
    store, file = _store(tmp_path, {"type": "object", "properties": {"v": {"type": "string", "pattern": pattern}}})
    fast = store.fast_validator(file)
    assert fast is not None
    for value in VALUES:
        if fast.is_valid({"v": value}):
            assert _python_valid(store, file, {"v": value}), (pattern, value)


def test_portable_patterns_are_left_to_the_linear_engine():
    assert fast_schema.portable(r"^[a-z0-9][a-z0-9._-]*$")
    assert fast_schema.portable(r"^([+-]?[0-9]+|-)$")
    assert fast_schema.portable(r"^\d+\.\w$")
    for pattern in (r"\S", r"\s", r"[^a]", r"(?=a)", r"(a)\1", r"\p{L}", r"\bx", "\\"):
        assert not fast_schema.portable(pattern), pattern


def test_names_in_maps_are_not_keywords():
    schema = {"$defs": {"const": {"pattern": r"\S"}}, "properties": {"enum": {"patternProperties": {r"\s": {}}}}}
    assert fast_schema.rewrite(schema)["$defs"]["const"] == {fast_schema.PY_PATTERN: r"\S"}
    assert fast_schema._python_only(schema)
    assert set(fast_schema._patterns(schema)) == {r"\S", r"\s"}


def test_a_property_named_pattern_is_not_a_keyword():
    schema = {"properties": {"pattern": {"type": "string"}}, "const": {"pattern": r"\S"}, "pattern": r"\S"}
    out = fast_schema.rewrite(schema)
    assert out["properties"] == {"pattern": {"type": "string"}}
    assert out["const"] == {"pattern": r"\S"}
    assert out[fast_schema.PY_PATTERN] == r"\S" and "pattern" not in out


@pytest.mark.parametrize(
    "fmt,good,bad", [("date", "2024-02-29", "2024-02-30"), ("email", "a@b.c", "nobody"), ("ipv4", "10.0.0.1", "10.0.0")]
)
def test_formats_are_checked_as_python_jsonschema_checks_them(tmp_path, fmt, good, bad):
    store, file = _store(tmp_path, {"properties": {"v": {"type": "string", "format": fmt}}})
    assert store.validate({"v": good}, file, "x") == []
    assert store.validate({"v": bad}, file, "x") != []
    assert not store.fast_validator(file).is_valid({"v": bad})


def test_a_catastrophic_pattern_is_still_stopped_and_reported(tmp_path):
    """A backtracking pattern goes through Python's regex with its time limit, in the verdict as in the message."""
    store, file = _store(tmp_path, {"properties": {"v": {"type": "string", "pattern": r"^(\w+\s?)+$"}}})
    assert fast_schema.PY_PATTERN in json.dumps(fast_schema.rewrite(store.schema(file)))
    problems = store.validate({"v": "a" * 40 + "!"}, file, "card.json::$")
    assert [(p.where, p.message) for p in problems] == [
        ("card.json::$.v", f'"{"a" * 40}!" does not match the expected form')
    ]


def test_a_ref_out_of_the_schema_folders_falls_back_and_is_reported(tmp_path):
    store, file = _store(tmp_path, {"$id": "https://x.invalid/c", "$ref": "http://example.invalid/schema.json"})
    assert store.fast_validator(file) is None
    with pytest.raises(Exception, match="does not resolve"):
        store.validate({}, file, "card.json::$")


BAD_SCHEMAS = [
    {"type": "strin"},
    {"minimum": "3"},
    {"pattern": "(?<x"},
    {"pattern": r"\p{L}"},  # the regex module knows it, Python's re (the meta-schema's "regex" format) does not
    {"patternProperties": {"(": {}}},
    {"properties": {"a": {"pattern": "["}}},
    {"required": "id"},
]


@pytest.mark.parametrize("schema", BAD_SCHEMAS, ids=json.dumps)
def test_schema_is_valid_never_accepts_what_check_schema_refuses(schema):
    with pytest.raises(jsonschema.SchemaError):
        jsonschema.Draft202012Validator.check_schema(schema)
    assert not fast_schema.schema_is_valid(schema)


def test_a_bad_schema_is_reported_as_before(tmp_path):
    store, file = _store(tmp_path, {"properties": {"a": {"pattern": "["}}})
    with pytest.raises(Exception, match="not a valid JSON Schema"):
        store.validate({"a": "x"}, file, "card.json::$")


def test_uri_formats_are_predicted_as_python_jsonschema_checks_them():
    checkers = set(jsonschema.Draft202012Validator.FORMAT_CHECKER.checkers)
    assert fast_schema.python_checks_uris() == bool({"uri", "uri-reference"} & checkers)


def test_other_drafts_are_checked_by_python_jsonschema():
    assert not fast_schema.schema_is_valid({"$schema": "http://json-schema.org/draft-07/schema#", "type": "object"})
    assert fast_schema.schema_is_valid({"$schema": "https://json-schema.org/draft/2020-12/schema", "type": "object"})


PROBE = """
import sys
from printer.cli import main
try:
    main(sys.argv[1:])
except SystemExit as exc:
    print("exit", exc.code)
print(" ".join(sorted(m for m in sys.modules if m.split(".")[0] in ("jsonschema", "referencing"))))
"""


def test_valid_cards_are_validated_without_python_jsonschema(repo):
    """The verdict comes from the compiled validator: python-jsonschema is not even imported."""
    args = ["--project", str(repo), "validate", "--no-render", str(repo / "cards" / "l5r")]
    done = subprocess.run([sys.executable, "-c", PROBE, *args], capture_output=True, text=True)
    lines = done.stdout.splitlines()
    assert "exit 0" in lines, done.stdout + done.stderr
    assert lines[-1] == "", f"imported {lines[-1]}"
