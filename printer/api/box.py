"""``printer box``: a tuck box for a game's cards or a decklist."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from printer.api.common import load_cards, usage_error
from printer.api.plan import (
    _deck_names_in_every_language,
    _players_items,
    _split_components,
    deck_items,
)
from printer.api.results import (
    BoxBuild,
)
from printer.limits import over as limit_over
from printer.paths import output_path, safe_file_name
from printer.problems import Problem, errors
from printer.project import Game, Project

if TYPE_CHECKING:
    from printer.cards.model import CardSet
    from printer.sheets.faces.items import PrintItem
    from printer.sheets.options import PrintOptions


def build_box(
    project: Project,
    game: str,
    deck_file: Path | None = None,
    thickness: float | None = None,
    card_thickness: float | None = None,
    paper: str | None = None,
    out_dir: Path | None = None,
    lang: str | None = None,
) -> BoxBuild:
    """Write ``<out_dir>/<game>-box.pdf``, a tuck box for the game's cards (or a decklist's), and return its measures.

    The deck's thickness is ``thickness`` (mm) when given, else the number
    of cards (what ``printer build`` prints on the card sheets: the game's cards with their copies, each player's
    copies and the player aids; or the decklist's) times
    ``card_thickness`` (default :data:`printer.box.net.CARD_THICKNESS`);
    the card size is the game's. ``paper`` is A4, Letter or ``WxHmm``
    (default: printer.toml's, else A4). See :mod:`printer.box.net` for the
    net and where each proportion comes from. ``lang``, a language the game
    declares, writes ``<game>-<lang>-box.pdf`` with its faces in that language
    (:mod:`printer.api.languages`). Raises :class:`UsageError` for an unknown
    game or language or a bad length; a deck too deep for the paper is an
    error in the result (nothing written).
    """
    from printer.box import BoxSpec, back_art, write_box
    from printer.box.net import CARD_THICKNESS, deck_depth
    from printer.sheets import job as sheet_job
    from printer.sheets.faces import items as print_items
    from printer.sheets.layout import PAPER_SIZES, parse_size
    from printer.sheets.options import resolve_options

    chosen = project.game(game)
    if lang is not None:
        from printer.api.languages import ALL, build_languages

        if lang == ALL:
            raise usage_error("--lang all: a box is printed in one language", "e.g. --lang ja", "command line: --lang")
        lang = build_languages(project, [chosen], lang)[chosen.id][0]  # a usage error for a language not declared
    suffix = f"-{lang}" if lang else ""
    opts = resolve_options(
        project.settings, chosen.settings, chosen.card_size, {}, str(project.root / "printer.toml"), project.limits
    )
    page = parse_size(paper or project.settings.get("paper", "A4"), PAPER_SIZES, "paper size", project.limits.size_mm)
    sets, problems = load_cards(project, [chosen.cards], chosen.id)
    cards = sets.get(chosen.id)
    if deck_file is not None:
        _deck_names_in_every_language(project, [chosen.cards], sets)
        items, found = deck_items(deck_file, cards, project.limits) if cards is not None else ([], [])
        problems += found
        name = safe_file_name(f"{chosen.id}-{print_items.slug(deck_file.stem)}{suffix}-box") + ".pdf"
    else:
        items, found = _whole_game(project, chosen, cards, lang, opts)
        problems += found
        name = f"{chosen.id}{suffix}-box.pdf"
    count = len(items)
    depth = thickness if thickness is not None else deck_depth(count, card_thickness or CARD_THICKNESS)
    result = BoxBuild(chosen.id, None, None if thickness is not None else count, depth, problems=problems)
    if errors(problems):
        return result
    if count > project.limits.cards_per_build:
        result.problems.append(
            limit_over("cards_per_build", count, project.limits.cards_per_build, str(chosen.cards), "cards in the box")
        )
        return result
    target = output_path(out_dir or project.build_dir, name)
    spec = BoxSpec(opts.card, depth)
    job = sheet_job.make_job(project, chosen, opts, [chosen.cards.resolve()], lang=lang)
    art = back_art(job, items)
    from printer.sheets.words import box_details

    details = box_details(lang, count if thickness is None else None, depth, opts.card)
    written = write_box(job, spec, page, target, chosen.name, details, art)
    result.problems += list(job.renderer.problems) + written.problems
    if written.net is None or errors(result.problems):
        return result
    net = written.net
    result.target, result.inside = target, spec.inside
    result.panel = (net.panel_width, net.panel_height, net.panel_depth)
    result.pieces, result.pages, result.page = len(net.pieces), len(written.sheets), written.page
    result.notes = list(net.notes)
    return result


def _whole_game(
    project: Project, game: Game, cards: CardSet | None, lang: str | None, opts: PrintOptions
) -> tuple[list[PrintItem], list[Problem]]:
    """What ``printer build`` prints of ``game`` on its card sheets, which its box holds: the cards with their copies,
    each player's copies and the player aids, not the tokens, tiles and boards (printer.toml components)."""
    from printer.sheets.faces import items as print_items
    from printer.sheets.plan import BuildRequest
    from printer.sheets.players import read_players

    items = print_items.items_for_cards(cards, cards) if cards is not None else []
    players, per, problems = read_players(project.settings, game.settings, game.id, str(project.root / "printer.toml"))
    items, more = _players_items(
        project, game, BuildRequest(games=[game.id], lang=lang), items, game.cards, players, per
    )
    _, items, found = _split_components(project, game, items, opts.paper, opts.margin, players)
    return items, problems + more + found
