"""Generated blocks and card embeds: fenced code blocks whose info string starts with ``printer``.

Syntax (one block per fence; the fence's body, when there is one, is a
caption in Markdown)::

    ```printer card ex-ring-earth ex-personality-tetsuya align=right
    The Ring of Earth and a Personality.
    ```

=======================================  =====================================================
``printer card ID... [align=...]``       the cards (by id or full name, or ``back:NAME`` for
                                         a card back) rendered by the game's card template at
                                         its trim size; ``align=center|left|right`` (left and
                                         right float beside the text)
``printer aid NAME``                     a player aid (``aids/NAME.md``), front and back
``printer icon-legend [icons=a,b]``      the game's icons with their meaning
                                         (``icons`` in ``rules.toml``, else the SVG's
                                         ``<title>``); ``markup=yes`` adds the ``{name}`` code
``printer glossary [order=alpha|file]``  the terms of ``glossary`` in ``rules.toml``
``printer card-index [sort=...]``        every card of the game in a table:
                                         ``sort=type|title|set`` (default ``type``) or any
                                         card field (numbers sort numerically),
                                         ``fields=cost,force:F`` extra columns (``field:Label``),
                                         ``type=A,B`` / ``set=A,B`` keep only those cards
``printer format [ID...]``               a summary of deck formats (default: every format of
                                         the game): deck sections and sizes, copy limit,
                                         Unique, card pool, banned list
=======================================  =====================================================

Options are ``key=value`` words (quote values with spaces: ``title="A B"``).
An unknown block kind or option is an error located at the fence's
``file:line:col`` with the closest valid name as a hint; an unknown card
prints a placeholder and is a warning.
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Callable
from dataclasses import dataclass, field

from markupsafe import Markup

from printer.book.aids import find_aid, render_aid
from printer.book.context import RulesContext
from printer.cards.markup import escape_text, unknown_icon
from printer.cards.model import Card, normalize_name
from printer.jsonvalue import JSON
from printer.problems import WARNING, Problem, did_you_mean


@dataclass
class Block:
    """One parsed ``printer`` fence: its ``kind``, positional ``args``, ``options`` and caption ``body``."""

    kind: str
    args: list[str] = field(default_factory=list)
    options: dict[str, str] = field(default_factory=dict)
    body: str = ""
    where: str = ""


def parse_block(info: str, body: str, where: str) -> tuple[Block | None, list[Problem]]:
    """Split a fence's info string (after ``printer``) into a :class:`Block`."""
    try:
        words = shlex.split(info)
    except ValueError as exc:
        return None, [
            Problem(where, f"cannot read the block's options: {exc}", "close every quote", code="rules-block")
        ]
    if not words:
        return None, [Problem(where, "a printer block needs a kind", "kinds: " + ", ".join(BLOCKS), code="rules-block")]
    block = Block(words[0], body=body, where=where)
    for word in words[1:]:
        key, eq, value = word.partition("=")
        if eq and re.fullmatch(r"[a-z][a-z-]*", key):
            block.options[key] = value
        else:
            block.args.append(word)
    return block, []


def run_block(ctx: RulesContext, info: str, body: str, where: str) -> Markup:
    """Render one ``printer`` fence; problems go to ``ctx.problems``. Bad blocks print a visible error box."""
    block, problems = parse_block(info, body, where)
    ctx.problems += problems
    if block is None:
        return _error_box(problems[0].message)
    spec = BLOCKS.get(block.kind)
    if spec is None:
        ctx.problems.append(
            Problem(
                where,
                f"unknown printer block {block.kind!r}",
                did_you_mean(block.kind, list(BLOCKS)) or "kinds: " + ", ".join(BLOCKS),
                code="rules-block",
            )
        )
        return _error_box(f"unknown block {block.kind}")
    handler, allowed = spec
    bad = [k for k in block.options if k not in allowed]
    for key in bad:
        ctx.problems.append(
            Problem(
                where,
                f"unknown option {key!r} for a {block.kind} block",
                did_you_mean(key, list(allowed))
                or ("options: " + ", ".join(allowed) if allowed else "this block takes no options"),
                code="rules-block",
            )
        )
    if bad:
        return _error_box(f"{block.kind}: unknown option {bad[0]}")
    html = handler(ctx, block)
    ctx.collect_renderer_problems()
    return html


def _error_box(message: str) -> Markup:
    return Markup('<div class="rb-block-error">{}</div>').format(message)


def _caption(ctx: RulesContext, block: Block) -> Markup:
    if not block.body.strip():
        return Markup("")
    html, icons = ctx.block_text(block.body)
    ctx._unknown_icons(icons, block.where)
    return html


# -- cards -------------------------------------------------------------------------


@dataclass
class EmbeddedFace:
    """A rendered card face of ``w`` x ``h`` mm."""

    html: Markup
    w: float
    h: float
    label: str


def _choice(ctx: RulesContext, block: Block, key: str, choices: tuple[str, ...], default: str) -> str:
    value = block.options.get(key, default)
    if value not in choices:
        ctx.problems.append(
            Problem(
                block.where,
                f"{key}={value!r} is not one of {', '.join(choices)}",
                did_you_mean(value, list(choices)),
                code="rules-block",
            )
        )
        return default
    return value


def card_faces(ctx: RulesContext, refs: list[str], where: str) -> list[EmbeddedFace]:
    """The fronts of the cards ``refs`` (ids or names; ``back:NAME`` for a back), each at the card's trim size.

    Their text fits its boxes as on card sheets (:meth:`RulesContext.fit_faces`).
    """
    w, h = ctx.card_size
    faces: list[EmbeddedFace] = []
    cards: list[Card | None] = []
    for ref in refs:
        if ref.startswith("back:"):
            faces.append(EmbeddedFace(ctx.renderer.back(ref[5:]), w, h, ref))
            cards.append(None)
            continue
        card = ctx.find_card(ref, where)
        html = ctx.renderer.front(card) if card else ctx.renderer.placeholder(ref, "not in the card database")
        faces.append(EmbeddedFace(html, w, h, card.name if card else ref))
        cards.append(card)
    # Text that would overflow shrinks as on card sheets (printer.sheets.fit), or is reported.
    for face, html in zip(faces, ctx.fit_faces([(f.html, c) for f, c in zip(faces, cards)])):
        face.html = html
    return faces


def block_card(ctx: RulesContext, block: Block) -> Markup:
    if not block.args:
        ctx.problems.append(
            Problem(
                block.where,
                "a card block needs at least one card id",
                "e.g. ```printer card ex-ring-earth",
                code="rules-block",
            )
        )
        return _error_box("card: no card id")
    align = _choice(ctx, block, "align", ("center", "left", "right"), "center")
    faces = card_faces(ctx, block.args, block.where)
    return ctx.render("blocks/cards.html.j2", faces=faces, caption=_caption(ctx, block), align=align, kind="card")


def block_aid(ctx: RulesContext, block: Block) -> Markup:
    if len(block.args) != 1:
        ctx.problems.append(
            Problem(
                block.where,
                "an aid block names one player aid",
                "e.g. ```printer aid turn-sequence",
                code="rules-block",
            )
        )
        return _error_box("aid: name one aid")
    aid = find_aid(ctx, block.args[0], block.where)
    if aid is None:
        return _error_box(f"no player aid {block.args[0]}")
    front, back = render_aid(ctx, aid)
    w, h = ctx.card_size
    faces = [EmbeddedFace(front, w, h, aid.title)] + ([EmbeddedFace(back, w, h, aid.title)] if aid.back else [])
    align = _choice(ctx, block, "align", ("center", "left", "right"), "center")
    return ctx.render("blocks/cards.html.j2", faces=faces, caption=_caption(ctx, block), align=align, kind="aid")


# -- icons, glossary ------------------------------------------------------------------

_TITLE = re.compile(r"<title[^>]*>(.*?)</title>", re.S | re.I)
_COMMENT = re.compile(r"<!--(.*?)-->", re.S)


def icon_meaning(ctx: RulesContext, name: str) -> str:
    """What an icon means: ``icons`` in ``rules.toml``, else the SVG's ``<title>``, else its first comment, else its name.

    The text is escaped for markup (an SVG comment may hold ``*`` or ``{``).
    """
    table = (ctx.edition.settings.get("icons") if ctx.edition else None) or {}
    if name in table:
        meaning: str = table[name]
        return meaning
    path = ctx.find_template_file(f"icons/{name}.svg")
    if path:
        svg = path.read_text(encoding="utf-8", errors="replace")
        for pattern in (_TITLE, _COMMENT):
            match = pattern.search(svg)
            if match and match.group(1).strip():
                return escape_text(" ".join(match.group(1).split()))
    return name.replace("-", " ").capitalize()


def block_icon_legend(ctx: RulesContext, block: Block) -> Markup:
    names = ctx.renderer.icon_names()
    if "icons" in block.options:
        wanted = [n for n in block.options["icons"].split(",") if n]
        for name in wanted:
            if name not in names:
                ctx.problems.append(unknown_icon(block.where, name, names, f"unknown icon {name!r} in icon-legend"))
        names = [n for n in wanted if n in names]
    where = f"{ctx.edition.folder / 'rules.toml'}::$.icons" if ctx.edition else block.where
    rows = [
        {"name": n, "url": ctx.renderer.icon_url(n), "meaning": ctx.inline(icon_meaning(ctx, n), f"{where}.{n}")}
        for n in names
    ]
    if not rows:
        ctx.problems.append(Problem(block.where, f"{ctx.game.id} has no icons yet", severity=WARNING, code="no-icons"))
    markup = _choice(ctx, block, "markup", ("yes", "no"), "no") == "yes"
    return ctx.render("blocks/icon-legend.html.j2", icons=rows, show_markup=markup)


def block_glossary(ctx: RulesContext, block: Block) -> Markup:
    terms = (ctx.edition.settings.get("glossary") if ctx.edition else None) or {}
    if not terms:
        ctx.problems.append(
            Problem(
                block.where, "the glossary is empty", "add a [glossary] table to rules.toml", WARNING, "empty-glossary"
            )
        )
    order = _choice(ctx, block, "order", ("alpha", "file"), "alpha")
    items = list(terms.items())
    if order == "alpha":
        items.sort(key=lambda kv: normalize_name(kv[0]))
    where = f"{ctx.edition.folder / 'rules.toml'}::$.glossary" if ctx.edition else block.where
    entries = [{"term": ctx.inline(t, f"{where}.{t}"), "definition": ctx.inline(d, f"{where}.{t}")} for t, d in items]
    return ctx.render("blocks/glossary.html.j2", entries=entries)


# -- card index ------------------------------------------------------------------------


def _value(value: JSON) -> str:
    if value is None or value == "":
        return "–"
    if value is True:
        return "✓"
    if value is False:
        return ""
    if isinstance(value, list):
        return ", ".join(_value(v) for v in value)
    return str(value)


def _number_key(value: JSON) -> tuple[int, str]:
    text = "" if value is None else str(value)
    digits = re.match(r"\d+", text)
    return (int(digits.group()) if digits else 10**9, text)


def block_card_index(ctx: RulesContext, block: Block) -> Markup:
    sort = block.options.get("sort", "type")
    if sort not in ("type", "title", "set") and not any(sort in c.data for c in ctx.cards):
        ctx.problems.append(
            Problem(
                block.where,
                f"sort={sort!r} is not type, title, set or a card field",
                did_you_mean(sort, ["type", "title", "set", *sorted({k for c in ctx.cards for k in c.data})]),
                code="rules-block",
            )
        )
        sort = "type"
    fields = []
    for spec in [f for f in block.options.get("fields", "").split(",") if f]:
        name, _, label = spec.partition(":")
        fields.append((name, label or name.replace("_", " ").capitalize()))
    cards: list[Card] = list(ctx.cards)
    for key in ("type", "set"):
        if key in block.options:
            wanted = {v.strip() for v in block.options[key].split(",") if v.strip()}
            cards = [c for c in cards if str(c.get(key)) in wanted]
    known_fields = {k for c in ctx.cards for k in c.data}
    for name, _ in fields:
        if ctx.cards and name not in known_fields:
            ctx.problems.append(
                Problem(
                    block.where,
                    f"no {ctx.game.id} card has a field {name!r}",
                    did_you_mean(name, sorted(known_fields)),
                    WARNING,
                    "unknown-field",
                )
            )
    known_types = sorted({c.type for c in ctx.cards})
    for name in ctx.type_names:
        if ctx.cards and name not in known_types and ctx.edition:
            where = f"{ctx.edition.folder / 'rules.toml'}::$.types.{name}"
            message, hint = f"no {ctx.game.id} card has the type {name!r}", did_you_mean(name, known_types)
            ctx.problems.append(Problem(where, message, hint, WARNING, "unknown-type"))
    title_key: Callable[[Card], tuple[str, str]] = lambda c: (normalize_name(c.name), c.id)
    group: Callable[[Card], object] | None
    if sort == "type":
        cards.sort(key=lambda c: (normalize_name(c.type), *title_key(c)))
        group = lambda c: ctx.type_names.get(c.type, c.type)
    elif sort == "set":
        cards.sort(key=lambda c: (normalize_name(str(c.get("set") or "")), _number_key(c.get("number")), *title_key(c)))
        group = lambda c: c.get("set") or "–"
    elif sort == "title":
        cards.sort(key=title_key)
        group = None
    else:  # any card field, numbers in numeric order
        cards.sort(key=lambda c: (_number_key(c.get(sort)), *title_key(c)))
        group = None
    rows: list[dict[str, object]] = []
    last: object = object()
    for card in cards:
        if group is not None and group(card) != last:
            last = group(card)
            rows.append({"group": str(last)})
        rows.append(
            {
                "id": card.id,
                "name": card.name,
                "type": ctx.type_names.get(card.type, card.type),
                "unique": card.get("unique") is True,
                "set": _value(card.get("set")),
                "number": _value(card.get("number")),
                "fields": [_value(card.get(name)) for name, _ in fields],
            }
        )
    show_set = sort != "set" and any(c.get("set") for c in cards)
    show_number = any(c.get("number") not in (None, "") for c in cards)
    return ctx.render(
        "blocks/card-index.html.j2",
        rows=rows,
        fields=[label for _, label in fields],
        sort=sort,
        count=len(cards),
        show_set=show_set,
        show_number=show_number,
    )


# -- formats --------------------------------------------------------------------------------


def block_format(ctx: RulesContext, block: Block) -> Markup:
    from printer.book.format_summary import format_summaries

    summaries = format_summaries(ctx, block.args, block.where)
    return ctx.render("blocks/format.html.j2", formats=summaries)


#: kind -> (handler, allowed options)
BLOCKS: dict[str, tuple[Callable[[RulesContext, Block], Markup], tuple[str, ...]]] = {
    "card": (block_card, ("align",)),
    "aid": (block_aid, ("align",)),
    "icon-legend": (block_icon_legend, ("icons", "markup")),
    "glossary": (block_glossary, ("order",)),
    "card-index": (block_card_index, ("sort", "fields", "type", "set")),
    "format": (block_format, ()),
}
