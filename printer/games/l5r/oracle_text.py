"""The Oracle of the Void's card-text HTML to printer's card-text markup (:mod:`printer.games.l5r.oracle`).

Oracle text fields carry HTML (``<b>``, ``<i>``, ``<br>``, entities such as ``&#149;``, the Windows-1252 bullet) and
icon codes (``:bow:``, ``:g2:``, ``:gstar:``, ``:g*:``). :func:`html_to_markup` turns them into printer's markup,
:func:`html_to_plain` into plain text, :func:`unknown_tags` lists the tags dropped and :func:`fix_mojibake` repairs
UTF-8 text that was read as Windows-1252.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from html.parser import HTMLParser

from markdown_it.common.utils import isMdAsciiPunct, isPunctChar, isWhiteSpace

from printer.cards.markup import escape_text

_ICON = re.compile(r":(bow|g(\d{1,2}|star|\*)):")
_MOJIBAKE = re.compile("[\u00c2-\u00c5\u00e2][\u0080-\u00bf\u0152-\u2122]")


@dataclass
class _Atom:
    """One character, icon or line break of parsed card text, with its styles (``b``, ``i``)."""

    kind: str  # "char", "icon", "br"
    text: str  # the character, or the icon's markup
    styles: set[str]


class _TextParser(HTMLParser):
    """Card-text HTML to :class:`_Atom`\\ s; entities decoded, white space collapsed.

    ``<b>``/``<strong>`` and ``<i>``/``<em>`` set styles, ``<br>`` breaks
    the line; an end tag that closes nothing open is ignored (as browsers
    do). Other tags are dropped and listed in ``unknown_tags``.
    """

    STYLES = {"b": "b", "strong": "b", "i": "i", "em": "i"}

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.atoms: list[_Atom] = []
        self.open: list[str] = []
        self.unknown_tags: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "br":
            self.atoms.append(_Atom("br", "\n", set()))
        elif tag in self.STYLES:
            self.open.append(self.STYLES[tag])
        else:
            self.unknown_tags.append(tag)

    handle_startendtag = handle_starttag

    def handle_endtag(self, tag: str) -> None:
        style = self.STYLES.get(tag)
        if style in self.open:
            del self.open[len(self.open) - 1 - self.open[::-1].index(style)]
        elif tag not in self.STYLES and tag != "br":
            self.unknown_tags.append(tag)

    def handle_data(self, data: str) -> None:
        data = data.replace("\x95", "\u2022")
        styles = set(self.open)
        pos = 0
        for match in _ICON.finditer(data):
            self._chars(data[pos : match.start()], styles)
            name, amount = match.groups()
            icon = "{bow}" if name == "bow" else "{gold:" + ("*" if amount in ("star", "*") else amount) + "}"
            self.atoms.append(_Atom("icon", icon, set(styles)))
            pos = match.end()
        self._chars(data[pos:], styles)

    def _chars(self, text: str, styles: set[str]) -> None:
        for ch in text:
            if ch in " \t\r\n\f":
                ch = " "
                if self.atoms and self.atoms[-1].text == " ":
                    continue
            self.atoms.append(_Atom("char", ch, set(styles)))


def _parse(text: str) -> _TextParser:
    parser = _TextParser()
    parser.feed(fix_mojibake(text))
    parser.close()
    return parser


def _lines(atoms: list[_Atom]) -> list[list[_Atom]]:
    """Split at line breaks, dropping spaces at line ends; ``[]`` marks a blank line."""
    lines: list[list[_Atom]] = [[]]
    for atom in atoms:
        if atom.kind == "br":
            lines.append([])
        else:
            lines[-1].append(atom)
    for line in lines:
        while line and line[0].text == " ":
            line.pop(0)
        while line and line[-1].text == " ":
            line.pop()
    return lines


def _kind(atom: _Atom | None) -> str:
    """How CommonMark sees the character next to a delimiter: ``space``, ``punct`` or ``word``."""
    if atom is None:
        return "space"
    ch = atom.text[0] if atom.kind == "char" else "{"
    if isWhiteSpace(ord(ch)):
        return "space"
    return "punct" if isMdAsciiPunct(ord(ch)) or isPunctChar(ch) else "word"


def _fit_emphasis(line: list[_Atom]) -> None:
    """Unstyle the atoms at the edges of a styled run where ``*`` could not open or close there.

    In CommonMark (markdown-it's ``scanDelims``) ``*`` cannot open before a
    space, nor before punctuation that follows a word character; it cannot
    close after a space, nor after punctuation that a word character
    follows. So a run's edge spaces move outside it, and so does edge
    punctuation glued to a word (``<b>Open:</b>x`` becomes ``**Open**:x``).
    """
    changed = True
    while changed:
        changed = False
        for style in ("b", "i"):
            i = 0
            while i < len(line):
                if style not in line[i].styles:
                    i += 1
                    continue
                j = i
                while j + 1 < len(line) and style in line[j + 1].styles:
                    j += 1
                first, last = line[i], line[j]
                before = _kind(line[i - 1]) if i else "space"
                after = _kind(line[j + 1]) if j + 1 < len(line) else "space"
                if _kind(first) == "space" or (_kind(first) == "punct" and before == "word"):
                    first.styles.discard(style)
                    changed = True
                elif _kind(last) == "space" or (_kind(last) == "punct" and after == "word"):
                    last.styles.discard(style)
                    changed = True
                i = j + 1


def _emit(line: list[_Atom]) -> str:
    """One line of atoms as markup: ``**`` for bold, ``*`` for italic, properly nested.

    Where styles overlap without nesting (``<b>x<i>y</b>z</i>``) the inner
    one is closed and reopened; the reopening uses ``_``/``__`` so that it
    does not merge with the closing ``*`` run before it.
    """
    out: list[str] = []
    stack: list[tuple[str, str]] = []  # (style, delimiter)
    line = line + [_Atom("end", "", set())]
    for at, atom in enumerate(line):
        keep = 0
        while keep < len(stack) and stack[keep][0] in atom.styles:
            keep += 1
        closed = set()
        while len(stack) > keep:
            style, delimiter = stack.pop()
            closed.add(style)
            out.append(delimiter)
        # open the style that lasts longer first, so that it is the outer one
        opening = [s for s in ("b", "i") if s in atom.styles and s not in (t for t, _ in stack)]
        for style in sorted(opening, key=lambda s: -next(n for n, a in enumerate(line[at:]) if s not in a.styles)):
            delimiter = ("_" if style in closed else "*") * (2 if style == "b" else 1)
            stack.append((style, delimiter))
            out.append(delimiter)
        out.append(escape_text(atom.text) if atom.kind == "char" else atom.text)
    return "".join(out)


def html_to_markup(text: str, *, italic: bool = False) -> str:
    """Oracle card-text HTML to printer's card-text markup (:mod:`printer.cards.markup`).

    ``<b>``/``<i>`` become ``**``/``*``, ``<br>`` a line break (two or more
    in a row a blank line, a new paragraph), ``:bow:`` ``{bow}``, ``:gN:``
    ``{gold:N}``, ``:gstar:`` and ``:g*:`` ``{gold:*}``; entities are decoded
    (``&#149;`` is the bullet ``•``, as in Windows-1252) and every other
    character is escaped with :func:`printer.cards.markup.escape_text`. White
    space collapses as in HTML. Emphasis edges move off spaces and
    punctuation where CommonMark would not see the ``*`` (see
    :func:`_fit_emphasis`). With ``italic`` (flavor text, which printer
    prints in italics) italics covering the whole text are dropped.
    Never raises; unknown tags are dropped (:func:`unknown_tags` lists them).
    """
    atoms = _parse(text).atoms
    if italic and all("i" in a.styles for a in atoms if a.kind != "br" and a.text != " "):
        for atom in atoms:
            atom.styles.discard("i")
    lines = []
    for line in _lines(atoms):
        _fit_emphasis(line)
        lines.append(_emit(line))
    return re.sub(r"\n{3,}", "\n\n", "\n".join(lines)).strip("\n")


class _PlainParser(HTMLParser):
    """The text of Oracle HTML, a line break for each ``<br>``, every other tag dropped (:func:`html_to_plain`)."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.chunks: list[str] = []

    def handle_data(self, data: str) -> None:
        self.chunks.append(data)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.chunks.append("\n" if tag == "br" else "")


def html_to_plain(text: str) -> str:
    """Oracle HTML to plain text: tags dropped, entities decoded, white space collapsed, icons as ``:bow:``."""
    parser = _PlainParser()
    parser.feed(fix_mojibake(text))
    parser.close()
    plain = "".join(parser.chunks).replace("\x95", "\u2022").replace("\xa0", " ")
    return "\n".join(re.sub(r"[ \t\r\f]+", " ", line).strip() for line in plain.split("\n")).strip()


def unknown_tags(text: str) -> list[str]:
    """HTML tags in ``text`` that :func:`html_to_markup` drops (anything but b, strong, i, em, br)."""
    return _parse(text).unknown_tags


def fix_mojibake(text: str) -> str:
    """Repair UTF-8 text that was decoded as Windows-1252 (``Ã©`` for ``é``, ``â€œ`` for ``“``).

    Only text with such a pair is touched, and only when the repair is valid
    UTF-8; otherwise ``text`` is returned as it is. (Some Oracle flavor
    texts and one keyword are mis-encoded this way.)
    """
    if not _MOJIBAKE.search(text):
        return text
    try:
        raw = bytes(ord(ch) if ord(ch) < 256 else ch.encode("cp1252")[0] for ch in text)
        return raw.decode("utf-8")
    except (UnicodeEncodeError, UnicodeDecodeError):
        return text
