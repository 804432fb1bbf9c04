"""Card-text markup: a small Markdown subset plus inline icons, to safe HTML.

The markup (also usable inside rules Markdown):

==================  ===============================================
``**bold**``        bold
``*italic*``        italic (``_italic_`` too)
line break          a line break inside the paragraph
blank line          a new paragraph
``{name}``          the icon ``name`` on the text baseline, e.g. ``{bow}``
``{name:label}``    the icon with a short label (at most 4 characters)
                    printed on it, e.g. ``{gold:2}`` or ``{gold:*}``
``\\*``, ``\\{``      a backslash makes any ASCII punctuation literal
==================  ===============================================

HTML in card text is never interpreted: ``<b>`` prints as ``<b>``. Icon
names are lower-case letters, digits and ``-``; each is an SVG file
``icons/<name>.svg`` on the game's template search path.

Parsing is markdown-it-py (the ``zero`` preset with emphasis, escapes and
line breaks switched on) plus :func:`icon_plugin` and :func:`cjk_emphasis_plugin`
(``**太字**`` next to Japanese punctuation, as in ``**スモール(59 mm)**で``, is bold, not
asterisks).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import TYPE_CHECKING

from markupsafe import Markup, escape

from printer.problems import WARNING, Location, Problem, did_you_mean

if TYPE_CHECKING:  # markdown-it-py is imported when text is first parsed: a run that parses none never loads it
    from markdown_it import MarkdownIt
    from markdown_it.renderer import RendererProtocol
    from markdown_it.rules_core import StateCore
    from markdown_it.rules_inline import StateInline
    from markdown_it.rules_inline.state_inline import Scanned
    from markdown_it.token import Token
    from markdown_it.utils import EnvType, OptionsDict

ICON = re.compile(r"\{([a-z0-9][a-z0-9-]*)(?::([^{}\s]{1,4}))?\}")


@dataclass
class IconUse:
    name: str
    label: str | None


@dataclass
class RenderEnv:
    """What the renderer needs and what it found.

    ``icon_url`` maps an icon name to the URL of its SVG (``None`` when
    there is no such icon); ``unknown_icons`` collects the names it could
    not find, in order, for the caller to report.
    """

    icon_url: Callable[[str], str | None] = lambda name: None
    unknown_icons: list[str] = field(default_factory=list)


def _icon_rule(state: StateInline, silent: bool) -> bool:
    if state.src[state.pos] != "{":
        return False
    match = ICON.match(state.src, state.pos)
    if not match:
        return False
    if not silent:
        token = state.push("icon", "", 0)
        token.meta = {"name": match.group(1), "label": match.group(2)}
    state.pos = match.end()
    return True


def icon_html(name: str, label: str | None, env: RenderEnv) -> str:
    """The HTML of one inline icon (an ``<img>`` of its SVG, sized in ``em``)."""
    url = env.icon_url(name)
    if url is None:
        env.unknown_icons.append(name)
        return f'<span class="icon icon-missing" title="unknown icon">{escape("{" + name + "}")}</span>'
    img = f'<img class="icon icon-{name}" src="{escape(url)}" alt="{escape(name)}">'
    if label is None:
        return img
    wide = " icon-label-wide" if len(label) > 1 else ""  # two characters or more: set smaller, to stay on the icon
    return f'<span class="icon-labelled icon-{name}">{img}<span class="icon-label{wide}">{escape(label)}</span></span>'


def _render_icon(self: RendererProtocol, tokens: Sequence[Token], idx: int, options: OptionsDict, env: EnvType) -> str:
    meta = tokens[idx].meta
    return icon_html(meta["name"], meta["label"], env.get("printer") or RenderEnv())


def icon_plugin(md: MarkdownIt) -> None:
    """markdown-it-py plugin: ``{name}`` and ``{name:label}`` become icons."""
    md.inline.ruler.before("emphasis", "icon", _icon_rule)
    md.add_render_rule("icon", _render_icon)


def is_cjk(char: str) -> bool:
    """Whether ``char`` is a Chinese, Japanese or Korean letter or punctuation mark (East Asian Wide or Fullwidth)."""
    return unicodedata.east_asian_width(char) in ("W", "F")


def _scan_cjk(state: StateInline, start: int, can_split_word: bool) -> Scanned:
    """markdown-it-py's delimiter scan with CommonMark's flanking rules widened for CJK text.

    CommonMark (0.31, section 6.2) lets ``**`` open only where the next character is no punctuation mark or the
    one before is a space or a punctuation mark, which Japanese, written without spaces, rarely satisfies:
    ``は**「重要」**です`` would print its asterisks. Here a CJK character on the outer side of a delimiter run
    counts as a space would (the relaxation proposed by the markdown-cjk-friendly specification,
    https://github.com/tats-u/markdown-cjk-friendly); text without CJK characters parses as in CommonMark.
    """
    from markdown_it.common.utils import isMdAsciiPunct, isPunctChar, isWhiteSpace
    from markdown_it.rules_inline.state_inline import Scanned

    src, end = state.src, state.posMax
    marker = src[start]
    pos = start
    while pos < end and src[pos] == marker:
        pos += 1
    last = src[start - 1] if start > 0 else " "
    nxt = src[pos] if pos < end else " "
    last_punct = isMdAsciiPunct(ord(last)) or isPunctChar(last)
    next_punct = isMdAsciiPunct(ord(nxt)) or isPunctChar(nxt)
    last_space = isWhiteSpace(ord(last)) or is_cjk(last)
    next_space = isWhiteSpace(ord(nxt)) or is_cjk(nxt)
    left = not isWhiteSpace(ord(nxt)) and (not next_punct or last_space or last_punct)
    right = not isWhiteSpace(ord(last)) and (not last_punct or next_space or next_punct)
    can_open = left and (can_split_word or not right or last_punct)
    can_close = right and (can_split_word or not left or next_punct)
    return Scanned(can_open, can_close, pos - start)


def _cjk_emphasis_rule(state: StateInline, silent: bool) -> bool:
    from markdown_it.rules_inline import emphasis as _emphasis

    if state.src[state.pos] != "*":
        return _emphasis.tokenize(state, silent)
    # markdown-it-py's emphasis rule asks the state for the scan: this state (one parse's) answers with ours
    state.scanDelims = lambda start, canSplitWord: _scan_cjk(state, start, canSplitWord)  # type: ignore[method-assign]  # see above
    try:
        return _emphasis.tokenize(state, silent)
    finally:
        del state.scanDelims


def cjk_emphasis_plugin(md: MarkdownIt) -> None:
    """markdown-it-py plugin: ``*`` emphasis that opens and closes next to CJK punctuation (:func:`_scan_cjk`).

    ``_`` keeps CommonMark's rules (it never splits a word, and Japanese has no word spaces).
    """
    md.inline.ruler.at("emphasis", _cjk_emphasis_rule)


def card_markdown() -> MarkdownIt:
    """The parser for card text: emphasis, escapes, line breaks, icons; no HTML."""
    from markdown_it import MarkdownIt

    md = MarkdownIt("zero", {"breaks": True, "html": False})
    md.enable(["emphasis", "escape", "newline", "text"])
    md.use(icon_plugin).use(cjk_emphasis_plugin)
    return md


_card_md = cache(card_markdown)  # the one parser of card text, made when first needed
_PARAGRAPHS = re.compile(r"\n[ \t]*\n+")
#: a character that some rule of :func:`card_markdown` acts on (emphasis, escapes, icons, line breaks) or that its
#: input normalisation changes (``\r``, NUL); a paragraph without any is its own text, escaped
_MARKUP_CHARS = re.compile(r"[*_\\{\n\r\0]")


def to_html(text: str, env: RenderEnv | None = None) -> Markup:
    """Card text in printer's markup to safe HTML: one ``<p>`` per paragraph."""
    env = env or RenderEnv()
    paragraphs = [p.strip("\n") for p in _PARAGRAPHS.split(text.replace("\r\n", "\n")) if p.strip()]
    parts = [f"<p{_dir_attr(p)}>{_inline_html(p, env)}</p>" for p in paragraphs]
    return Markup("".join(parts))


def _inline_html(paragraph: str, env: RenderEnv) -> str:
    """One paragraph's HTML. Plain text (half the paragraphs of a real 3,535-card catalogue) is escaped as markdown-it-py
    escapes a text token, without a parse (about 0.1 ms each); so is text whose only markup is line breaks, icons
    and emphasis that can be read one way only (:func:`_plain_markup_html`: nearly all the rest); the others are
    parsed."""
    if _MARKUP_CHARS.search(paragraph) is None:
        return _escaped(paragraph)
    found = _plain_markup_html(paragraph, env)
    if found is not None:
        return found
    html: str = _card_md().renderInline(paragraph, {"printer": env})
    return html


def _escaped(text: str) -> str:
    """``text`` escaped as markdown-it-py escapes a text token."""
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")


#: markup :func:`_plain_markup_html` leaves to the parser: escapes, ``_`` emphasis, and the characters the parser's
#: input normalisation changes
_PARSED_ONLY = re.compile(r"[_\\\r\0]")
_STARS = re.compile(r"\*+")
#: a line break as the parser makes it: the spaces before it dropped, and the spaces and tabs after it
_BREAK = re.compile(r" *\n[ \t]*")
#: what the flanking rules see beside a ``*`` run, for the characters :func:`_plain_markup_html` reads: white space
#: (the paragraph's ends too), ASCII punctuation, ASCII letters and digits; any other character sends the paragraph
#: to the parser
_SPACE, _PUNCT, _WORD = " ", ".", "a"
_ASCII_PUNCTUATION = frozenset("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~")


def _beside(paragraph: str, index: int) -> str | None:
    """What the flanking rules see at ``index`` of ``paragraph`` (:data:`_SPACE` past either end); ``None`` for a
    character other than ASCII and the space, tab and line break."""
    if index < 0 or index >= len(paragraph) or paragraph[index] in " \n\t":
        return _SPACE
    char = paragraph[index]
    if char.isascii() and char.isalnum():
        return _WORD
    return _PUNCT if char in _ASCII_PUNCTUATION else None


def _plain_markup_html(paragraph: str, env: RenderEnv) -> str | None:
    """The HTML :func:`card_markdown` gives ``paragraph``, made without the parser, when its only markup is line
    breaks, icons and ``*``/``**`` emphasis whose pairs can be read one way only; ``None`` (and nothing done)
    otherwise.

    The ``*`` runs must alternate: an opener, then a closer of the same length (one or two), and so on, with an
    ASCII character, a space, a tab or a line break (or the paragraph's end) on each side of each run, and no
    ``*`` in an icon's label. An opener must be left-flanking and a closer right-flanking (CommonMark 0.31,
    section 6.2; for these characters :func:`_scan_cjk` says the same): each closer then closes the opener just
    before it, as the parser pairs them (the nearest opener before it that is not paired yet, not in its own run;
    the rule of 3 never applies to runs of one or two), so ``**Open:**`` is ``<strong>`` and ``*(text)*.`` is
    ``<em>``. Text is escaped as the parser escapes a text token; a line break is ``<br>`` with the spaces before
    it and the spaces and tabs after it dropped, as the parser's ``newline`` rule does; an icon is
    :func:`icon_html`."""
    if _PARSED_ONLY.search(paragraph):
        return None
    icons = list(ICON.finditer(paragraph))
    runs = list(_STARS.finditer(paragraph))
    if len(runs) % 2 or any("*" in icon.group(0) for icon in icons):
        return None
    for number, run in enumerate(runs):
        start, stop = run.span()
        before, after = _beside(paragraph, start - 1), _beside(paragraph, stop)
        if before is None or after is None or stop - start > 2:
            return None
        if number % 2 == 0:  # an opener: left-flanking
            if after == _SPACE or (after == _PUNCT and before == _WORD):
                return None
        elif stop - start != runs[number - 1].end() - runs[number - 1].start():
            return None  # a closer of another length than its opener
        elif before == _SPACE or (before == _PUNCT and after == _WORD):
            return None  # a closer: right-flanking
    openers = {run.start() for run in runs[::2]}
    parts: list[str] = []
    at = 0
    for mark in sorted([*runs, *icons], key=lambda found: found.start()):  # runs and icons never overlap
        start, stop = mark.span()
        parts.append(_BREAK.sub("<br>\n", _escaped(paragraph[at:start])))
        if mark.re is ICON:
            parts.append(icon_html(mark.group(1), mark.group(2), env))
        else:
            tag = "strong" if stop - start == 2 else "em"
            parts.append(f"<{tag}>" if start in openers else f"</{tag}>")
        at = stop
    parts.append(_BREAK.sub("<br>\n", _escaped(paragraph[at:])))
    return "".join(parts)


def text_direction(text: str) -> str | None:
    """``"rtl"`` or ``"ltr"`` from the first strongly directional character of ``text`` (Unicode's rule for
    ``dir="auto"``, UAX #9 rules P2-P3), ``None`` when it has none.

    WeasyPrint does not implement ``dir="auto"``: printer writes the direction it finds as ``dir="rtl"`` on a
    paragraph, so that Arabic or Hebrew text split by markup (``**bold**``) still runs right to left.
    """
    for char in text:
        kind = unicodedata.bidirectional(char)
        if kind in ("R", "AL"):
            return "rtl"
        if kind == "L":
            return "ltr"
    return None


def _dir_attr(text: str) -> str:
    return ' dir="rtl"' if text_direction(ICON.sub("", text)) == "rtl" else ""


def direction_plugin(md: MarkdownIt) -> None:
    """markdown-it-py plugin: paragraphs, headings and list items whose text starts right-to-left get ``dir="rtl"``."""

    def rule(state: StateCore) -> None:
        tokens = state.tokens
        for i, token in enumerate(tokens):
            if token.type in ("paragraph_open", "heading_open") and i + 1 < len(tokens):
                if tokens[i + 1].type == "inline" and text_direction(ICON.sub("", tokens[i + 1].content)) == "rtl":
                    token.attrSet("dir", "rtl")

    md.core.ruler.push("printer_direction", rule)


def icons_in(text: str) -> list[IconUse]:
    """Every icon the text uses, in order (escaped braces are not icons)."""
    found = []
    for token in _card_md().parseInline(text, {}):
        for child in token.children or []:
            if child.type == "icon":
                found.append(IconUse(child.meta["name"], child.meta["label"]))
    return found


def plain_text(text: str) -> str:
    """The text without markup: icons as ``{name}``, emphasis dropped (for lengths and search)."""
    out = []
    for token in _card_md().parseInline(text.replace("\r\n", "\n"), {}):
        for child in token.children or []:
            if child.type == "text":
                out.append(child.content)
            elif child.type in ("softbreak", "hardbreak"):
                out.append("\n")
            elif child.type == "icon":
                out.append("{" + child.meta["name"] + "}")
    return "".join(out)


_ESCAPE = re.compile(r"([\\*_{}])")


def escape_text(text: str) -> str:
    """Plain text made safe to put into card-text markup.

    Only the characters the markup gives a meaning to (``\\ * _ { }``) are
    backslash-escaped; everything else, HTML included, already prints as itself.
    """
    return _ESCAPE.sub(r"\\\1", text)


def unknown_icon(where: str | Location, name: str, known: Sequence[str], message: str | None = None) -> Problem:
    """The ``unknown-icon`` warning for the icon ``name`` at ``where``.

    The hint names the closest of the ``known`` icon names, or lists them all
    when none is close. ``message`` replaces the default ``unknown icon {name}``.
    """
    hint = did_you_mean(name, known) or ("icons: " + ", ".join(known) if known else "this game has no icons yet")
    return Problem(where, message or f"unknown icon {{{name}}}", hint, WARNING, "unknown-icon")
