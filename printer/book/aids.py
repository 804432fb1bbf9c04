"""Player aids: summary and turn-sequence cards written in Markdown, printed at the game's card size.

An aid is one file ``rules/<game>/aids/<name>.md`` (or in an edition's
``aids/`` folder). Its first heading is the aid's title; a thematic break
(a line ``---`` after a blank line) separates the front from the back.
Without a back part, the aid prints a plain back naming the game. The
same rules markup as the book applies: emphasis, lists, tables, icons
(``{spade}``); ``printer`` blocks are not allowed on aids.

:func:`aid_items` turns every aid of a game into
:class:`printer.sheets.faces.items.PrintItem`\\ s, so that ``printer build`` prints them
on card sheets with the cards (``copies`` from ``aid_copies`` in
``rules.toml``).
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from markupsafe import Markup

from printer.book.context import RulesContext
from printer.book.markdown import locate
from printer.book.source import RULES_FILE, Edition, find_editions, read_settings
from printer.cards.markup import unknown_icon
from printer.limits import over as limit_over
from printer.paths import contained, is_inside, read_text
from printer.problems import WARNING, Problem, did_you_mean
from printer.project import Game, Project

if TYPE_CHECKING:
    from printer.sheets.faces.items import PrintItem


@dataclass
class Aid:
    """One player aid: ``name`` (file stem), its Markdown ``front`` and optional ``back``, its ``title``."""

    name: str
    file: Path
    title: str
    front: str
    back: str | None


def load_aids(ctx: RulesContext, folder: Path) -> list[Aid]:
    """Every aid in ``folder`` (``*.md``, sorted by name); split front/back at the first top-level thematic break."""
    aids = []
    for file in sorted(folder.glob("*.md")) if folder.is_dir() else []:
        if not is_inside(file, [folder]):  # a link out of the aids folder is never followed
            _, outside = contained(folder, file, file.name, str(file))
            if outside is not None:
                ctx.problems.append(outside)
            continue
        text, problem = read_text(file)
        if problem is not None:
            ctx.problems.append(problem)
        if text is None:
            continue
        tokens = ctx.md.parse(text, {})
        lines = text.split("\n")
        front, back = text, None
        for token in tokens:
            if token.type == "hr" and token.level == 0 and token.map:
                front = "\n".join(lines[: token.map[0]])
                back = "\n".join(lines[token.map[1] :])
                break
        title = file.stem.replace("-", " ").capitalize()
        for i, token in enumerate(tokens):
            if token.type == "heading_open":
                title = tokens[i + 1].content.strip() or title
                break
        aids.append(Aid(file.stem, file, title, front, back))
    return aids


def find_aid(ctx: RulesContext, name: str, where: str) -> Aid | None:
    """The aid ``name`` of the current edition (or of the game's main edition); warns when there is none."""
    folders = []
    if ctx.edition is not None:
        folders.append(ctx.edition.aids_folder)
        main = ctx.project.root / ctx.game.settings.get("rules", f"rules/{ctx.game.id}") / "aids"
        if main not in folders:
            folders.append(main)
    names = []
    for folder in folders:
        for aid in load_aids(ctx, folder):
            if aid.name == name:
                return aid
            names.append(aid.name)
    ctx.problems.append(
        Problem(
            where,
            f"no player aid {name!r}",
            did_you_mean(name, names) or (f"aids: {', '.join(names)}" if names else "write it as aids/<name>.md"),
            WARNING,
            "unknown-aid",
        )
    )
    return None


def _weight(text: str) -> int:
    """Text length for sizing: wide (CJK) characters count twice, markup characters not at all."""
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text if ch not in "#*_|-{}:\n")


def font_size(ctx: RulesContext, aid: Aid, text: str) -> str:
    """The aid's font size: ``aid_font_size`` in ``rules.toml``, else chosen from its length and the card's area."""
    sizes = (ctx.edition.settings.get("aid_font_size") if ctx.edition else None) or {}
    if aid.name in sizes:
        chosen: str = sizes[aid.name]
        return chosen
    w, h = ctx.card_size
    per_area = _weight(text) / max(w * h, 1.0) * (63 * 88)
    grow = min(1.3, ((w * h) / (63 * 88)) ** 0.5)  # larger cards (tarot) print larger text
    for limit, size in ((1100, 5.0), (850, 5.5), (600, 6.0), (400, 6.6), (0, 7.2)):
        if per_area > limit:
            return f"{size * grow:.1f}pt"
    return "7.2pt"


def _body(ctx: RulesContext, aid: Aid, text: str) -> Markup:
    html, icons = ctx.block_text(text)
    names = ctx.renderer.icon_names()
    for name in dict.fromkeys(icons.unknown_icons):
        line, col = locate(aid.file.read_text(encoding="utf-8"), "{" + name)
        ctx.problems.append(unknown_icon(f"{aid.file}:{line}:{col}", name, names))
    return html


def aid_css(ctx: RulesContext) -> Markup:
    """The aids' stylesheet (``rules/aid.css`` on the game's template path), to inline in each face."""
    path = ctx.find_template_file("rules/aid.css")
    return Markup(path.read_text(encoding="utf-8")) if path else Markup("")


def render_aid(ctx: RulesContext, aid: Aid, inline_css: bool = False) -> tuple[Markup, Markup]:
    """The HTML of the aid's front and back, each filling a box of the card's trim size.

    With ``inline_css`` each face carries the aid stylesheet in a ``<style>``
    element (for card sheets, whose document only links the card CSS).
    """
    css = aid_css(ctx) if inline_css else Markup("")
    w, h = ctx.card_size
    common = dict(title=aid.title, css=css, width=w, height=h, accent=_accent(ctx))
    front = ctx.render(
        "aid.html.j2", side="front", body=_body(ctx, aid, aid.front), font_size=font_size(ctx, aid, aid.front), **common
    )
    if aid.back is not None:
        back = ctx.render(
            "aid.html.j2",
            side="back",
            body=_body(ctx, aid, aid.back),
            font_size=font_size(ctx, aid, aid.back),
            **common,
        )
    else:
        back = ctx.render("aid.html.j2", side="plain-back", body=Markup(""), font_size="7pt", **common)
    return front, back


def _accent(ctx: RulesContext) -> str:
    return (ctx.edition.settings.get("accent") if ctx.edition else None) or "#7a1f1f"


def aid_items(
    project: Project, game: Game, roots: list[Path] | None = None, lang: str | None = None
) -> tuple[list[PrintItem], list[Problem]]:
    """The player aids of ``game``'s main edition (``rules/<game>/aids/``) as print items for ``printer build``.

    A translated edition's aids (``rules/<game>/ja/aids/``) print in that edition's rules reference, not on the
    card sheets, so that a game with a Japanese reference does not print every aid twice; a build in one language
    (``lang``, ``printer build --lang ja``) prints the aids of the first edition in that language (its
    ``rules.toml`` ``lang``), each face marked with it (:func:`printer.sheets.lang.with_lang`), or, when no edition
    with aids is in that language, the main edition's with a warning (``aids-not-translated``). Returns
    ``(items, problems)``: each item is a
    :class:`printer.sheets.faces.items.PrintItem` with ready-made ``front_html`` and
    ``back_html``, repeated ``aid_copies`` times (``rules.toml``, default 1).
    A game without aids gives ``([], [])``.
    """
    from printer.paths import bundled_root
    from printer.sheets.faces.items import PrintItem, allowed_roots
    from printer.sheets.references import reference_problems

    items: list[PrintItem] = []
    problems: list[Problem] = []
    base_url = project.root.resolve().as_uri() + "/"
    readable = [Path(r).resolve() for r in [*(roots or allowed_roots(project)), bundled_root() / "templates"]]
    memo: dict[str, str | None] = {}  # why each URL is unreadable (None: readable)
    editions = find_editions(project, game)[:1]  # the main edition
    if lang is not None:
        editions, problems = _aids_in(project, game, lang)
    for edition in editions:
        if not edition.aids_folder.is_dir():
            continue
        settings_file = edition.folder / RULES_FILE
        if settings_file.is_file() and not edition.settings:
            edition.settings, found = read_settings(settings_file)
            problems += found
        ctx = RulesContext(project, game, edition, roots or allowed_roots(project))
        copies = edition.settings.get("aid_copies", 1)
        if isinstance(copies, int) and copies > project.limits.aid_copies:
            where = f"{settings_file}::$.aid_copies"
            problems.append(limit_over("aid_copies", copies, project.limits.aid_copies, where, "aid_copies"))
            continue
        for aid in load_aids(ctx, edition.aids_folder):
            front, back = render_aid(ctx, aid, inline_css=True)
            label = f"player aid: {aid.title}"
            # a file the aid names that the build could not read: an error at the aid's line, as validate says it
            unreadable = reference_problems(front + back, base_url, readable, str(aid.file), label, memo)
            problems += [p for p in unreadable if p not in problems]
            if lang is not None:
                from printer.sheets.lang import with_lang

                front, back = with_lang(front, lang), with_lang(back, lang)
            items += [PrintItem(None, label, front_html=front, back_html=back) for _ in range(copies)]
        problems += ctx.problems
    return items, problems


def _aids_in(project: Project, game: Game, lang: str) -> tuple[list[Edition], list[Problem]]:
    """The edition whose aids a build in ``lang`` prints (one at most; see :func:`aid_items`) and the problems of
    the settings read to find it."""
    from printer.cards.translations import languages

    problems: list[Problem] = []
    editions = find_editions(project, game)
    source = languages(project, game.id)[0]  # the main edition's language when its rules.toml names none
    for i, edition in enumerate(editions):
        settings_file = edition.folder / RULES_FILE
        if settings_file.is_file():
            edition.settings, found = read_settings(settings_file)
            problems += found
        in_lang = edition.settings.get("lang", source if i == 0 else edition.lang)
        if in_lang == lang and edition.aids_folder.is_dir():
            return [edition], problems
    main = editions[:1]
    if main and main[0].aids_folder.is_dir():
        problems.append(
            Problem(
                str(main[0].aids_folder),
                f"no {lang} edition of {game.id}'s rules has player aids: the aids print in "
                f"{main[0].settings.get('lang', source)}",
                f"write them in {main[0].folder}/{lang}/aids/*.md, with lang = {lang!r} in its rules.toml",
                WARNING,
                "aids-not-translated",
            )
        )
    return main, problems
