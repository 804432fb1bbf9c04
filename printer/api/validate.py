"""``printer validate``: read and check the card files, and what a build of each game would check beyond them."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from printer.api.common import check_paths_exist, load_cards, usage_error
from printer.api.results import (
    ValidationReport,
)
from printer.api.translations import (
    path_translations,
    translation_report,
)
from printer.limits import over as limit_over
from printer.problems import Problem
from printer.project import Game, Project

if TYPE_CHECKING:
    from printer.cards.model import CardSet


def validate(
    project: Project,
    paths: Sequence[Path] = (),
    game: str | None = None,
    render: bool = True,
    jobs: int | None = None,
) -> ValidationReport:
    """Read and validate the card files under ``paths`` (default: every game's card folder).

    ``game`` is the game of cards whose file and folder do not say. With
    ``render`` every card's template is also rendered to HTML (no PDF), so
    that a template error, an unknown icon or missing art is reported here
    rather than at build time (:func:`printer.sheets.preflight.preflight`);
    ``jobs`` processes render them (default: one per core; a process that
    runs other threads renders alone), with the problems one process finds.
    Validating the whole project (no ``paths``) also reports the translation
    state of each game with more than one language (``translations``:
    :func:`printer.api.translations.translation_report`). A problem located by
    JSON path in a JSON file carries its line and column there too
    (:func:`printer.cards.positions.with_lines`).
    Raises :class:`UsageError` for an unknown ``game``, a path of ``paths`` that does not exist, or when there is
    nothing to validate.
    """
    if game is not None:
        project.game(game)  # raises a usage error naming the closest game
    check_paths_exist(paths, "PATHS")
    targets = list(paths) or [g.cards for g in project.games.values() if g.cards.is_dir()]
    if not targets:
        raise usage_error("no card files to validate", "pass PATHS or add cards under cards/<game>/")
    sets, problems = load_cards(project, targets, game)
    if render:
        from printer.sheets.forked import cores
        from printer.sheets.preflight import preflight

        problems += preflight(project, sets, targets, problems, cores() if jobs is None else jobs)
    translations = None
    if not paths:  # the whole project: what else a build of each game reads and checks, and its formats
        for each in project.games.values():
            problems += game_checks(project, each, sets.get(each.id), render)
        problems += format_checks(project)
        translations = translation_report(project, sets)
        problems += translations.problems
    else:  # the overlays among the paths: their own problems (not checked against every card, which are not read)
        files = {card.record.file for cards in sets.values() for card in cards}
        read = {file for file in files if file.suffix == ".json"}
        problems += path_translations(project, paths, read)
    # a problem at a JSON path in a JSON file gets its line and column there (file:10:7 ($.cards[2].cost)): only the
    # files with such problems are read again
    from printer.cards.positions import with_lines

    return ValidationReport(sets, with_lines(problems), translations)


def format_checks(project: Project) -> list[Problem]:
    """Every problem of the project's own format files (``schema/<game>/formats/*.json``), as ``printer deck check``
    reports them when it reads one: checked against ``schema/format.schema.json``, which accepts no unknown key
    (``copy_limt`` is an error at ``file::$.copy_limt``, the closest valid name as hint), and the checks named."""
    from printer.decks import FormatError, load_format_file
    from printer.decks.formats import format_files
    from printer.paths import bundled_root

    problems: list[Problem] = []
    for file, _, refused in format_files(project.root, [bundled_root()]):
        if refused is not None:  # a link out of the project: refused unread, as deck check refuses it
            problems.append(refused)
            continue
        try:
            load_format_file(file, [project.root])
        except FormatError as exc:
            problems += exc.problems
    return problems


def game_checks(project: Project, game: Game, cards: CardSet | None, aids: bool) -> list[Problem]:
    """What :func:`build` checks of ``game`` beyond its cards' data and faces, as it checks it (same places and
    severities): the sheet layout the settings give, the declared components, the card fields and values the
    settings name (:mod:`printer.sheets.card_names`), the cards-per-build limit and, with
    ``aids``, the player aids. ``cards`` are the game's valid cards (``None``: none). :func:`validate` and
    ``printer serve``'s problems panel report these too. Raises :class:`UsageError` where the build does (options
    printer.toml gives wrong).
    """
    from printer.sheets.components import read_components
    from printer.sheets.options import layout_report, resolve_options, sheet_layout

    where = str(project.root / "printer.toml")
    opts = resolve_options(project.settings, game.settings, game.card_size, {}, where, project.limits)
    if opts.sheet_layout is not None:
        project.contained(opts.sheet_layout, "sheet_layout", where)
    layout = sheet_layout(opts, project.root)
    problems = layout_report(opts, layout, where)[0]
    declared = game.settings.get("components")
    problems += read_components(declared, game.id, where, layout.page, opts.margin, project.limits.size_mm)[1]
    if cards is not None:
        from printer.sheets.card_names import card_name_problems

        problems += card_name_problems(game.settings, cards, project.root / "printer.toml", game.id)
    total = sum(card.copies for card in cards) if cards is not None else 0
    if total > project.limits.cards_per_build:
        problems.append(
            limit_over("cards_per_build", total, project.limits.cards_per_build, str(game.cards), "cards to print")
        )
    if aids and cards is not None:
        from printer.book import aid_items
        from printer.sheets.faces.items import allowed_roots

        problems += aid_items(project, game, allowed_roots(project, [game.cards.resolve()]))[1]
    return problems
