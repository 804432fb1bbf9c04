"""Reading decklists: plain text, the text formats games register and JSON deck files.

:func:`read_decklist` picks the reader from the file: ``.json`` (or text
starting with ``{``) is a JSON deck file (see :mod:`printer.decks.readers.json_deck`),
a suffix a game registers (``GameSupport.decklist_suffixes``) names that
game's text format, anything else is plain text. It never
raises on bad content: it returns ``(Decklist, problems)``, where an
*error* means the file could not be read as a decklist (exit code 2) and a
*warning* a line that was skipped.

Text syntax (plain text and the registered text formats share it)::

    # Storm deck – regional final 2014    <- comment (see the rule below)
    1 The Tower of Winds                   <- "N Name", "Nx Name", "N x Name"
    Leader: Captain Ardent                 <- a label a game registers
                                              (GameSupport.deck_labels), count 1
    # Main deck (40):                      <- section header: '#' + one word,
    # Spells (18)                             or up to 3 words + "(N)", ": N", "– N" or ":"
    # 先攻                                  <- one word in any script; "# Player 1" (a word
    # Round 1:                                and a number); words + ":" may hold numbers
    3 Captain Ardent • Veteran             <- name variants kept as written
    1 Gold Mine (1)                        <- a count after the name is dropped
    // comment                             <- always a comment; "1 Name  # note" too

**Header or comment.** After the ``#`` (full-width forms are read as
their ASCII twins), a line is a *section header* when it is

- one word: ``# Spells``, ``# 先攻``, ``# シグニフィケータ``, ``# 1巡目``;
- a word and a number: ``# Player 1``, ``# Round 2``;
- one to three words followed by a count or a colon: ``# Main deck (40)``,
  ``# Spells: 18``, ``# Sideboard – 15``, ``# Round 1:``, ``# First player:``,
  ``# 先攻（20）：``.

Words are letters and digits of any script (with their combining marks)
and ``' & / . _ + -``, ``・``, ``ー``, and a header holds at least one letter.
Anything else is a *comment*: several words without a count or colon
(``# Greg Wong``, ``# Top 4 regional``), other punctuation (``# Player –
Event``, ``# Note: swap later``), a number alone (``# 2023``), or a
``//`` line. So a header of two or three words needs its colon:
``# Dealt hand:``.

Blank lines only separate groups. A header without ``#`` is accepted when
it ends in ``:``, ``: N`` or ``(N)`` (``Main deck (40):``, ``Spells: 18``). A line that is none of
these is skipped with a warning naming its line.

**Counts** are 1 to :data:`MAX_COUNT` (full-width digits too). A count of 0
is skipped with a warning; a negative count or one over the maximum is an
error (``deck-count``) on its line: the deck is illegal and the rest of it is
still checked (:func:`printer.decks.checks.check`). A JSON deck's schema has the
same bounds, and a count outside them makes that file unreadable. Lines naming
the same card add up.
"""

from __future__ import annotations

import re
import unicodedata
from bisect import bisect_left, bisect_right
from functools import lru_cache
from itertools import accumulate
from pathlib import Path
from stat import S_ISDIR

from printer.decks.names import strip_count_suffix
from printer.decks.readers.decklist import Decklist, Entry
from printer.decks.readers.json_deck import parse_json
from printer.plugins import deck_labels, decklist_suffixes
from printer.problems import WARNING, Problem, counted

MAX_DECK_BYTES = 1024 * 1024
MAX_COUNT = 999


_CARD = re.compile(r"^(?P<sign>[-\u2212])?(?P<count>\d+)\s*[x\u00d7X]?\s+(?P<name>\S.*)$")
# "<label>: [N] Name" where <label> is one a game registers (printer.plugins.deck_labels)
_LABEL = re.compile(r"^(?P<label>[^\W\d_][\w-]*)\s*:\s*(?:(?P<count>\d+)\s*[x\u00d7X]?\s+)?(?P<name>\S.*)$")
_COUNTED = re.compile(
    r"^(?P<name>.*?)\s*(?:\(\s*(?P<n1>\d+)\s*\)\s*:?|[:\u2013\u2014-]\s*(?P<n2>\d+)|(?P<colon>:))\s*$"
)
_BARE_COUNTED = re.compile(r"^(?P<name>.*?)\s*(?:\(\s*(?P<n1>\d+)\s*\)\s*:?|:\s*(?P<n2>\d+)|(?P<colon>:))\s*$")
_INLINE_COMMENT = re.compile(r"\s+(?:#|//).*$")
# "# Main deck (zz)", "# Side (-1)": a header's words and a bracket that is no count
_ODD_COUNT = re.compile(r"^\s*(?P<name>[^()]+?)\s*\((?P<inner>[-+\u2212]?\w{1,3})\)\s*:?\s*$")  # (zz), (-1), (4O)
_JOINERS = frozenset("'\u2019&/._+-\u30fb\u30fc")  # apostrophes, & / . _ + -, katakana middle dot and long-vowel mark
MAX_HEADER_WORDS = 3


def _is_word(word: str) -> bool:
    """A header word: letters and digits of any script (with their combining marks) and the joiners above."""
    return all(c.isalnum() or c in _JOINERS or unicodedata.category(c).startswith("M") for c in word)


@lru_cache(maxsize=4096)  # the same headers come back in every decklist
def _header(text: str, bare: bool = False) -> str | None:
    """The section name of a header line (without its ``#``), or ``None`` when it is a comment.

    The rule (module docstring): a name of words in any script, followed by
    a count (``(N)``, ``: N``, ``– N``) or a colon, with at most
    :data:`MAX_HEADER_WORDS` words; or, without a count, one word or a word
    and a number (``Player 1``). ``bare`` (a line without ``#``) needs the
    count or colon. The text is NFKC-normalised first, so full-width ``：``
    and ``（４０）`` count too.
    """
    text = unicodedata.normalize("NFKC", text).strip()
    match = (_BARE_COUNTED if bare else _COUNTED).match(text)
    counted = bool(match and match["name"].strip())
    words = (match["name"] if match and counted else text).split()
    if not words or not all(_is_word(w) for w in words) or not any(c.isalpha() for w in words for c in w):
        return None
    if counted:
        ok = len(words) <= MAX_HEADER_WORDS
    else:
        ok = not bare and (len(words) == 1 or (len(words) == 2 and words[1].isdigit()))
    return " ".join(words) if ok else None


def parse_text(text: str, source: Path, syntax: str = "text") -> tuple[Decklist, list[Problem]]:
    """Parse a plain-text decklist (syntax in the module docstring)."""
    deck = Decklist(Path(source), syntax=syntax)
    problems: list[Problem] = []
    section: str | None = None
    counted: list[tuple[int, str, int | None]] = []  # every header: (line, section name, the count it states)
    if "\ufeff" in text:  # byte-order marks, at the start or pasted in the middle
        text = text.replace("\ufeff", "")
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("//"):
            continue
        if line.startswith("#"):
            name = _header(line.lstrip("#"))
            if name is not None:
                section = name
                deck.headers.setdefault(name, number)
                counted.append((number, name, _stated_count(line.lstrip("#"))))
            elif (odd := _ODD_COUNT.match(unicodedata.normalize("NFKC", line.lstrip("#")))) and _header(odd["name"]):
                problems.append(
                    Problem(
                        deck.where(number),
                        f"'{_short(line)}' is read as a comment: ({odd['inner']}) is not a count",
                        f"write the header's count as a number, e.g. '# {odd['name'].strip()} (40)', or leave it out",
                        severity=WARNING,
                        code="deck-syntax",
                    )
                )
            continue
        match = _CARD.match(line)
        label = None
        if not match:
            match = _LABEL.match(line)
            if match and match["label"].lower() in deck_labels():
                label = match["label"].capitalize()
            else:
                match = None
        if not match:
            name = _header(line, bare=True)
            if name is not None:
                section = name
                deck.headers.setdefault(name, number)
                counted.append((number, name, _stated_count(line, bare=True)))
                continue
            problems.append(
                Problem(
                    deck.where(number),
                    f"not a card line: {_short(line)!r}",
                    "write cards as 'N Card Name'; start comments with '#'",
                    severity=WARNING,
                    code="deck-syntax",
                )
            )
            continue
        digits = match["count"] or "1"
        count = int(digits) if len(digits) <= 9 else MAX_COUNT + 1
        if label is None and match["sign"]:
            count = -count
        name = match["name"]
        if "#" in name or "//" in name:
            name = _INLINE_COMMENT.sub("", name)
        if name.rstrip().endswith(")"):  # a count after the name, "(1)", as some tools write it
            name = strip_count_suffix(name)
        name = name.strip()
        if not name:
            problems.append(
                Problem(deck.where(number), "card line without a card name", severity=WARNING, code="deck-syntax")
            )
            continue
        if count == 0:
            problems.append(
                Problem(
                    deck.where(number),
                    f"count 0 of {_short(name)!r} is not between 1 and {MAX_COUNT}",
                    "the line adds no card: remove it",
                    severity=WARNING,
                    code="deck-syntax",
                )
            )
            continue
        if count < 0 or count > MAX_COUNT:
            written = ("-" if count < 0 else "") + (digits if len(digits) <= 12 else digits[:11] + "\u2026")
            problems.append(
                Problem(
                    deck.where(number),
                    f"count {written} of {_short(name)!r} is not between 1 and {MAX_COUNT}",
                    "fix the count",
                    code="deck-count",
                )
            )
            continue
        deck.entries.append(Entry(count, name, label or section, number))
    deck.stated_counts = counted
    if not deck.entries and not any(p.code == "deck-count" for p in problems):
        skipped = [p for p in problems if p.code == "deck-syntax"]
        first = (
            f" ({len(skipped)} other line{'s' * (len(skipped) != 1)}, the first at {skipped[0].where})"
            if skipped
            else ""
        )
        problems = [p for p in problems if p.code != "deck-syntax"]
        problems.append(
            Problem(
                deck.where(),
                f"no card lines: this is not a decklist{first}",
                "a decklist has lines like '3 Card Name'",
                code="empty-deck",
            )
        )
    return deck, problems


def _stated_count(text: str, bare: bool = False) -> int | None:
    """The count a header states (``Main deck (40)``, ``Spells: 18``, ``Spells – 18``), or ``None``."""
    match = (_BARE_COUNTED if bare else _COUNTED).match(unicodedata.normalize("NFKC", text).strip())
    if not match:
        return None
    digits = match["n1"] or match.groupdict().get("n2")
    return int(digits) if digits and len(digits) <= 6 else None


def header_counts(deck: Decklist) -> list[Problem]:
    """A warning for each header whose stated count differs from the cards listed under it (``deck check``).

    The cards under a header run to the next header; when the header groups sub-headers (``# Main deck (40)``
    above ``# Spells (10)`` and ``# Creatures (30)``), its count may instead match the cards up to a later
    header, and then it is right.
    """
    problems = []
    headers = deck.stated_counts
    by_line = sorted((e.line, e.count) for e in deck.entries)
    lines = [line for line, _ in by_line]
    running = [0, *accumulate(count for _, count in by_line)]  # running[k]: the cards of the first k lines

    def between(start: int, end: float) -> int:  # the cards on lines after start and before end
        return running[bisect_left(lines, end)] - running[bisect_right(lines, start)]

    for i, (line, name, stated) in enumerate(headers):
        if stated is None:
            continue
        boundaries = [h[0] for h in headers[i + 1 :]] + [float("inf")]
        sums = [between(line, end) for end in boundaries]
        if stated in sums:
            continue
        held = next((n for n in sums if n), 0)
        problems.append(
            Problem(
                deck.where(line),
                f"header '{name}' says {counted(stated, 'card')}; the lines under it hold {held}",
                "fix the count in the header, or the card lines under it",
                severity=WARNING,
                code="header-count",
            )
        )
    return problems


def _short(text: str, limit: int = 60) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "\u2026"


def _read_text(path: Path) -> tuple[str | None, list[Problem]]:
    where = str(path)
    try:
        st = path.stat()
    except FileNotFoundError:
        return None, [Problem(where, "no such file", code="not-found")]
    except OSError as exc:
        return None, [Problem(where, f"cannot read: {exc.strerror or exc}", code="unreadable")]
    if S_ISDIR(st.st_mode):
        return None, [Problem(where, "is a folder, not a decklist", code="not-a-file")]
    try:
        size = st.st_size
        if size > MAX_DECK_BYTES:
            return None, [
                Problem(
                    where,
                    f"file is {size // 1024} KiB, too large for a decklist",
                    f"a decklist is under {MAX_DECK_BYTES // 1024} KiB",
                    code="too-large",
                )
            ]
        raw = path.read_bytes()
    except FileNotFoundError:
        return None, [Problem(where, "no such file", code="not-found")]
    except OSError as exc:
        return None, [Problem(where, f"cannot read: {exc.strerror or exc}", code="unreadable")]
    if raw.startswith(b"\xef\xbb\xbf"):
        raw = raw[3:]
    if raw.startswith((b"\xff\xfe", b"\xfe\xff")):  # Notepad's "Unicode": UTF-16 with its byte-order mark
        try:
            text = raw.decode("utf-16")
        except UnicodeDecodeError:
            return None, [
                Problem(where, "not UTF-16 as its first bytes say", "save the decklist as UTF-8", code="encoding")
            ]
        return text, [Problem(where, "UTF-16; read as UTF-16", "save the decklist as UTF-8", WARNING, "encoding")]
    if b"\x00" in raw[:4096]:
        return None, [Problem(where, "binary file, not a decklist", code="encoding")]
    try:
        return raw.decode("utf-8"), []
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        # Decklists saved by old Windows tools are often cp1252 (the bullet is byte 0x95).
        try:
            return raw.decode("cp1252"), [
                Problem(
                    f"{where}:{line}",
                    "not UTF-8; read as Windows-1252",
                    "save the decklist as UTF-8",
                    severity=WARNING,
                    code="encoding",
                )
            ]
        except UnicodeDecodeError:
            return None, [
                Problem(
                    f"{where}:{line}",
                    f"not UTF-8: byte 0x{raw[exc.start]:02x} cannot be decoded",
                    "save the decklist as UTF-8",
                    code="encoding",
                )
            ]


def read_decklist(path: Path) -> tuple[Decklist, list[Problem]]:
    """Read the decklist at ``path``, detecting its syntax; never raises on bad content.

    Returns ``(Decklist, problems)``. Problems are located ``file:line``
    (JSON schema problems ``file::$.cards[3].count``); an *error* means the
    file is not a readable decklist (missing, not text, invalid JSON, no card
    line): the CLI exits 2. Warnings are skipped lines and the like.
    """
    path = Path(path)
    text, problems = _read_text(path)
    if text is None:
        return Decklist(path, syntax=_syntax_of(path, "")), problems
    syntax = _syntax_of(path, text)
    if syntax == "json":
        deck, more = parse_json(text, path)
    else:
        deck, more = parse_text(text, path, syntax)
    return deck, problems + more


def _syntax_of(path: Path, text: str) -> str:
    suffix = path.suffix.lower()
    registered = decklist_suffixes()
    if suffix == ".json" or (suffix not in registered and suffix != ".txt" and text.lstrip().startswith("{")):
        return "json"
    return registered.get(suffix, "text")
