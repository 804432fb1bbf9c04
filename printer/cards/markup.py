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
line breaks switched on) plus :func:`icon_plugin`.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from markdown_it import MarkdownIt
from markdown_it.rules_inline import StateInline
from markupsafe import Markup, escape

from printer.problems import WARNING, Problem, did_you_mean

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
    return f'<span class="icon-labelled icon-{name}">{img}<span class="icon-label">{escape(label)}</span></span>'


def _render_icon(self, tokens, idx, options, env) -> str:
    meta = tokens[idx].meta
    return icon_html(meta["name"], meta["label"], env.get("printer") or RenderEnv())


def icon_plugin(md: MarkdownIt) -> None:
    """markdown-it-py plugin: ``{name}`` and ``{name:label}`` become icons."""
    md.inline.ruler.before("emphasis", "icon", _icon_rule)
    md.add_render_rule("icon", _render_icon)


def card_markdown() -> MarkdownIt:
    """The parser for card text: emphasis, escapes, line breaks, icons; no HTML."""
    md = MarkdownIt("zero", {"breaks": True, "html": False})
    md.enable(["emphasis", "escape", "newline", "text"])
    md.use(icon_plugin)
    return md


_CARD_MD = card_markdown()
_PARAGRAPHS = re.compile(r"\n[ \t]*\n+")


def to_html(text: str, env: RenderEnv | None = None) -> Markup:
    """Card text in printer's markup to safe HTML: one ``<p>`` per paragraph."""
    env = env or RenderEnv()
    paragraphs = [p.strip("\n") for p in _PARAGRAPHS.split(text.replace("\r\n", "\n")) if p.strip()]
    parts = [f"<p{_dir_attr(p)}>{_CARD_MD.renderInline(p, {'printer': env})}</p>" for p in paragraphs]
    return Markup("".join(parts))


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

    def rule(state) -> None:
        tokens = state.tokens
        for i, token in enumerate(tokens):
            if token.type in ("paragraph_open", "heading_open") and i + 1 < len(tokens):
                if tokens[i + 1].type == "inline" and text_direction(ICON.sub("", tokens[i + 1].content)) == "rtl":
                    token.attrSet("dir", "rtl")

    md.core.ruler.push("printer_direction", rule)


def icons_in(text: str) -> list[IconUse]:
    """Every icon the text uses, in order (escaped braces are not icons)."""
    found = []
    for token in _CARD_MD.parseInline(text, {}):
        for child in token.children or []:
            if child.type == "icon":
                found.append(IconUse(child.meta["name"], child.meta["label"]))
    return found


def plain_text(text: str) -> str:
    """The text without markup: icons as ``{name}``, emphasis dropped (for lengths and search)."""
    out = []
    for token in _CARD_MD.parseInline(text.replace("\r\n", "\n"), {}):
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


def unknown_icon(where: str, name: str, known: Sequence[str], message: str | None = None) -> Problem:
    """The ``unknown-icon`` warning for the icon ``name`` at ``where``.

    The hint names the closest of the ``known`` icon names, or lists them all
    when none is close. ``message`` replaces the default ``unknown icon {name}``.
    """
    hint = did_you_mean(name, known) or ("icons: " + ", ".join(known) if known else "this game has no icons yet")
    return Problem(where, message or f"unknown icon {{{name}}}", hint, WARNING, "unknown-icon")
