"""tinyhtml5's tokenizer reuses the regular expressions it reads runs of characters with, instead of making each one
again at every run.

WeasyPrint 70 parses every document's HTML with tinyhtml5 (:data:`TINYHTML5`). Its input stream reads a run of
characters (text up to the next ``<`` or ``&``, an attribute's value up to its quote, spaces) with
``HTMLUnicodeInputStream.chars_until``, which keeps each run's regular expression in the module's
``characters_until_regex``, by the characters and ``opposite``. But it stores each expression under the wrong key:
in ``characters = characters_until_regex[(characters, opposite)] = regex`` the name ``characters`` is bound to the
expression first, so the entry's key holds the compiled expression, and the next lookup, by the characters, misses.
Every run then spells the expression's text out again, character by character, and asks :func:`re.compile` for it
(found in ``re``'s own cache).

In a cold ``printer build --jobs 1`` of 900 real cards profiled with cProfile, parsing the HTML was 9.5 % of
the build, and spelling those expressions out (110,305 runs) a third of that. :func:`install` gives the module a
table that makes a missing expression under the key it is looked up by (:class:`_Expressions`), so each is made
once a process; a document of 75 kB of faces parsed in 0.025 s instead of 0.049 s, into the same tree. Any
tinyhtml5 other than :data:`TINYHTML5` is left alone.
"""

from __future__ import annotations

import re
from typing import Any

#: the tinyhtml5 version whose ``chars_until`` this follows (the one WeasyPrint 70 requires)
TINYHTML5 = "2.1.0"


class _Expressions(dict[tuple[Any, bool], re.Pattern[str]]):
    """``characters_until_regex`` keyed as ``chars_until`` looks it up, ``(characters, opposite)``: a missing entry
    is made and kept, as tinyhtml5 makes it (a run of any of ``characters``, with ``opposite``; else of any other
    character)."""

    def __missing__(self, key: tuple[Any, bool]) -> re.Pattern[str]:
        characters, opposite = key
        escaped = "".join(f"\\x{ord(character):02x}" for character in characters)
        expression = self[key] = re.compile(f"[{escaped}]+" if opposite else f"[^{escaped}]+")
        return expression


def install() -> bool:
    """Give tinyhtml5's ``chars_until`` a table of expressions it finds again (once a process; any already made are
    kept). Returns whether it is in place: False, and nothing changed, on a tinyhtml5 other than
    :data:`TINYHTML5` or one without that table."""
    try:
        import tinyhtml5
        import tinyhtml5.inputstream as stream
    except ImportError:
        return False
    table = getattr(stream, "characters_until_regex", None)
    if isinstance(table, _Expressions):
        return True
    if getattr(tinyhtml5, "__version__", None) != TINYHTML5 or not isinstance(table, dict):
        return False
    stream.characters_until_regex = _Expressions(table)
    return True
