"""Translations as a gettext PO file, written and read by Babel (``babel.messages``).

One message per card and field (:class:`printer.cards.translations_io.TranslationEntry`)::

    #. card: Hold the Line (hold-the-line)
    #. text: Rules text in printer's card-text markup (bold, italic, line breaks, {icon}).
    #: cards/starfall/spells.json
    #, fuzzy
    msgctxt "hold-the-line.text"
    msgid "Your units get +1 {force} ..."
    msgstr "..."

``msgctxt`` is ``<card id>.<field>``; ``msgid`` the source text; ``msgstr`` the translation, empty when
missing; a stale translation is marked ``fuzzy``. The header names the game (``Project-Id-Version: <game>
translations``) and the language (``Language: ja``; a tag such as ``zh-Hant`` is written ``zh_Hant``, as gettext
writes it). A translator's tool (Poedit, Lokalize, Weblate...) keeps all of these.
"""

from __future__ import annotations

import io
import re
from collections.abc import Sequence
from pathlib import Path

from printer.cards.translations_io import Catalogue, Incoming, TranslationEntry, split_key
from printer.problems import Problem

#: the version part of the ``Project-Id-Version`` header (``starfall translations``), after the game id
VERSION = "translations"


def po_bytes(entries: Sequence[TranslationEntry], game: str, lang: str, source_lang: str) -> bytes:
    """The PO file of ``entries`` of ``game`` translated from ``source_lang`` into ``lang``, as UTF-8 bytes."""
    from babel.messages.catalog import Catalog
    from babel.messages.pofile import write_po

    catalog = Catalog(
        locale=None,
        project=game,
        version=VERSION,
        header_comment=(
            f"# {game}: card text in {source_lang} to translate into {lang}.\n"
            "# Write each translation in msgstr; remove 'fuzzy' once a translation matches its msgid again.\n"
            "# Merge it back with: printer import translations FILE"
        ),
        fuzzy=False,
        charset="utf-8",
    )
    try:
        catalog.locale = lang.replace("-", "_")
    except ValueError:  # not a tag Babel can parse: the file has no Language header (import it with --lang)
        catalog.locale = None
    for entry in entries:
        comments = [f"card: {entry.title} ({entry.card_id})" if entry.title else f"card: {entry.card_id}"]
        comments.append(f"{entry.field}: {entry.note}" if entry.note else f"field: {entry.field}")
        message = catalog.add(
            entry.source,
            entry.translation,
            locations=[(entry.origin, None)],  # type: ignore[list-item]  # Babel writes a file without a line
            flags=["fuzzy"] if entry.stale else [],
            auto_comments=comments,
            context=entry.key,
        )
        if message is not None:  # Babel marks {word} as a Python format string; card text's braces are icons
            message.flags.discard("python-brace-format")
            message.flags.discard("python-format")
    out = io.BytesIO()
    write_po(out, catalog, width=76, sort_output=False, sort_by_file=False, include_previous=False)
    return out.getvalue()


def read_po_file(path: Path, data: bytes) -> Catalogue:
    """The entries of the PO file ``path`` holding ``data``: each message with a ``msgctxt`` of the form
    ``<card id>.<field>``, located at its ``msgstr`` line (``ja.po:25``). Obsolete messages (``#~``) are left
    out; a message without such a context, and a file Babel cannot read, are located problems."""
    from babel.messages.pofile import PoFileError, read_po

    name = str(path)
    bad = syntax_problems(data, name)
    if bad:
        return Catalogue(None, None, [], bad)
    try:
        catalog = read_po(io.BytesIO(data), abort_invalid=True, ignore_obsolete=True)
    except PoFileError as exc:
        said = str(exc).rsplit(" on ", 1)[0]
        return Catalogue(None, None, [], [Problem(f"{name}:{exc.lineno + 1}", f"not a PO file: {said}", code="po")])
    except (UnicodeDecodeError, LookupError) as exc:
        return Catalogue(
            None, None, [], [Problem(name, f"cannot read the PO file: {exc}", "save it as UTF-8", code="po")]
        )
    except Exception as exc:  # noqa: BLE001 (Babel's other errors on a malformed file: reported, never a traceback)
        return Catalogue(None, None, [], [Problem(name, f"cannot read the PO file: {exc}", code="po")])
    lines = data.split(b"\n")
    game = catalog.project or None if catalog.version == VERSION else None
    lang = catalog.locale_identifier or None
    entries: list[Incoming] = []
    problems: list[Problem] = []
    for message in catalog:
        if not message.id:  # the header
            continue
        first = message.lineno or 0
        where = f"{name}:{_msgstr_line(lines, first)}"
        key = split_key(message.context or "")
        if key is None or not isinstance(message.id, str) or not isinstance(message.string, str):
            problems.append(
                Problem(
                    f"{name}:{first}",
                    "a message without a card: its msgctxt is not '<card id>.<field>'"
                    if key is None
                    else "a plural message: card text has no plural forms",
                    "keep the msgctxt of each message as it was exported",
                    code="po",
                )
            )
            continue
        id_where = f"{name}:{_context_line(lines, first)}"
        entries.append(Incoming(key[0], key[1], message.id, message.string, message.fuzzy, where, id_where))
    return Catalogue(game, lang, entries, problems)


#: a PO line: blank, a comment (``#.``, ``#:``, ``#,``, ``#~`` ...), a keyword and its string, or a string going on
_KEYWORD = re.compile(rb"(msgctxt|msgid_plural|msgid|msgstr(\[\d+\])?)[ \t]+")
#: the escapes Babel reads back as what gettext means by them (any other would be kept as a backslash and a letter)
_ESCAPES = b'\\"ntr'


def syntax_problems(data: bytes, name: str, limit: int = 20) -> list[Problem]:
    """Where the PO text ``data`` is not PO syntax (GNU gettext manual, "The Format of PO Files"): a line that is
    neither blank, a comment, a keyword with a quoted string nor a quoted string going on; a string without its
    closing quote, or with text after it; an escape other than ``\\\\``, ``\\"``, ``\\n``, ``\\t``, ``\\r``. Babel reads
    such a file without a word and changes the text (an unclosed ``msgstr "空気`` loses its last character), so it is
    checked first: ``file:line:col`` problems, at most ``limit``."""
    problems: list[Problem] = []
    for number, line in enumerate(data.split(b"\n"), 1):
        text = line.rstrip(b"\r")
        body = text.lstrip(b" \t")
        if not body or body.startswith(b"#"):
            continue
        keyword = _KEYWORD.match(body)
        start = len(text) - len(body) + (keyword.end() if keyword else 0)
        said = _string_problem(text, start)
        if said:
            at, message, hint = said
            column = len(text[:at].decode("utf-8", "replace")) + 1  # in characters, as an editor counts them
            problems.append(Problem(f"{name}:{number}:{column}", message, hint, code="po"))
            if len(problems) >= limit:
                break
    return problems


def _string_problem(line: bytes, start: int) -> tuple[int, str, str] | None:
    """What is wrong with the quoted string that should start at ``line[start]``: ``(byte offset, message, hint)``."""
    if not line.startswith(b'"', start):
        return (
            start,
            "not a PO file: a line is a comment, msgctxt, msgid or msgstr and a quoted string, or a quoted string",
            ('write each line of a message as "text", with \\" for a quote inside it'),
        )
    at = start + 1
    while at < len(line):
        byte = line[at : at + 1]
        if byte == b'"':
            if line[at + 1 :].strip():
                return at + 1, "text after the closing quote", 'write \\" for a quote inside a message'
            return None
        if byte == b"\\":
            escaped = line[at + 1 : at + 2]
            if not escaped or escaped not in _ESCAPES:
                shown = "\\" + escaped.decode("utf-8", "replace")
                return at, f"unknown escape {shown}", "write \\\\ for a backslash, \\n for a line break"
            at += 2
            continue
        at += 1
    return start, "the string has no closing quote", 'end the line with "'


def _context_line(lines: list[bytes], first: int) -> int:
    """The 1-based line of the ``msgctxt`` of the message Babel places at line ``first`` (its ``msgid``)."""
    for index in range(min(first, len(lines)) - 1, max(first - 10_000, 0) - 1, -1):
        if lines[index].startswith(b"msgctxt"):
            return index + 1
        if not lines[index].strip():
            break
    return first


def _msgstr_line(lines: list[bytes], first: int) -> int:
    """The 1-based line of the ``msgstr`` of the message that starts at line ``first`` (that line when none)."""
    for index in range(max(first - 1, 0), min(len(lines), first + 10_000)):
        if lines[index].startswith(b"msgstr"):
            return index + 1
    return first
