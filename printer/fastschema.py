"""A compiled JSON Schema validator for the verdict only: is this card valid, yes or no.

:class:`~printer.cards.schema.SchemaStore` asks :func:`compile_fast` for a
validator per schema file and calls its ``is_valid`` on every card; only a
card it finds invalid goes through python-jsonschema, which explains it with
located messages. The fast validator is jsonschema-rs (PyPI ``jsonschema-rs``,
https://github.com/Stranger6667/jsonschema, compiled once per schema). It is
built to be never more lenient than python-jsonschema, so that a card it
accepts has no problem to report:

- ``$ref`` to another schema is fetched through the store's own retrieval
  (the schema folders of the project and of printer only: no network, no file
  outside them); a reference it cannot fetch makes the schema fall back to the
  slow path, which reports it as today.
- ``pattern``: jsonschema-rs matches the ECMA-262 dialect with a linear-time
  engine (Rust's ``regex`` crate: no catastrophic backtracking, so no time
  limit is needed). Where ECMA-262 can accept a string Python's ``regex``
  refuses (``\\s``, ``\\S``, ``\\D``, ``\\W``, ``\\b``, Unicode classes, negated
  sets, lookaround, back references, inline flags) the pattern is matched
  by Python's ``regex`` module instead, with the time limit of
  :data:`printer.cards.schema.PATTERN_SECONDS`, through a custom keyword.
- ``format``: the formats python-jsonschema checks are checked by the same
  Python functions; the formats only jsonschema-rs knows make it stricter,
  never more lenient (a card it wrongly refuses is re-checked by the slow path
  and passes).

Anything jsonschema-rs cannot compile (a custom meta-schema, an unsupported
draft) gives ``None``: that schema is validated by python-jsonschema alone,
as before.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from importlib.util import find_spec
from typing import TYPE_CHECKING

from printer.jsonvalue import JSON, JSONObject

if TYPE_CHECKING:
    import jsonschema_rs

#: the keyword under which patterns that must be matched by Python's ``regex`` are handed to jsonschema-rs
PY_PATTERN = "x-printer-python-pattern"

# Escapes whose ECMA-262 meaning is a subset of Python's (so jsonschema-rs is never more lenient on them):
# \d and \w are ASCII-only in ECMA-262 and Unicode in Python; \n \t \r \f \v are the same characters.
_SAFE_ESCAPES = set("dwntrfv")
_ANYWHERE_UNSAFE = ("[^", "(?")  # negated sets (their complement is larger in ECMA), lookaround, flags, named groups


def portable(pattern: str) -> bool:
    """Whether ``pattern`` can only be as strict or stricter in ECMA-262 than in Python's ``regex``.

    True for literals, explicit sets such as ``[a-z0-9._-]``, anchors (``$``
    does not accept a trailing newline in ECMA-262, as it does in Python),
    ``.``, groups, alternation, quantifiers and the escapes ``\\d \\w`` and
    escaped punctuation.
    """
    if any(bad in pattern for bad in _ANYWHERE_UNSAFE):
        return False
    i = 0
    while i < len(pattern):
        if pattern[i] == "\\":
            if i + 1 >= len(pattern):
                return False
            following = pattern[i + 1]
            if following.isalnum() and following not in _SAFE_ESCAPES:
                return False
            i += 2
        else:
            i += 1
    return True


_NOT_SCHEMAS = {"const", "enum", "examples", "default"}  # keys whose values are data, not subschemas
#: keywords whose value maps names (data, whatever they are: a property may be called "pattern") to subschemas
_SCHEMA_MAPS = {"properties", "patternProperties", "$defs", "definitions", "dependentSchemas"}


def rewrite(schema: JSON) -> JSON:
    """A copy of ``schema`` with every non-:func:`portable` ``pattern`` renamed to :data:`PY_PATTERN`."""
    if isinstance(schema, list):
        return [rewrite(item) for item in schema]
    if not isinstance(schema, dict):
        return schema
    out: JSONObject = {}
    for key, value in schema.items():
        if key in _NOT_SCHEMAS:
            out[key] = value
        elif key == "pattern" and isinstance(value, str) and not portable(value):
            out[PY_PATTERN] = value
        elif key in _SCHEMA_MAPS and isinstance(value, dict):
            out[key] = {name: rewrite(sub) for name, sub in value.items()}
        else:
            out[key] = rewrite(value)
    return out


class _PythonPattern:
    """The ``pattern`` keyword matched by Python's ``regex`` module with a time limit (a jsonschema-rs keyword)."""

    seconds = 0.5

    def __init__(self, parent_schema: JSONObject, value: str, schema_path: list[str | int]) -> None:
        import regex

        try:
            self.compiled = regex.compile(value)
        except (regex.error, TypeError):
            self.compiled = None

    def validate(self, instance: object) -> None:
        if not isinstance(instance, str):
            return
        if self.compiled is None:
            raise ValueError("the schema's pattern is not a valid regular expression")
        try:
            found = self.compiled.search(instance, timeout=self.seconds)
        except TimeoutError:
            raise ValueError("pattern timed out") from None
        if found is None:
            raise ValueError("does not match")


def _python_formats() -> dict[str, Callable[[str], bool]]:
    """python-jsonschema's format checks (those its installed dependencies allow), as jsonschema-rs format functions."""
    import jsonschema

    checker = jsonschema.Draft202012Validator.FORMAT_CHECKER

    def check(name: str) -> Callable[[str], bool]:
        return lambda value: bool(checker.conforms(value, name))

    return {name: check(name) for name in checker.checkers}


def _python_only(schema: JSON) -> bool:
    """Whether ``schema`` has a ``patternProperties`` name that is not :func:`portable` (matched by Python's ``re``)."""
    if isinstance(schema, list):
        return any(_python_only(v) for v in schema)
    if not isinstance(schema, dict):
        return False
    names = schema.get("patternProperties")
    if isinstance(names, dict) and not all(portable(n) for n in names):
        return True
    for key, value in schema.items():
        if key in _SCHEMA_MAPS and isinstance(value, dict):
            if any(_python_only(sub) for sub in value.values()):
                return True
        elif key not in _NOT_SCHEMAS and _python_only(value):
            return True
    return False


def _mentions_format(schema: JSON) -> bool:
    if isinstance(schema, dict):
        return "format" in schema or any(_mentions_format(v) for v in schema.values())
    if isinstance(schema, list):
        return any(_mentions_format(v) for v in schema)
    return False


def compile_fast(
    schema: JSONObject,
    base_uri: str | None,
    retrieve: Callable[[str], JSON],
    pattern_seconds: float = 0.5,
    check_formats: bool = True,
) -> jsonschema_rs.Validator | None:
    """A jsonschema-rs validator for ``schema`` (its ``is_valid(data)`` is the verdict), or ``None``.

    ``base_uri`` is the schema's ``$id`` or file URI; ``retrieve(uri)`` gives
    the contents of a referenced schema or raises. ``check_formats``: assert
    ``format`` as python-jsonschema does with a format checker (without one
    it does not). ``None`` when jsonschema-rs
    is not installed or cannot compile the schema (its references, draft or
    meta-schema): the caller then validates with python-jsonschema alone.
    """
    try:
        import jsonschema_rs
    except ImportError:  # pragma: no cover - a core dependency; validation still works without it, slower
        return None

    formats: list[bool] = [_mentions_format(schema)]

    def fetch(uri: str) -> JSON:
        contents = retrieve(uri)
        if _python_only(contents):
            raise ValueError(f"{uri}: patternProperties only Python matches")
        formats[0] = formats[0] or _mentions_format(contents)
        return rewrite(contents)

    class Pattern(_PythonPattern):
        seconds = pattern_seconds

    if _python_only(schema):
        return None

    def build(python_formats: dict[str, Callable[[str], bool]] | None) -> jsonschema_rs.Validator:
        return jsonschema_rs.validator_for(
            rewrite(schema),
            base_uri=base_uri,
            retriever=fetch,
            formats=python_formats,
            validate_formats=check_formats,
            pattern_options=jsonschema_rs.RegexOptions(),
            keywords={PY_PATTERN: Pattern},
        )

    try:
        validator = build(None)
        if formats[0] and check_formats:  # a format is named: check it with python-jsonschema's own function
            validator = build(_python_formats())
        return validator
    except Exception:  # noqa: BLE001 - whatever jsonschema-rs refuses is validated the slow way
        return None


#: the 2020-12 meta-schema's URI; a schema naming another draft (or none) is checked by python-jsonschema
DRAFT_2020_12 = "https://json-schema.org/draft/2020-12/schema"


def schema_is_valid(schema: JSON) -> bool:
    """True only when python-jsonschema's ``Draft202012Validator.check_schema`` would accept ``schema``.

    That check is the 2020-12 meta-schema with the formats python-jsonschema
    asserts in it: ``regex`` (Python's ``re``) always, ``uri`` and
    ``uri-reference`` only when ``rfc3987`` or ``rfc3986-validator`` is
    installed. jsonschema-rs checks the meta-schema, every ``pattern`` and
    ``patternProperties`` name is compiled with ``re``; when the URI formats
    would be checked too, or the schema names another draft, this says
    ``False`` and the caller runs python-jsonschema's own check (so a bad
    schema is always reported with its message).
    """
    if not isinstance(schema, dict) or schema.get("$schema", DRAFT_2020_12).rstrip("#") != DRAFT_2020_12:
        return False
    if python_checks_uris():
        return False
    try:
        import jsonschema_rs

        if not jsonschema_rs.meta.is_valid(schema):
            return False
    except Exception:  # noqa: BLE001 - jsonschema-rs missing or refusing: python-jsonschema decides
        return False
    try:
        for pattern in _patterns(schema):
            re.compile(pattern)
    except (re.error, TypeError, RecursionError):
        return False
    return True


def python_checks_uris() -> bool:
    """Whether python-jsonschema's format checker asserts ``uri`` and ``uri-reference`` (it does when one of these
    packages is installed: see jsonschema/_format.py)."""
    return any(find_spec(name) is not None for name in ("rfc3987", "rfc3986_validator"))


def _patterns(schema: JSON) -> Iterator[str]:
    """Every ``pattern`` value and ``patternProperties`` name in ``schema`` (what the meta-schema's ``regex``
    format applies to, and possibly more: data under ``const`` and ``enum`` is skipped)."""
    stack = [schema]
    while stack:
        node = stack.pop()
        if isinstance(node, list):
            stack += node
        elif isinstance(node, dict):
            for key, value in node.items():
                if key in _NOT_SCHEMAS:
                    continue
                if key == "pattern" and isinstance(value, str):
                    yield value
                elif key in _SCHEMA_MAPS and isinstance(value, dict):
                    if key == "patternProperties":
                        yield from value
                    stack += value.values()
                else:
                    stack.append(value)
