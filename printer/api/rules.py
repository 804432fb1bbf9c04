"""``printer rules``: the rules reference of each game, to PDF."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

from printer.api.common import _strictly, usage_error
from printer.api.results import (
    BookBuild,
)
from printer.paths import output_path
from printer.problems import Problem, did_you_mean, errors
from printer.project import Project


def build_rules(  # noqa: PLR0913  public API: one keyword per printer rules option
    project: Project,
    game: str | None = None,
    paths: Sequence[Path] = (),
    out_dir: Path | None = None,
    paper: str | None = None,
    edition: str | None = None,
    cards_dir: Path | None = None,
    strict: bool = False,
    on_book: Callable[[BookBuild], None] | None = None,
    lang: str | None = None,
) -> list[BookBuild]:
    """Print the rules reference of ``game`` (every game with a rules folder when ``None``) to PDF.

    Reads ``rules/<game>/*.md`` (or the Markdown files or folder ``paths``)
    and writes ``<out_dir>/<game>-rules.pdf`` plus one PDF per edition
    folder; ``paper`` is a page size name or ``WxH mm``; ``edition`` keeps
    one edition (``main`` for the main one). ``on_book`` gets each book as
    it is done. ``lang`` keeps the editions in one language the game declares
    (each edition's ``rules.toml`` ``lang``; the main edition's default is the
    game's source language), ``"all"`` those in any language it declares; a
    game with none in ``lang`` gets a ``no-rules`` error. Raises
    :class:`UsageError` for a project without rules, ``paths`` without a game,
    or a language a game does not declare.
    """
    from pypdf import PdfReader

    from printer.book import build_book, edition_for_paths, find_editions, read_edition, rules_folder
    from printer.sheets.faces.items import allowed_roots
    from printer.sheets.layout import PAPER_SIZES, parse_size

    if game is None:
        games = [g for g in project.games.values() if rules_folder(project, g).is_dir()]
        if not games:
            raise usage_error("no game of the project has rules", "write rules/<game>/*.md")
    else:
        games = [project.game(game)]
    if paths and len(games) != 1:
        raise usage_error("PATHS need a game", "e.g. printer rules GAME my-rules/")
    page = parse_size(paper or project.settings.get("paper", "A4"), PAPER_SIZES, "paper size", project.limits.size_mm)
    out_dir = out_dir or project.build_dir
    books: list[BookBuild] = []
    if lang is not None:
        from printer.api.languages import build_languages

        langs = build_languages(project, games, lang)

    def done(book: BookBuild) -> None:
        books.append(book)
        if on_book:
            on_book(book)

    for chosen in games:
        editions = [edition_for_paths(chosen, list(paths))] if paths else find_editions(project, chosen)
        if edition:
            names = [e.name or "main" for e in editions]
            editions = [e for e in editions if (e.name or "main") == edition]
            if names and not editions and game is not None:  # an --edition the game does not have: the command's
                known = did_you_mean(edition, names) or "editions: " + ", ".join(names)
                raise usage_error(f"--edition {edition!r}: {chosen.id} has no such edition", known, "--edition")
        hint = None
        if lang is not None and editions:
            from printer.api.languages import editions_in

            editions, hint = editions_in(project, chosen, editions, langs[chosen.id])
        if not editions:
            where = str(rules_folder(project, chosen))
            what = f"no edition {edition!r}" if edition else "no rules folder"
            what = f"no {lang} edition" if hint else what
            hint = hint or f"write the rules in {where}/*.md"
            problem = Problem(where, f"{chosen.id}: {what}", hint, code="no-rules")
            done(BookBuild(chosen.id, edition, None, problems=_strictly([problem], strict)))
            continue
        for found in editions:
            problems = read_edition(found)
            target = output_path(out_dir, found.output_name())
            if not errors(problems):
                roots = allowed_roots(project, [p for p in [cards_dir, found.folder] if p])
                problems += build_book(project, chosen, found, target, page, roots, cards_dir, strict)
            problems = _strictly(problems, strict)
            if errors(problems):
                done(BookBuild(chosen.id, found.name, None, problems=problems))
            else:
                done(BookBuild(chosen.id, found.name, target, len(PdfReader(target).pages), problems))
    return books
