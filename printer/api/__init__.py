"""The library API: one plain function per job, each returning a result with its problems as data.

The ``printer`` command is a thin layer over these functions (parse the
options, call one function, print the result, map it to an exit code), and
so is anything else that drives printer: a test, a preview server, a
script::

    from printer import api

    project = api.load_project("my-game")
    report = api.validate(project)
    if report.ok:
        result = api.build(project, api.BuildRequest(games=("starfall",)))
        for game in result.games:
            print(game.target, game.cards, "cards on", game.sheets, "sheets")
    decks = api.check_decks(project, [Path("storm.txt")], "starfall-standard")

Problems are :class:`~printer.problems.Problem` records with a
:class:`~printer.problems.Severity`; nothing here prints or exits. Usage
mistakes (an unknown game, a missing folder) raise
:class:`~printer.problems.UsageError`, which carries its problems too.

Each job lives in its own module (:mod:`printer.api.build`, :mod:`~printer.api.watch`,
:mod:`~printer.api.validate`, :mod:`~printer.api.decks`, :mod:`~printer.api.rules`,
:mod:`~printer.api.box`, :mod:`~printer.api.imports`, :mod:`~printer.api.clean`...), the results they
return in :mod:`printer.api.results`; this module names them all.
"""

from __future__ import annotations

from printer.api.align import align
from printer.api.box import build_box
from printer.api.build import (
    Progress,
    Tidy,
    build,
    build_game,
    check_print,
)
from printer.api.build import _rehearse as _rehearse  # tests rehearse a build as a watch does
from printer.api.clean import clean
from printer.api.common import WRITTEN_BUT, load_cards, load_project, usage_error, user_word_environment
from printer.api.decks import (
    available_formats,
    check_decks,
    decks_summary,
    find_formats,
    format_name,
    list_games,
    project_formats,
)
from printer.api.imports import export_cards, import_cards, write_card_files
from printer.api.plan import deck_items, make_plan
from printer.api.preflight import preflight
from printer.api.results import (
    AlignResult,
    BookBuild,
    BoxBuild,
    BuildResult,
    CardsExport,
    CleanResult,
    DeckCheck,
    GameBuild,
    GameListing,
    ImportOutcome,
    PreflightReport,
    PrintCheck,
    ValidationReport,
)
from printer.api.rules import build_rules
from printer.api.translations import (
    GameTranslations,
    TranslationReport,
    game_translations,
    path_translations,
    translation_report,
)
from printer.api.translations_io import (
    TranslationsExport,
    TranslationsImport,
    export_translations,
    import_summary,
    import_translations,
)
from printer.api.validate import format_checks, game_checks, validate
from printer.api.versions import ChangesReport, changes
from printer.api.watch import watch, watched_inputs
from printer.problems import UsageError
from printer.sheets.plan import BuildPlan, BuildRequest, parse_bytes
from printer.sheets.players import MAX_PLAYERS

__all__ = [
    "watch",
    "AlignResult",
    "CleanResult",
    "clean",
    "BookBuild",
    "BoxBuild",
    "BuildRequest",
    "BuildPlan",
    "make_plan",
    "BuildResult",
    "DeckCheck",
    "GameBuild",
    "ImportOutcome",
    "ValidationReport",
    "align",
    "build",
    "build_box",
    "build_rules",
    "import_cards",
    "export_cards",
    "CardsExport",
    "build_game",
    "check_decks",
    "check_print",
    "PrintCheck",
    "decks_summary",
    "available_formats",
    "find_formats",
    "format_name",
    "project_formats",
    "GameListing",
    "list_games",
    "load_project",
    "MAX_PLAYERS",
    "usage_error",
    "validate",
    "game_checks",
    "format_checks",
    "GameTranslations",
    "TranslationReport",
    "game_translations",
    "path_translations",
    "translation_report",
    "TranslationsExport",
    "TranslationsImport",
    "export_translations",
    "import_summary",
    "import_translations",
    "ChangesReport",
    "changes",
    "WRITTEN_BUT",
    "PreflightReport",
    "Progress",
    "Tidy",
    "UsageError",
    "deck_items",
    "load_cards",
    "parse_bytes",
    "preflight",
    "user_word_environment",
    "watched_inputs",
    "write_card_files",
]
