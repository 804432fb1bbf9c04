"""Rules Markdown to HTML: markdown-it-py with tables, footnotes, admonitions and printer's icons.

What a rules chapter may use, beyond CommonMark:

- tables (GFM pipe tables), ``~~strikethrough~~``, definition lists
  (``Term`` then ``: definition``), smart quotes and dashes;
- footnotes ``text[^1]`` ... ``[^1]: note``, printed at the foot of the page;
- admonitions, fenced with colons: ``::: example Optional title`` ...
  ``:::`` (kinds: :data:`ADMONITIONS`);
- icons with the card-text markup ``{gold}``, ``{gold:2}``
  (:func:`printer.cards.markup.icon_plugin`);
- generated blocks and card embeds, fenced code blocks whose info string
  starts with ``printer`` (handled by the caller's ``block`` callback, see
  :mod:`printer.book.blocks`).

Raw HTML is never interpreted. Headings get ids unique across the book
(for the table of contents and links); relative image paths are resolved
against the chapter file.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import cast

from markdown_it import MarkdownIt
from markdown_it.renderer import RendererHTML
from markdown_it.token import Token
from markdown_it.utils import EnvType, OptionsDict
from markupsafe import Markup, escape
from mdit_py_plugins.container import container_plugin
from mdit_py_plugins.deflist import deflist_plugin
from mdit_py_plugins.footnote import footnote_plugin

from printer.cards.markup import RenderEnv, cjk_emphasis_plugin, direction_plugin, icon_plugin, unknown_icon
from printer.limits import DEFAULT as DEFAULT_LIMITS
from printer.problems import WARNING, Problem, did_you_mean

#: Admonition kinds (``::: kind [title]``); each prints as a boxed aside with a title.
ADMONITIONS = ("example", "note", "tip", "important", "variant", "clarification")

_SCHEME = re.compile(r"^[a-zA-Z][a-zA-Z0-9+.-]*:")
_CONTAINER_LINE = re.compile(r"^ {0,3}:{3,}[ \t]*([^\s:]+)", re.M)
BlockCallback = Callable[[str, str, int], Markup]


@dataclass
class Heading:
    """One heading of the book: level 1-6, its unique ``id``, inline HTML and plain text."""

    level: int
    id: str
    html: Markup
    text: str


@dataclass
class Chapter:
    """One Markdown file rendered: its ``html`` and its headings in order."""

    file: Path
    html: Markup
    headings: list[Heading] = field(default_factory=list)

    @property
    def title(self) -> str:
        return next((h.text for h in self.headings if h.level == 1), "")

    @property
    def file_name(self) -> str:
        return self.file.name


def rules_markdown(
    lang: str = "en", labels: dict[str, str] | None = None, max_nesting: int = DEFAULT_LIMITS.markdown_nesting
) -> MarkdownIt:
    """The markdown-it-py parser for rules text (see the module docstring).

    ``labels`` gives each admonition kind its default title (e.g.
    ``{"example": "Example"}``); ``lang`` picks the smart quotes; blocks nested deeper than ``max_nesting`` (the
    project's ``markdown_nesting`` limit) print as text.
    """
    quotes = "「」『』" if lang.startswith("ja") else "\u201c\u201d\u2018\u2019"
    md = MarkdownIt("commonmark", {"html": False, "typographer": True, "quotes": quotes})
    md.enable(["table", "strikethrough", "replacements", "smartquotes"])
    md.options["maxNesting"] = max_nesting  # deeper blocks print as text (no deep recursion)
    md.use(icon_plugin).use(cjk_emphasis_plugin).use(footnote_plugin).use(deflist_plugin).use(direction_plugin)
    titles = labels or {}
    for kind in ADMONITIONS:
        md.use(container_plugin, kind, render=_admonition_renderer(md, kind, titles.get(kind, kind.capitalize())))
    md.add_render_rule("fence", _render_fence)
    md.add_render_rule("footnote_ref", _render_footnote_ref)
    md.add_render_rule("table_open", lambda self, t, i, o, e: '<table class="rb-table">\n')
    md.add_render_rule("heading_open", _render_heading_open)
    md.add_render_rule("heading_close", _render_heading_close)
    return md


def _split(tokens: Sequence[Token], idx: int, env: EnvType) -> bool:
    return tokens[idx].tag == "h1" and bool(getattr(env.get("rules"), "split_h1", False))


def _render_heading_open(
    self: RendererHTML, tokens: Sequence[Token], idx: int, options: OptionsDict, env: EnvType
) -> str:
    # A chapter's h1 spans the page: it closes the multi-column flow and the flow reopens after it.
    html = self.renderToken(tokens, idx, options, env)
    return '</div>\n<div class="rb-chapter-head">' + html if _split(tokens, idx, env) else html


def _render_heading_close(
    self: RendererHTML, tokens: Sequence[Token], idx: int, options: OptionsDict, env: EnvType
) -> str:
    html = self.renderToken(tokens, idx, options, env)
    return html + '</div>\n<div class="rb-flow">\n' if _split(tokens, idx, env) else html


def _admonition_renderer(md: MarkdownIt, kind: str, default_title: str) -> Callable[..., str]:
    def render(self: RendererHTML, tokens: Sequence[Token], idx: int, options: OptionsDict, env: EnvType) -> str:
        token = tokens[idx]
        if token.nesting != 1:
            return "</div>\n"
        title = token.info.strip()[len(kind) :].strip()
        # A fresh env: the footnote plugin would print the chapter's footnotes again after the title.
        title_env = {"printer": env.get("printer"), "rules": env.get("rules")}
        title_html = md.renderInline(title, title_env) if title else escape(default_title)
        return f'<div class="rb-admonition rb-{kind}">\n<p class="rb-admonition-title">{title_html}</p>\n'

    return render


def _render_fence(self: RendererHTML, tokens: Sequence[Token], idx: int, options: OptionsDict, env: EnvType) -> str:
    token = tokens[idx]
    words = token.info.strip().split(None, 1)
    if words and words[0] == "printer":
        line = (token.map[0] + 1) if token.map else 0
        return str(env["rules"].block(words[1] if len(words) > 1 else "", token.content, line))
    return RendererHTML.fence(self, tokens, idx, options, env)


def _render_footnote_ref(
    self: RendererHTML, tokens: Sequence[Token], idx: int, options: OptionsDict, env: EnvType
) -> str:
    body = env["rules"].footnotes.get(tokens[idx].meta["id"], "")
    return f'<span class="rb-footnote">{body}</span>'


class _State:
    """What the render rules need while one chapter renders."""

    split_h1 = True

    def __init__(self, block: BlockCallback):
        self.block = block
        self.footnotes: dict[int, str] = {}


def slug(text: str) -> str:
    """A heading's id: lower case words joined by ``-`` (letters of any script are kept)."""
    words = re.sub(r"[^\w\s-]", "", text.casefold()).split()
    return "-".join(words)[:60].strip("-") or "section"


def render_chapter(
    md: MarkdownIt,
    path: Path,
    text: str,
    block: BlockCallback,
    icon_url: Callable[[str], str | None],
    icon_names: Callable[[], list[str]],
    used_ids: set[str],
) -> tuple[Chapter, list[Problem]]:
    """Render one chapter file's ``text``.

    ``block(info, body, line)`` renders a ``printer`` fenced block;
    ``icon_url`` finds an icon's SVG; ``used_ids`` holds the ids already
    given to headings of earlier chapters and is updated. Returns the
    chapter and the warnings found (unknown icons, unknown admonition kinds),
    located as ``file:line:col``.
    """
    text = text.replace("\r\n", "\n")
    icons = RenderEnv(icon_url=icon_url)
    state = _State(block)
    env = {"printer": icons, "rules": state}
    tokens = md.parse(text, env)
    tokens = _take_footnotes(md, tokens, env, state)
    headings = _name_headings(md, tokens, env, used_ids)
    _resolve_paths(tokens, path.parent)
    html = md.renderer.render(tokens, md.options, env)
    html = '<div class="rb-flow">\n' + html + "</div>\n"
    html = re.sub(r'<div class="rb-flow">\s*</div>\n?', "", html)  # no empty flow before or after a chapter heading
    problems = _icon_problems(path, text, icons.unknown_icons, icon_names)
    problems += _container_problems(path, text)
    return Chapter(path, Markup(html), headings), problems


def _take_footnotes(md: MarkdownIt, tokens: list[Token], env: EnvType, state: _State) -> list[Token]:
    """Render every footnote body to inline HTML (for ``float: footnote``) and drop the footnote list."""
    out: list[Token] = []
    current: int | None = None
    parts: list[str] = []
    inside = False
    for token in tokens:
        if token.type == "footnote_block_open":
            inside = True
            continue
        if token.type == "footnote_block_close":
            inside = False
            continue
        if not inside:
            out.append(token)
            continue
        if token.type == "footnote_open":
            current, parts = token.meta["id"], []
        elif token.type == "footnote_close" and current is not None:
            state.footnotes[current] = " ".join(parts)
            current = None
        elif token.type == "inline" and current is not None:
            children = [c for c in token.children or [] if c.type != "footnote_anchor"]
            parts.append(_render_inline(md, children, env).strip())
    return out


def _render_inline(md: MarkdownIt, children: list[Token], env: EnvType) -> str:
    """``children`` (inline tokens) as HTML by ``md``'s renderer.

    The renderer is markdown-it's :class:`RendererHTML` (``rules_markdown`` sets no other); markdown-it types
    ``MarkdownIt.renderer`` as a protocol without ``renderInline``, hence the cast.
    """
    return cast(RendererHTML, md.renderer).renderInline(children, md.options, env)


def _plain(children: list[Token]) -> str:
    out = []
    for child in children:
        if child.type in ("text", "code_inline"):
            out.append(child.content)
        elif child.type in ("softbreak", "hardbreak"):
            out.append(" ")
    return "".join(out).strip()


def _name_headings(md: MarkdownIt, tokens: list[Token], env: EnvType, used_ids: set[str]) -> list[Heading]:
    headings = []
    for i, token in enumerate(tokens):
        if token.type != "heading_open":
            continue
        inline = tokens[i + 1]
        children = inline.children or []
        text = _plain(children)
        base = slug(text)
        ident, n = base, 2
        while ident in used_ids:
            ident, n = f"{base}-{n}", n + 1
        used_ids.add(ident)
        token.attrSet("id", ident)
        html = Markup(_render_inline(md, [c for c in children if c.type != "footnote_ref"], env))
        headings.append(Heading(int(token.tag[1]), ident, html, text))
    return headings


def _resolve_paths(tokens: list[Token], folder: Path) -> None:
    """Relative image sources become file URLs next to the chapter; links to ``x.md#id`` become ``#id``."""
    for token in tokens:
        for child in token.children or []:
            if child.type == "image":
                src = str(child.attrGet("src") or "")
                if src and not _SCHEME.match(src) and not src.startswith("#"):
                    child.attrSet("src", (folder / src).resolve().as_uri())
            elif child.type == "link_open":
                href = str(child.attrGet("href") or "")
                if not _SCHEME.match(href) and ".md#" in href:
                    child.attrSet("href", "#" + href.split(".md#", 1)[1])
                if str(child.attrGet("href") or "").startswith("#"):
                    child.attrSet("class", "rb-xref")


def locate(text: str, needle: str) -> tuple[int, int]:
    """1-based ``(line, column)`` of the first ``needle`` in ``text`` (``(1, 1)`` when absent)."""
    index = text.find(needle)
    if index < 0:
        return 1, 1
    line = text.count("\n", 0, index) + 1
    return line, index - (text.rfind("\n", 0, index) + 1) + 1


def _icon_problems(path: Path, text: str, unknown: list[str], icon_names: Callable[[], list[str]]) -> list[Problem]:
    problems = []
    for name in dict.fromkeys(unknown):
        line, col = locate(text, "{" + name)
        problems.append(unknown_icon(f"{path}:{line}:{col}", name, icon_names()))
    return problems


def _container_problems(path: Path, text: str) -> list[Problem]:
    problems = []
    for match in _CONTAINER_LINE.finditer(text):
        name = match.group(1)
        if name not in ADMONITIONS:
            line = text.count("\n", 0, match.start()) + 1
            problems.append(
                Problem(
                    f"{path}:{line}:{match.start(1) - match.start() + 1}",
                    f"unknown admonition {name!r}",
                    did_you_mean(name, list(ADMONITIONS)) or "kinds: " + ", ".join(ADMONITIONS),
                    WARNING,
                    "unknown-admonition",
                )
            )
    return problems
