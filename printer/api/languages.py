"""Builds in one language (``--lang``): which languages a command asks for, the names of what it writes, and the
cards it prints, translated (:mod:`printer.cards.translations`).

A build without ``--lang`` is the build it always was: its cards as their files hold them, its faces unmarked, its
files named ``<game>.pdf``. ``--lang ja`` prints the cards in Japanese, every face marked ``lang="ja"``
(:mod:`printer.sheets.lang`), into ``<game>-ja.pdf`` and ``<game>-ja-*`` for the rest; ``--lang all`` does that for
each language the game declares (``[games.<id>] languages`` in printer.toml, the source first).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from printer.problems import Problem, UsageError, closest
from printer.project import Game, Project

if TYPE_CHECKING:
    from printer.book.source import Edition
    from printer.cards.model import Card, CardSet
    from printer.sheets.faces.items import PrintItem

#: ``--lang all``: every language each game declares
ALL = "all"

#: where a card's field was read from in a translation (``file::$.cards[3].text (ja)``), or ``None``
Locate = Callable[["Card", str], "str | None"]


def game_languages(project: Project, game: Game) -> tuple[str, ...]:
    """The languages ``game`` declares, the source first (:func:`printer.cards.translations.languages`)."""
    from printer.cards.translations import languages

    return languages(project, game.id)


def build_languages(project: Project, games: Iterable[Game], asked: str | None) -> dict[str, list[str | None]]:
    """The languages to build each of ``games`` in, by game id: ``[None]`` (no ``--lang``: the build as it always
    was), every language the game declares (``asked`` is ``"all"``), or ``[asked]``.

    Raises :class:`UsageError` (exit 2) when a game does not declare ``asked``, the closest language it declares as
    the hint, before anything is built."""
    out: dict[str, list[str | None]] = {}
    for game in games:
        if asked is None:
            out[game.id] = [None]
            continue
        declared = game_languages(project, game)
        if asked == ALL:
            out[game.id] = list(declared)
        elif asked in declared:
            out[game.id] = [asked]
        else:
            raise unknown_language(project, game, asked, declared)
    return out


def unknown_language(project: Project, game: Game, asked: str, declared: Sequence[str]) -> UsageError:
    """The usage error for ``--lang asked`` when ``game`` declares only ``declared``."""
    same = [d for d in declared if d.lower() == asked.lower()]
    close = same or closest(asked, list(declared), n=1, cutoff=0.0)
    listed = ", ".join(declared)
    named = f"did you mean {close[0]!r}? " if close else ""
    hint = f"{named}{game.id} is in {listed} ([games.{game.id}] languages in printer.toml), or --lang all"
    message = f"--lang {asked}: {game.id} has no language {asked!r}"
    return UsageError(message, [Problem("command line: --lang", message, hint, code="usage")])


def lang_suffix(lang: str | None) -> str:
    """What a build in ``lang`` adds to the names of the files it writes: ``-ja`` (``""`` without ``--lang``)."""
    return f"-{lang}" if lang else ""


def translated_items(
    project: Project, game: Game, cards: CardSet, items: list[PrintItem], sources: list[Path], lang: str
) -> tuple[list[PrintItem], list[Problem], Locate | None]:
    """``items`` with their cards (fronts and backs) in ``lang``; returns ``(items, problems, locate)``.

    Only the cards the items print are translated, so a build of a few cards (``--only``, ``--deck``) warns about
    those alone: a card with no translation prints in the source language with a warning (``translation-missing``,
    and one count for the language), a stale translation prints with a warning; the translations of ``sources``
    (the folders the cards are read from) that cannot be read are errors. ``locate(card, field)`` says where a
    translated field was read (its overlay, ``file::$.cards[3].text (ja)``), for the warnings of the faces (text
    that does not fit, an unknown icon). In the source language: ``items`` unchanged, no problem, ``locate`` None.
    """
    from printer.api.translations import game_translations
    from printer.cards.model import CardSet
    from printer.cards.translations import translate

    declared = game_languages(project, game)
    if lang == declared[0]:
        return items, [], None
    found, problems = game_translations(project, game.id, {game.id: cards}, sources)
    book, fields = found.book, found.fields
    problems = [p for p in problems if _about(p, lang, declared)]
    printed: dict[str, Card] = {}
    for item in items:
        for card in (item.card, item.back_card):
            if card is not None:
                printed.setdefault(card.id, card)
    done, more = translate(CardSet(game.id, printed.values()), book, lang, fields)
    problems += more
    by_id = {card.id: card for card in done}

    def swap(item: PrintItem) -> PrintItem:
        if item.card is None and item.back_card is None:
            return item
        card = by_id.get(item.card.id, item.card) if item.card is not None else None
        back = by_id.get(item.back_card.id, item.back_card) if item.back_card is not None else None
        return replace(item, card=card, name=card.name if card is not None else item.name, back_card=back)

    def locate(card: Card, field: str) -> str | None:
        translation = book.get(game.id, lang, card.id)
        if translation is None:
            return None
        top = field.split(".", 1)[0].split("[", 1)[0]
        return translation.where(field) if top in translation.fields else None

    return [swap(item) for item in items], problems, locate


def cards_in(project: Project, game: Game, cards: CardSet, sources: list[Path], lang: str) -> CardSet:
    """``cards`` in ``lang`` (the translations of ``sources``), without their problems: for a job that compares
    faces (:func:`printer.api.versions.changes`), not one that reports on the translations."""
    from printer.api.translations import game_translations
    from printer.cards.translations import translate

    if lang == game_languages(project, game)[0]:
        return cards
    found = game_translations(project, game.id, {game.id: cards}, sources)[0]
    return translate(cards, found.book, lang, found.fields)[0]


def _about(problem: Problem, lang: str, declared: Sequence[str]) -> bool:
    """Whether a translation problem concerns a build in ``lang``: not one located in another language's
    translation (``... (fr)``)."""
    return problem.where.lang is None or problem.where.lang == lang or problem.where.lang not in declared


def editions_in(
    project: Project, game: Game, editions: list[Edition], langs: Sequence[str | None]
) -> tuple[list[Edition], str | None]:
    """The rules editions among ``editions`` written in one of ``langs`` (``rules.toml`` ``lang``; the main
    edition's default is the game's source language), and, when none is, the hint for the error."""
    from printer.book.source import RULES_FILE, read_settings

    source = game_languages(project, game)[0]
    kept = []
    for edition in editions:
        settings_file = edition.folder / RULES_FILE
        settings = read_settings(settings_file)[0] if settings_file.is_file() else {}
        written = settings.get("lang") or (source if not edition.name else "en")
        if written in langs:
            kept.append(edition)
    if kept:
        return kept, None
    wanted = "/".join(str(lang) for lang in langs)
    folder = editions[0].folder if editions else project.root / "rules" / game.id
    return [], f"write {folder}/{wanted}/*.md with lang = {wanted!r} in its rules.toml"
