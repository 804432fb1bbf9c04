"""The translation state of a project's games, as ``printer validate`` reports it, and one game's translations read
for a job that prints or shows them (:mod:`printer.cards.translations`, docs/translations.md).

A game that declares one language costs nothing here: its card folder is not read again.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence, Set
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from printer.problems import WARNING, Problem
from printer.project import Project

if TYPE_CHECKING:
    from printer.cards.model import CardSet
    from printer.cards.schema import SchemaStore
    from printer.cards.translations import LangState, TranslationBook


@dataclass
class GameTranslations:
    """One game's translations: its ``languages`` (the source first), translatable ``fields`` and every translation
    read (``book``)."""

    game: str
    languages: tuple[str, ...]
    fields: tuple[str, ...]
    book: TranslationBook


@dataclass
class TranslationReport:
    """The translation state of each game with more than one language (``states``: game id -> one
    :class:`~printer.cards.translations.LangState` a translated language, in the order printer.toml gives), and the
    problems: the translations' own (errors) and each missing or stale card (warnings)."""

    states: dict[str, list[LangState]] = field(default_factory=dict)
    problems: list[Problem] = field(default_factory=list)

    def summary_lines(self) -> list[str]:
        """``starfall ja: 60 translated, 3 missing, 2 stale``: one line a game and language."""
        return [f"{game} {state.summary()}" for game, states in sorted(self.states.items()) for state in states]


def translated_games(project: Project) -> list[str]:
    """The ids of the games that declare more than one language."""
    from printer.cards.translations import languages

    return [game for game in project.games if len(languages(project, game)) > 1]


def game_translations(
    project: Project,
    game_id: str,
    cards: Mapping[str, CardSet] | None = None,
    paths: Sequence[Path] | None = None,
    store: SchemaStore | None = None,
) -> tuple[GameTranslations, list[Problem]]:
    """Read ``game_id``'s translations from ``paths`` (default: its card folder), checked against the source
    ``cards`` (by game) when given (:func:`printer.cards.translations.load_translations`). Returns them and their
    problems; a game that declares languages but no translatable field gets a warning at printer.toml. Raises
    :class:`~printer.problems.UsageError` for an unknown game."""
    from printer.cards.catalog import schema_store
    from printer.cards.translations import languages, load_translations, translatable_fields

    game = project.game(game_id)
    store = store or schema_store(project)
    langs = languages(project, game_id)
    fields = translatable_fields(project, game_id, store.schema(game.schema), store)
    folders = list(paths) if paths is not None else ([game.cards] if game.cards.is_dir() else [])
    book, problems = load_translations(project, folders, cards=cards, store=store)
    if len(langs) > 1 and not fields:
        problems.append(
            Problem(
                str(project.root / "printer.toml"),
                f"game {game_id!r} declares languages {list(langs)} but no translatable field: nothing is translated",
                f'list them in [games.{game_id}] translatable = ["title", "text"], or mark them "x-translatable": '
                "true in the card schema",
                WARNING,
                code="translation-fields",
            )
        )
    return GameTranslations(game_id, langs, fields, book), problems


def translation_report(
    project: Project, sets: Mapping[str, CardSet], store: SchemaStore | None = None
) -> TranslationReport:
    """The translation state of every game of ``project`` that declares more than one language, against its valid
    cards ``sets`` (by game): per language, how many cards are translated and which are missing or stale, each
    located; and the problems of the translations themselves (an unknown id with the closest as hint, a field the
    source card does not have, an overlay its schema refuses...). Translations of a game that declares one language
    are not read."""
    from printer.cards.catalog import schema_store
    from printer.cards.model import CardSet as Cards
    from printer.cards.translations import load_translations, translation_state

    report = TranslationReport()
    games = translated_games(project)
    stray = _stray_overlays(project, games)
    if not games and not stray:
        return report
    store = store or schema_store(project)
    if stray:  # overlays of a game with one language: each says the language is not the game's
        report.problems += load_translations(project, stray, store=store)[1]
    for game_id in games:
        found, problems = game_translations(project, game_id, sets, store=store)
        report.problems += problems
        cards = sets.get(game_id) or Cards(game_id)
        states = report.states.setdefault(game_id, [])
        for lang in found.languages[1:]:
            state, warnings = translation_state(cards, found.book, lang, found.fields)
            states.append(state)
            report.problems += warnings
    return report


def _stray_overlays(project: Project, translated: list[str]) -> list[Path]:
    """The folders named like a language (``ja``) right under the card folder of a game that declares one language:
    translations there would not be used, so :func:`translation_report` reads them to say so."""
    from printer.cards.translations import LANG_TAG

    folders: list[Path] = []
    for game in project.games.values():
        if game.id in translated or not game.cards.is_dir():
            continue
        try:
            folders += sorted(d for d in game.cards.iterdir() if LANG_TAG.fullmatch(d.name) and d.is_dir())
        except OSError:
            continue
    return folders


def path_translations(project: Project, paths: Sequence[Path], card_files: Set[Path] = frozenset()) -> list[Problem]:
    """The problems of the translation overlays among ``paths`` (files or folders ``printer validate`` was given):
    their schema, game, language and translatable fields. Their ids are not checked against the cards, which are
    not all read then. ``card_files`` are JSON files the cards were read from: no overlay, so not read again."""
    from printer.cards.load import card_files as files_under

    candidates = [
        file
        for path in paths
        for file in (files_under([Path(path)]) if Path(path).is_dir() else [Path(path)])
        if file.suffix.lower() != ".json" or file not in card_files
    ]
    if not candidates:
        return []
    from printer.cards.translations import load_translations

    return load_translations(
        project, [Path(p) for p in paths if Path(p).suffix.lower() == ".json" or Path(p).is_dir()], skip=card_files
    )[1]
