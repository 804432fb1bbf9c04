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

from .align import align as align
from .box import build_box as build_box
from .build import (
    Progress as Progress,
)
from .build import (
    Tidy as Tidy,
)
from .build import _rehearse as _rehearse
from .build import (
    build as build,
)
from .build import (
    build_game as build_game,
)
from .build import (
    check_print as check_print,
)
from .clean import clean as clean
from .common import (
    WRITTEN_BUT as WRITTEN_BUT,
)
from .common import (
    Project as Project,
)
from .common import (
    find_root as find_root,
)
from .common import (
    load_cards as load_cards,
)
from .common import (
    load_project as load_project,
)
from .common import (
    usage_error as usage_error,
)
from .common import (
    user_word_environment as user_word_environment,
)
from .decks import (
    DeckReport as DeckReport,
)
from .decks import (
    available_formats as available_formats,
)
from .decks import (
    check_decks as check_decks,
)
from .decks import (
    decks_summary as decks_summary,
)
from .decks import (
    find_formats as find_formats,
)
from .decks import (
    format_name as format_name,
)
from .decks import (
    list_games as list_games,
)
from .decks import (
    project_formats as project_formats,
)
from .importers import GROUP as GROUP
from .importers import Importer as Importer
from .importers import ImportResult as ImportResult
from .importers import importers as importers
from .imports import export_cards as export_cards
from .imports import import_cards as import_cards
from .imports import write_card_files as write_card_files
from .init import InitResult as InitResult
from .init import init_project as init_project
from .names import (
    MAX_PLAYERS as MAX_PLAYERS,
)
from .names import (
    BuildPlan as BuildPlan,
)
from .names import (
    BuildRequest as BuildRequest,
)
from .names import (
    parse_bytes as parse_bytes,
)
from .names import (
    parse_length as parse_length,
)
from .plan import deck_items as deck_items
from .plan import make_plan as make_plan
from .preflight import preflight as preflight
from .problems import (
    ERROR as ERROR,
)
from .problems import (
    PrinterError as PrinterError,
)
from .problems import (
    Problem as Problem,
)
from .problems import (
    UsageError as UsageError,
)
from .problems import (
    counted as counted,
)
from .results import (
    AlignResult as AlignResult,
)
from .results import (
    BookBuild as BookBuild,
)
from .results import (
    BoxBuild as BoxBuild,
)
from .results import (
    BuildResult as BuildResult,
)
from .results import (
    CardsExport as CardsExport,
)
from .results import (
    CleanResult as CleanResult,
)
from .results import (
    DeckCheck as DeckCheck,
)
from .results import (
    GameBuild as GameBuild,
)
from .results import (
    GameListing as GameListing,
)
from .results import (
    ImportOutcome as ImportOutcome,
)
from .results import (
    PreflightReport as PreflightReport,
)
from .results import (
    PrintCheck as PrintCheck,
)
from .results import (
    ValidationReport as ValidationReport,
)
from .rules import build_rules as build_rules
from .runtime import Runtime as Runtime
from .translations import (
    GameTranslations as GameTranslations,
)
from .translations import (
    TranslationReport as TranslationReport,
)
from .translations import (
    game_translations as game_translations,
)
from .translations import (
    path_translations as path_translations,
)
from .translations import (
    translation_report as translation_report,
)
from .translations_io import (
    TranslationsExport as TranslationsExport,
)
from .translations_io import (
    TranslationsImport as TranslationsImport,
)
from .translations_io import (
    export_translations as export_translations,
)
from .translations_io import (
    import_summary as import_summary,
)
from .translations_io import (
    import_translations as import_translations,
)
from .validate import format_checks as format_checks
from .validate import game_checks as game_checks
from .validate import validate as validate
from .versions import ChangesReport as ChangesReport
from .versions import changes as changes
from .watch import watch as watch
from .watch import watched_inputs as watched_inputs
