"""A rules book: chapters rendered, assembled with a cover and contents, written as one PDF.

Page layouts (:func:`page_layout`) follow the paper: A4 and Letter print
two columns of 9.4 pt text; A5 (and anything narrower than 180 mm) one
column of 9 pt text. Margins are mirrored for a bound booklet (the inner
margin is the wider), running headers and page numbers sit on the outer
side. Page numbers are the PDF's own: the cover is page 1, unnumbered.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from urllib.parse import unquote, urlparse

from markupsafe import Markup

from printer.book.blocks import EmbeddedFace, card_faces, run_block
from printer.book.context import RulesContext
from printer.book.markdown import Chapter, Heading, render_chapter
from printer.book.scoped import scoped_css
from printer.book.source import Edition
from printer.paths import read_text, url2pathname
from printer.problems import Problem, errors
from printer.project import Game, Project

DEFAULT_ACCENT = "#7a1f1f"


@dataclass(frozen=True)
class PageLayout:
    """Margins in mm (``inner`` is the binding side), columns, column gap in mm, body font size in pt."""

    name: str
    columns: int
    top: float
    bottom: float
    inner: float
    outer: float
    column_gap: float
    font_size: float


def page_layout(page: tuple[float, float]) -> PageLayout:
    """The layout for a page of ``page`` = (width, height) mm: two columns from 180 mm wide, else one."""
    width, _ = page
    if width >= 180:
        return PageLayout("two", 2, top=20, bottom=20, inner=19, outer=15, column_gap=7, font_size=9.4)
    if width >= 140:
        return PageLayout("one", 1, top=17, bottom=18, inner=17, outer=13, column_gap=6, font_size=9.0)
    return PageLayout("one", 1, top=14, bottom=15, inner=12, outer=10, column_gap=5, font_size=8.5)


@dataclass
class Book:
    """What the book template prints on the cover."""

    title: str
    subtitle: str
    lang: str
    accent: str
    version: str = ""
    credits: Markup = Markup("")


def render_chapters(ctx: RulesContext, edition: Edition) -> list[Chapter]:
    """Every chapter file of ``edition`` rendered in order; problems go to ``ctx.problems``."""
    chapters: list[Chapter] = []
    used_ids: set[str] = {"contents"}
    for file in edition.files:
        ctx.file = file
        text, problem = read_text(file)
        if problem is not None:
            ctx.problems.append(problem)
        if text is None:
            continue

        def block(info: str, body: str, line: int, file: Path = file) -> Markup:
            return run_block(ctx, info, body, f"{file}:{line}:1")

        chapter, found = render_chapter(
            ctx.md, file, text, block, ctx.renderer.icon_url, ctx.renderer.icon_names, used_ids
        )
        ctx.problems += found
        chapters.append(chapter)
    return chapters


def book_html(ctx: RulesContext, edition: Edition, page: tuple[float, float]) -> str:
    """The whole HTML document of the book; problems go to ``ctx.problems``."""
    settings = edition.settings
    chapters = render_chapters(ctx, edition)
    depth = settings.get("toc_depth", 2)
    toc: list[Heading] = [h for c in chapters for h in c.headings if h.level <= depth]
    where = str(edition.folder / "rules.toml")
    book = Book(
        title=edition.title,
        subtitle=settings.get("subtitle", ctx.labels["rules_reference"]),
        lang=edition.lang,
        accent=settings.get("accent", DEFAULT_ACCENT),
        version=settings.get("version", ""),
        credits=ctx.inline(settings["credits"], f"{where}::$.credits") if settings.get("credits") else Markup(""),
    )
    cover = (
        card_faces(ctx, settings.get("cover_cards", []), f"{where}::$.cover_cards")
        if settings.get("cover_cards")
        else []
    )
    ctx.collect_renderer_problems()
    # the game's card stylesheets reach the embedded cards only (printer.book.scoped); the book's own are linked
    card_css = "\n".join(scoped_css(Path(url2pathname(unquote(urlparse(u).path)))) for u in ctx.renderer.stylesheets())
    stylesheets: list[str] = []
    for name in ("rules/book.css", "rules/aid.css", "rules/theme.css"):
        path = ctx.find_template_file(name)
        if path:
            stylesheets.append(path.resolve().as_uri())
    return str(
        ctx.render(
            "book.html.j2",
            book=book,
            cover_faces=cover,
            cover_row=cover_row(cover, page),
            toc=toc,
            chapters=chapters,
            page=page,
            layout=page_layout(page),
            stylesheets=stylesheets,
            card_css=Markup(card_css.replace("</", "<\\/")),
        )
    )


def cover_row(faces: list[EmbeddedFace], page: tuple[float, float], gap: float = 4.0) -> dict[str, float]:
    """Width (mm) of the row of cover cards and the scale that fits it in the page less 30 mm, and 40 % of its height."""
    if not faces:
        return {"width": 0, "scale": 1}
    width = sum(f.w for f in faces) + gap * len(faces)
    height = max(f.h for f in faces)
    scale = min(1.0, (page[0] - 30) / width, page[1] * 0.4 / height)
    return {"width": round(width, 2), "scale": round(scale, 3)}


def build_book(
    project: Project,
    game: Game,
    edition: Edition,
    target: Path,
    page: tuple[float, float],
    roots: list[Path],
    cards_dir: Path | None = None,
    strict: bool = False,
) -> list[Problem]:
    """Render ``edition`` of ``game`` to the PDF ``target`` on pages of ``page`` mm.

    Returns every problem found. When any is an error (with ``strict``, any
    problem at all), nothing is written: an earlier PDF at ``target`` stays
    as it was. Raises
    :class:`~printer.problems.RenderError` when a template fails or a
    resource outside ``roots`` is asked for.
    """
    from printer.sheets.pdf import write_pdf  # imports WeasyPrint: not for a card build that reads the aids

    ctx = RulesContext(project, game, edition, roots, cards_dir)
    html = book_html(ctx, edition, page)
    if errors(ctx.problems) or (strict and ctx.problems):
        return ctx.problems
    return ctx.problems + write_pdf([html], target, roots, project.root, where=str(edition.folder))
