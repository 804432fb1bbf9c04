"""JSON Schema registry and validation with located, hinted problems.

Schemas are JSON Schema draft 2020-12 files under ``schema/`` (the
project's first, then printer's bundled ones). Each is registered under its
``$id`` and its file URI, so ``$ref: "../card.schema.json"`` works both
ways. Validation reports every error as ``file::$.json.path: message`` with
a hint naming the closest valid field or value.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from collections.abc import Callable, Iterable, Iterator
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import unquote, urldefrag, urlparse

from printer.cards.record import json_key as _key
from printer.cards.record import json_type
from printer.jsonvalue import JSON, JSONObject
from printer.location import Location, as_location
from printer.paths import is_inside
from printer.problems import Candidates, Problem, UsageError, did_you_mean

# python-jsonschema, referencing and regex are imported when a card must be explained (or a schema checked the slow
# way): a project whose cards are valid is validated without them (printer.fastschema).
if TYPE_CHECKING:
    import jsonschema
    import jsonschema_rs
    from jsonschema.exceptions import ValidationError
    from referencing import Registry, Resource
    from referencing._core import Resolver


def _schema_files(root: Path) -> Iterable[Path]:
    folder = root / "schema"
    return sorted(folder.rglob("*.json")) if folder.is_dir() else []


class _NotRetrievable(LookupError):
    """A ``$ref`` to a schema :meth:`SchemaStore._retrieve_contents` will not read."""


class SchemaStore:
    """All schemas visible to a project, and a validator per schema file.

    ``roots`` are folders holding a ``schema/`` folder, most specific first
    (the project, then printer's bundled data). Raises :class:`UsageError`
    when a schema file is not valid JSON or not a valid schema.
    """

    def __init__(self, roots: Iterable[Path]):
        self.roots = [Path(r).resolve() for r in roots]
        self._by_uri: dict[str, object] = {}  # each schema's contents under its file URI and its $id
        self._contents: dict[Path, JSONObject] = {}
        self._validators: dict[Path, jsonschema.protocols.Validator] = {}
        self._fast: dict[
            Path, jsonschema_rs.Validator | None
        ] = {}  # by the schema file as given (resolving a path costs a stat a step)
        self._read = hashlib.sha256()  # every schema file read, by path and text (see digest)
        for root in reversed(self.roots):  # the project's files override the bundled ones
            for file in _schema_files(root):
                try:
                    text = file.read_text(encoding="utf-8")
                    self._read.update(f"{file}\0{len(text)}\0{text}".encode("utf-8", "surrogatepass"))
                    contents = json.loads(text)
                except json.JSONDecodeError as exc:  # at its line and column, as a card file's syntax error
                    raise UsageError(
                        f"schema {file} is not valid JSON: {exc}",
                        [Problem(f"{file}:{exc.lineno}:{exc.colno}", f"not valid JSON: {exc.msg}", code="schema-file")],
                    ) from None
                except (OSError, ValueError) as exc:
                    raise UsageError(
                        f"schema {file} is not valid JSON: {exc}",
                        [Problem(str(file), f"schema is not valid JSON: {exc}", code="schema-file")],
                    ) from None
                except RecursionError:
                    raise UsageError(
                        f"schema {file} is nested too deeply to read",
                        [Problem(str(file), "schema is nested too deeply to read", code="schema-file")],
                    ) from None
                if not isinstance(contents, dict):
                    held = json_type(contents)
                    raise UsageError(
                        f"schema {file} holds {held}, not a JSON object",
                        [
                            Problem(
                                f"{file}::$",
                                f"a schema file holds a JSON object, not {held}",
                                'start from {"$schema": "https://json-schema.org/draft/2020-12/schema", "type": "object"}',
                                code="schema-file",
                            )
                        ],
                    )
                self._by_uri[file.as_uri()] = contents
                if isinstance(contents, dict) and isinstance(contents.get("$id"), str):
                    self._by_uri[contents["$id"]] = contents
                self._contents[file.resolve()] = contents

    def digest(self) -> str:
        """A SHA-256 (hex) of every schema file the store read when made, by path and contents: what a schema's
        ``$ref`` can reach (:mod:`printer.cards.verdicts`)."""
        return self._read.hexdigest()

    @cached_property
    def registry(self) -> Registry:
        """The schemas as a :class:`referencing.Registry` for python-jsonschema, retrieving as :meth:`_retrieve`."""
        from referencing import Registry, Resource
        from referencing.jsonschema import DRAFT202012

        resources = {
            uri: Resource.from_contents(c, default_specification=DRAFT202012) for uri, c in self._by_uri.items()
        }
        return Registry(retrieve=self._retrieve).with_resources(resources.items())  # type: ignore[call-arg]  # referencing's attrs classes: mypy reads no keywords

    def _retrieve(self, uri: str) -> Resource:
        """:meth:`_retrieve_contents` as a :class:`referencing.Resource`; raises ``NoSuchResource`` instead."""
        from referencing import Resource
        from referencing.exceptions import NoSuchResource
        from referencing.jsonschema import DRAFT202012

        try:
            return Resource.from_contents(self._retrieve_contents(uri), default_specification=DRAFT202012)
        except _NotRetrievable:
            raise NoSuchResource(ref=uri) from None  # type: ignore[call-arg]  # referencing's attrs classes: mypy reads no keywords

    def _retrieve_contents(self, uri: str) -> object:
        """Resolve ``file:`` URIs of schemas that the project does not have from the bundled copies.

        Only local ``file:`` URIs whose real path lies in one of the roots'
        ``schema/`` folders are read; ``http:``, ``https:``, ``file://host/``
        and paths that leave the roots (``..``, links) raise
        :class:`_NotRetrievable` (``NoSuchResource`` through :meth:`_retrieve`),
        reported as a problem by :meth:`validate`: a schema never makes printer
        read another file or reach the network.
        """
        parsed = urlparse(uri)
        if parsed.scheme == "file" and parsed.netloc in ("", "localhost"):
            path = Path(os.path.realpath(unquote(parsed.path)))
            for root in self.roots:
                if not path.is_relative_to(root / "schema"):
                    continue
                relative = path.relative_to(root)
                for other in self.roots:
                    candidate = other / relative
                    if candidate.is_file() and is_inside(candidate, [other / "schema"]):
                        return json.loads(candidate.read_text(encoding="utf-8"))
        raise _NotRetrievable(uri)

    def contents_of(self, uri: str) -> object:
        """The contents of the schema at ``uri`` (its fragment ignored): one of the store's, or retrieved as
        :meth:`_retrieve_contents` allows (the retrieval of the fast validator, :mod:`printer.fastschema`, and of
        the translatable fields' walk). Raises ``LookupError`` for a schema it may not read."""
        uri = urldefrag(uri).url
        if uri in self._by_uri:
            return self._by_uri[uri]
        return self._retrieve_contents(uri)

    def validator(self, schema_file: Path) -> jsonschema.protocols.Validator:
        return _validator(self, schema_file.resolve())

    def fast_validator(self, schema_file: Path) -> jsonschema_rs.Validator | None:
        """The compiled verdict-only validator of ``schema_file`` (:mod:`printer.fastschema`), or ``None``.

        ``None`` when jsonschema-rs cannot honour the schema; then every card
        goes through python-jsonschema. Raises :class:`UsageError` as
        :meth:`validator` does for a schema that is not valid.
        """
        if schema_file not in self._fast:
            from printer.fastschema import compile_fast, schema_is_valid

            resolved = schema_file.resolve()
            schema = self.schema(resolved)
            if not schema_is_valid(schema):
                self.validator(resolved)  # python-jsonschema checks the schema: a UsageError with its located message
            base = schema.get("$id") if isinstance(schema, dict) and isinstance(schema.get("$id"), str) else None
            fast = None
            if isinstance(schema, dict):
                fast = compile_fast(schema, base or resolved.as_uri(), self.contents_of, PATTERN_SECONDS)
            self._fast[schema_file] = fast
        return self._fast[schema_file]

    def schema(self, schema_file: Path) -> JSONObject:
        schema_file = schema_file.resolve()
        if schema_file not in self._contents:
            try:
                self._contents[schema_file] = json.loads(schema_file.read_text(encoding="utf-8"))
            except (OSError, ValueError) as exc:
                raise UsageError(
                    f"cannot read schema {schema_file}: {exc}",
                    [Problem(str(schema_file), f"cannot read schema: {exc}", code="schema-file")],
                ) from None
        return self._contents[schema_file]

    def property_names(self, schema_file: Path) -> list[str]:
        """Every property name a schema allows, following its ``allOf`` references."""
        names: list[str] = []

        def walk(schema: JSONObject, resolver: Resolver[JSON]) -> None:
            if not isinstance(schema, dict):
                return
            names.extend(schema.get("properties", {}))
            for part in schema.get("allOf", []):
                if isinstance(part, dict) and "$ref" in part:
                    resolved = resolver.lookup(part["$ref"])
                    walk(resolved.contents, resolved.resolver)
                else:
                    walk(part, resolver)

        root = self.schema(schema_file)
        root_id = root.get("$id")
        base = root_id if isinstance(root_id, str) else schema_file.resolve().as_uri()
        walk(root, self.registry.resolver(base_uri=base))
        return list(dict.fromkeys(names))

    def validate(
        self, data: object, schema_file: Path, where: Location | str | Callable[[], Location]
    ) -> list[Problem]:
        """Validate ``data``; ``where`` is the place of ``data`` (``file::$.cards[3]``), each problem's place is
        below it. ``where`` may be a function giving it (a record's ``where``): it is called only when ``data``
        has problems, so that a valid card makes no :class:`Location`. A string is read by
        :meth:`Location.parse` (a bare JSON path, ``$``, is a path in no file).

        Returns one problem per error, sorted by location. The verdict comes
        from the compiled validator (:meth:`fast_validator`); only data it
        refuses is explained by python-jsonschema.
        """
        fast = self.fast_validator(schema_file)
        if fast is not None:
            try:
                if fast.is_valid(data):
                    return []
            except Exception:  # noqa: BLE001 - data jsonschema-rs cannot take is explained the slow way
                pass
        validator = self.validator(schema_file)
        where = _base(where)
        known = None
        problems: list[Problem] = []
        cascade: list[Problem] = []  # known fields reported as "unevaluated" only because their own subschema failed
        for error in _errors(validator, data, schema_file):
            if error.validator == "unevaluatedProperties" or (error.validator == "additionalProperties"):
                if known is None:
                    known = self.property_names(schema_file)
                local = list(error.schema.get("properties", {})) if isinstance(error.schema, dict) else []
                names = local if error.absolute_path and local else known  # a nested object's own fields
                candidates, listed = Candidates(names), "known fields: " + ", ".join(names)
                for index, name in enumerate(_unexpected(error)):
                    path = _json_path(error.absolute_path) + _key(name)
                    problem = Problem(
                        where.below(path),
                        f"unknown field {name!r}",
                        (did_you_mean(name, candidates) if index < _HINTED else None) or listed,
                        code="schema",
                    )
                    (cascade if name in known and error.validator == "unevaluatedProperties" else problems).append(
                        problem
                    )
                continue
            problems.append(_problem(error, where, self.schema(schema_file)))
        # A field the schema knows is "unevaluated" when the branch declaring it failed (a wrong type, say): that
        # failure is the error to report; say "unknown field" only when nothing else explains it.
        problems += cascade if not problems else []
        return sorted(problems, key=lambda p: str(p.where))


def _base(where: Location | str | Callable[[], Location]) -> Location:
    if isinstance(where, str):
        return Location(path=where) if where.startswith("$") else as_location(where)
    return where if isinstance(where, Location) else where()


def _errors(validator: jsonschema.protocols.Validator, data: object, schema_file: Path) -> Iterator[ValidationError]:
    """``validator.iter_errors(data)``; a ``$ref`` that resolves to nothing is a :class:`UsageError` at the schema."""
    from referencing.exceptions import Unresolvable

    try:
        yield from validator.iter_errors(data)
    except Unresolvable as exc:
        ref = getattr(exc, "ref", None) or str(exc)
        where = Location(str(schema_file), path=_ref_path(validator.schema, ref) or "$")
        hint = (
            'a game schema extends the card base schema with "allOf": [{"$ref": "../card.schema.json"}] and names '
            'itself with "$id", e.g. "https://printer.invalid/schema/<game>/card.schema.json"'
        )
        message = f"$ref {ref!r} does not resolve to a schema"
        raise UsageError(f"{where}: {message}", [Problem(where, message, hint, code="schema-file")]) from None


def _ref_path(schema: object, ref: str, path: str = "$") -> str | None:
    """The JSON path of the first ``$ref`` equal to ``ref`` in ``schema``."""
    if isinstance(schema, dict):
        if schema.get("$ref") == ref:
            return path + ".$ref"
        items: Iterable[tuple[object, object]] = schema.items()
    elif isinstance(schema, list):
        items = enumerate(schema)
    else:
        return None
    for key, value in items:
        found = _ref_path(value, ref, path + _key(key))
        if found:
            return found
    return None


def _validator(store: SchemaStore, schema_file: Path) -> jsonschema.protocols.Validator:
    cache = store._validators
    if schema_file not in cache:
        import jsonschema
        from referencing import Resource
        from referencing.jsonschema import DRAFT202012

        schema = store.schema(schema_file)
        try:
            jsonschema.Draft202012Validator.check_schema(schema)
        except jsonschema.SchemaError as exc:
            raise UsageError(
                f"{schema_file} is not a valid JSON Schema: {exc.message}",
                [
                    Problem(
                        f"{schema_file}::{_json_path(exc.absolute_path)}",
                        f"not a valid JSON Schema: {exc.message}",
                        code="schema-file",
                    )
                ],
            ) from None
        cls = jsonschema.validators.validator_for(schema, default=jsonschema.Draft202012Validator)
        cls = jsonschema.validators.extend(cls, {"pattern": _pattern})
        schema_id = schema.get("$id")
        base = schema_id if isinstance(schema_id, str) else schema_file.as_uri()
        if not isinstance(schema_id, str):  # no $id: relative $refs resolve against the schema's own file
            schema = {**schema, "$id": base}
        registry = store.registry.with_resource(base, Resource.from_contents(schema, default_specification=DRAFT202012))
        cache[schema_file] = cls(schema, registry=registry, format_checker=cls.FORMAT_CHECKER)
    return cache[schema_file]


#: the longest a schema's ``pattern`` may take on one value, seconds: a pattern that backtracks catastrophically
#: (``^(a+)+$`` on a long string) is stopped and reported instead of hanging validation
PATTERN_SECONDS = 0.5


def _pattern(
    validator: jsonschema.protocols.Validator, pattern: str, instance: object, schema: JSONObject
) -> Iterator[ValidationError]:
    """The ``pattern`` keyword, matched by the ``regex`` module with a time limit (:data:`PATTERN_SECONDS`)."""
    import regex
    from jsonschema.exceptions import ValidationError

    if not validator.is_type(instance, "string"):
        return
    try:
        matched = regex.search(pattern, instance, timeout=PATTERN_SECONDS)
    except TimeoutError:
        yield ValidationError(
            f"the schema's pattern {pattern!r} took over {PATTERN_SECONDS:g} s on this value and was stopped "
            "(the pattern backtracks catastrophically: simplify it)"
        )
        return
    except regex.error as exc:
        yield ValidationError(f"the schema's pattern {pattern!r} is not a valid regular expression: {exc}")
        return
    if matched is None:
        yield ValidationError(f"{instance!r} does not match {pattern!r}")


def _json_path(parts: Iterable[object]) -> str:
    return "".join(_key(p) for p in parts)


def _unexpected(error: ValidationError) -> list[str]:
    """Names of the properties an (un)evaluatedProperties error is about."""
    import ast

    instance = error.instance if isinstance(error.instance, dict) else {}
    # jsonschema's message quotes each unexpected name with repr(): read the quoted names back once (looking for
    # each name in the message would take time in the square of the number of fields)
    quoted = set()
    for literal in _QUOTED.findall(error.message):
        try:
            quoted.add(ast.literal_eval(literal))
        except (ValueError, SyntaxError):
            continue
    return [k for k in instance if k in quoted] or list(instance)


#: unknown fields of one object that get a "did you mean" hint (each takes about a millisecond)
_HINTED = 100
_QUOTED = re.compile(r"'(?:[^'\\]|\\.)*'" + r'|"(?:[^"\\]|\\.)*"')


def _short(value: object, limit: int = 60) -> str:
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _problem(error: ValidationError, where: Location, root: JSONObject) -> Problem:
    """Turn one jsonschema error into a located problem with a hint."""
    from jsonschema.exceptions import best_match

    while error.context:  # oneOf/anyOf: report the branch that came closest, not "no branch matched"
        error = best_match([e for e in error.context if e.validator != "type"] or error.context)
    path = where.below(_json_path(error.absolute_path))
    field = error.absolute_path[-1] if error.absolute_path else None
    validator, schema = error.validator, error.schema if isinstance(error.schema, dict) else {}
    hint = None
    if validator == "enum":
        options = [str(o) for o in error.validator_value]
        hint = did_you_mean(str(error.instance), options) or (
            "one of: " + ", ".join(options) if len(options) <= 20 else None
        )
        message = f"{_short(error.instance)} is not a valid {field if isinstance(field, str) else 'value'}"
    elif validator == "const":
        message = f"{_short(error.instance)} should be {_short(error.validator_value)}"
    elif validator == "required":
        missing = error.message.split("'")[1] if "'" in error.message else error.message
        message = f"missing required field {missing!r}"
        hint = _branch_description(error, root)
    elif validator == "type":
        expected = error.validator_value
        expected = " or ".join(expected) if isinstance(expected, list) else expected
        message = f"{_short(error.instance)} should be of type {expected}"
    elif validator == "not" and error.validator_value in ({}, True) and isinstance(field, str):
        # {"not": {}} forbids a field in one branch ({"properties": {"x": false}} would lose the field's path)
        message = f"field {field!r} is not allowed here"
    elif validator == "pattern":
        message = f"{_short(error.instance)} does not match the expected form"
        hint = schema.get("description") or f"pattern {error.validator_value}"
    elif validator in ("maxLength", "maxItems") and isinstance(error.instance, (str, list)):
        what = "characters long" if isinstance(error.instance, str) else "items"
        message = f"{len(error.instance):,} {what}, over the limit of {error.validator_value:,}"
    elif validator in ("maximum", "minimum", "exclusiveMaximum", "exclusiveMinimum") and isinstance(
        error.instance, (int, float)
    ):
        relation = {
            "maximum": "over the maximum of",
            "minimum": "under the minimum of",
            "exclusiveMaximum": "not under",
            "exclusiveMinimum": "not over",
        }[validator]
        message = f"{_short(error.instance)} is {relation} {error.validator_value}"
    else:
        message = error.message if len(error.message) < 200 else error.message[:199] + "…"
        hint = schema.get("description") if validator not in ("maxLength", "minLength", "minimum", "maximum") else None
    return Problem(path, message, hint or _branch_description(error, root), code="schema")


def _branch_description(error: ValidationError, root: JSONObject) -> str | None:
    """The description of the nearest schema on the error's path (an if/then rule's, say)."""
    node, found = root, None
    for step in error.relative_schema_path:
        try:
            node = node[step]
        except (KeyError, IndexError, TypeError):
            break
        if isinstance(node, dict) and isinstance(node.get("description"), str):
            found = node["description"]
    return found
