"""Editing one card in a JSON card file while keeping the rest of the file as it was written.

A designer's card file has its own key order, indentation, line breaks
and other cards; an editor that re-serialises the whole file would turn a
one-field change into a diff of every line. These functions change only
the text of what changed:

- :func:`replace_card` rewrites the members of one card object whose value
  changed (members kept keep their exact text, removed ones go, new ones
  are added after the last with the file's separator and indentation);
- :func:`insert_card` adds a card to the file's card list after a given one;
- :func:`delete_card` removes one card from the list.

Positions come from ``json_source_map`` (the JSON pointer of every value
with its start and end). Each result is parsed again and compared with the
intended data; a mismatch raises :class:`CardEditError` rather than
writing a file that says something else. Spreadsheet rows are not edited
here. Cards are located by their record pointer (``$``, ``$[3]``,
``$.cards[3]``: :class:`printer.cards.load.Record`).
"""

from __future__ import annotations

import json
import re
from collections import Counter
from dataclasses import dataclass
from typing import Any

from printer.jsonvalue import JSONObject
from printer.problems import Problem


class CardEditError(Exception):
    """The edit cannot be made (the card is not where the editor saw it, or the file is not a card list)."""

    def __init__(self, problem: Problem):
        super().__init__(problem.message)
        self.problem = problem


@dataclass(frozen=True)
class _Style:
    indent: str  # one level of indentation ("  ", "    " or "\t")
    ascii: bool  # non-ASCII written as \\u escapes


def pointer_parts(pointer: str) -> list[str | int]:
    """A record pointer (``$.cards[3]``, ``$[2]``, ``$``) as its steps: ``["cards", 3]``."""
    parts: list[str | int] = []
    for name, index in re.findall(r"\.([A-Za-z_][A-Za-z0-9_]*)|\[(\d+)\]", pointer):
        parts.append(int(index) if index else name)
    return parts


def _json_pointer(parts: list[str | int]) -> str:
    return "".join("/" + str(p).replace("~", "~0").replace("/", "~1") for p in parts)


def _style(text: str) -> _Style:
    indents = [m.group(1) for m in re.finditer(r"\n([ \t]+)\S", text)]
    unit = "  "
    if any(i.startswith("\t") for i in indents):
        unit = "\t"
    elif indents:
        unit = " " * max(1, min(len(i) for i in indents))
    non_ascii = any(ord(c) > 127 for c in text)
    return _Style(unit, "\\u00" in text.lower() and not non_ascii)


def _line_indent(text: str, position: int) -> str:
    start = text.rfind("\n", 0, position) + 1
    match = re.match(r"[ \t]*", text[start:])
    assert match is not None  # the pattern matches the empty string
    return match.group(0)


def _dump(value: object, style: _Style, base: str, multiline: bool) -> str:
    """``value`` as JSON text starting at a line indented ``base``; one line unless ``multiline``."""
    if not multiline or not isinstance(value, (dict, list)) or not value:
        return json.dumps(value, ensure_ascii=style.ascii)
    text = json.dumps(value, ensure_ascii=style.ascii, indent=style.indent)
    return text.replace("\n", "\n" + base)


def _at(data: object, parts: list[str | int]) -> object:
    for part in parts:
        data = data[part]  # type: ignore[index]  # JSON data: a dict or list at each part of the path
    return data


def _source_map(text: str) -> dict[str, Any]:
    """``{JSON pointer: json_source_map Entry}`` of ``text``."""
    from json_source_map import calculate  # the serve extra (printer serve is what edits cards)

    try:
        entries: dict[str, Any] = calculate(text)
        return entries
    except Exception as exc:  # the file no longer parses: it changed on disk since the editor read it
        raise CardEditError(
            Problem("card file", f"the file cannot be read as JSON: {exc}", code="json-syntax")
        ) from None


def _check(text: str, expected: object, where: str) -> str:
    try:
        if json.loads(text) == expected:
            return text
    except ValueError:
        pass
    raise CardEditError(Problem(where, "the edit would not give the intended file; nothing was written", code="edit"))


def replace_card(text: str, pointer: str, card: JSONObject) -> str:
    """``text`` with the card object at ``pointer`` holding ``card``; every other character as it was.

    Members whose value is unchanged keep their text; a changed value is
    written in the file's indentation (on one line when it was on one
    line); fields that ``card`` lacks are removed; new fields are added at
    the end, in ``card``'s order. Raises :class:`CardEditError` when the
    file does not parse or holds no object at ``pointer``.
    """
    data = json.loads(text)
    parts = pointer_parts(pointer)
    try:
        old = _at(data, parts)
    except (KeyError, IndexError, TypeError):
        old = None
    if not isinstance(old, dict):
        raise CardEditError(Problem(pointer, "no card at this place in the file", code="edit"))
    smap = _source_map(text)
    base = _json_pointer(parts)
    span = smap[base]
    start, end = span.value_start.position, span.value_end.position
    style = _style(text)
    members = [(k, smap[base + "/" + k.replace("~", "~0").replace("/", "~1")]) for k in old]
    multiline = "\n" in text[start:end]
    member_indent = _line_indent(text, members[0][1].key_start.position) if members and multiline else ""
    if members:
        first_gap = text[start + 1 : members[0][1].key_start.position]
        gaps = [text[a[1].value_end.position : b[1].key_start.position] for a, b in zip(members, members[1:])]
        separator = Counter(gaps).most_common(1)[0][0] if gaps else "," + first_gap
        tail = text[members[-1][1].value_end.position : end - 1]
        colon = text[members[0][1].key_end.position : members[0][1].value_start.position]
    else:
        first_gap = "\n" + _line_indent(text, start) + style.indent if multiline else ""
        separator, tail, colon = "," + first_gap, ("\n" + _line_indent(text, start)) if multiline else "", ": "
        member_indent = _line_indent(text, start) + style.indent
    pieces: list[tuple[str, int | None]] = []
    by_key = dict(members)
    order = {key: i for i, (key, _) in enumerate(members)}
    for key, value in card.items():
        entry = by_key.get(key)
        if entry is not None and old[key] == value and type(old[key]) is type(value):
            pieces.append((text[entry.key_start.position : entry.value_end.position], order[key]))
        elif entry is not None:
            was_multiline = "\n" in text[entry.value_start.position : entry.value_end.position]
            start_text = text[entry.key_start.position : entry.value_start.position]
            pieces.append((start_text + _dump(value, style, member_indent, was_multiline), order[key]))
        else:
            member = json.dumps(key, ensure_ascii=style.ascii) + colon + _dump(value, style, member_indent, multiline)
            pieces.append((member, None))
    body = first_gap + _joined(pieces, gaps if members else [], separator) + tail if pieces else ""
    result = text[:start] + "{" + body + "}" + text[end:]
    data = _set(data, parts, card)
    return _check(result, data, pointer)


def _joined(pieces: list[tuple[str, int | None]], gaps: list[str], separator: str) -> str:
    """The pieces joined: two that were neighbours in the file keep the text between them, others get ``separator``."""
    out = []
    for i, (piece, index) in enumerate(pieces):
        if i:
            before = pieces[i - 1][1]
            if before is not None and index is not None and index == before + 1:
                out.append(gaps[before])
            else:
                out.append(separator)
        out.append(piece)
    return "".join(out)


def _set(data: object, parts: list[str | int], value: object) -> object:
    if not parts:
        return value
    _at(data, parts[:-1])[parts[-1]] = value  # type: ignore[index]  # JSON data, as in _at
    return data


def _card_list(data: object, pointer: str) -> tuple[list[str | int], int, list[object]]:
    """``(steps of pointer, the card's index in its list, the list)``."""
    parts = pointer_parts(pointer)
    index = parts[-1] if parts else None
    if not isinstance(index, int):
        raise CardEditError(
            Problem(pointer, "this file holds one card, not a list of cards", "put the cards in a list", code="edit")
        )
    cards = _at(data, parts[:-1])
    if not isinstance(cards, list):
        raise CardEditError(Problem(pointer, "no card list at this place in the file", code="edit"))
    return parts, index, cards


def _list_text(text: str, parts: list[str | int], items: list[object], keep: list[int | None]) -> str:
    """The card list at ``parts[:-1]`` rewritten to ``items``; ``keep[i]`` is the old index whose text item i keeps."""
    smap = _source_map(text)
    base = _json_pointer(parts[:-1])
    span = smap[base]
    start, end = span.value_start.position, span.value_end.position
    style = _style(text)
    n_old = sum(1 for key in smap if key.startswith(base + "/") and key.count("/") == base.count("/") + 1)
    spans = [smap[f"{base}/{i}"] for i in range(n_old)]
    if spans:
        first_gap = text[start + 1 : spans[0].value_start.position]
        gaps = [text[a.value_end.position : b.value_start.position] for a, b in zip(spans, spans[1:])]
        separator = Counter(gaps).most_common(1)[0][0] if gaps else "," + first_gap
        tail = text[spans[-1].value_end.position : end - 1]
        indent = _line_indent(text, spans[0].value_start.position)
    else:
        outer = _line_indent(text, start)
        indent = outer + style.indent
        first_gap, separator, tail = "\n" + indent, ",\n" + indent, "\n" + outer
    pieces: list[tuple[str, int | None]] = [
        (text[spans[k].value_start.position : spans[k].value_end.position], k)
        if k is not None
        else (_dump(item, style, indent, True), None)
        for item, k in zip(items, keep)
    ]
    body = first_gap + _joined(pieces, gaps if spans else [], separator) + tail if pieces else ""
    return text[:start] + "[" + body + "]" + text[end:]


def insert_card(text: str, after: str | None, card: JSONObject, list_pointer: str = "$.cards") -> tuple[str, str]:
    """``text`` with ``card`` added to the card list after the card at ``after`` (at the end when ``None``).

    ``list_pointer`` names the list when ``after`` is ``None`` (``$.cards``
    or ``$``). Returns ``(new text, pointer of the new card)``. Raises
    :class:`CardEditError` when the file holds no card list.
    """
    data = json.loads(text)
    if after is None:
        parts = pointer_parts(list_pointer)
        cards = _at(data, parts) if parts or isinstance(data, list) else None
        if not isinstance(cards, list):
            raise CardEditError(Problem(list_pointer, "no card list in this file", code="edit"))
        index = len(cards)
        parts = [*parts, index]
    else:
        parts, index, cards = _card_list(data, after)
        index += 1
        parts = [*parts[:-1], index]
    keep: list[int | None] = list(range(len(cards)))
    keep.insert(index, None)
    cards.insert(index, card)
    result = _list_text(text, parts, cards, keep)
    new_pointer = "$" + "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in parts)
    return _check(result, data, new_pointer), new_pointer


def delete_card(text: str, pointer: str) -> str:
    """``text`` without the card at ``pointer`` (in a card list). Raises :class:`CardEditError` otherwise."""
    data = json.loads(text)
    parts, index, cards = _card_list(data, pointer)
    if not 0 <= index < len(cards):
        raise CardEditError(Problem(pointer, "no card at this place in the file", code="edit"))
    keep: list[int | None] = [i for i in range(len(cards)) if i != index]
    del cards[index]
    return _check(_list_text(text, parts, cards, keep), data, pointer)


def card_at(text: str, pointer: str) -> JSONObject | None:
    """The card object at ``pointer`` in the JSON ``text``, or ``None``."""
    try:
        found = _at(json.loads(text), pointer_parts(pointer))
    except (ValueError, KeyError, IndexError, TypeError):
        return None
    return found if isinstance(found, dict) else None
