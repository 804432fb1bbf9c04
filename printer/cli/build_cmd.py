"""``printer build``: print card sheets to PDF, and export PNG, Tabletop Simulator and print-shop files;
``printer align``: print the duplex alignment test page."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from printer.cards.catalog import load_cards
from printer.cli.output import EXIT_INVALID, EXIT_OK, project_from, report, usage_error
from printer.problems import WARNING, Problem, errors
from printer.sheets import compose as builder
from printer.sheets.layout import FLIPS, ORIENTATIONS
from printer.sheets.options import DUPLEX, MARKS, resolve_options, sheet_layout

EXPORTS = ("png", "tts", "print-shop")


def _print_options(f):
    """The sheet options shared by ``build`` and ``align`` (each also settable in printer.toml)."""
    options = [
        click.option(
            "--paper",
            default=None,
            metavar="SIZE",
            help="Sheet size: A4, Letter, A3, A5, Legal or WxH mm/in (default from printer.toml, else A4).",
        ),
        click.option(
            "--orientation",
            type=click.Choice(ORIENTATIONS),
            default=None,
            help="Sheet orientation (default auto: whichever holds more cards).",
        ),
        click.option(
            "--margin", default=None, metavar="MM", help="Least space between sheet edge and cards (default 5)."
        ),
        click.option(
            "--gutter", default=None, metavar="MM", help="Space between cards; 0 = shared cut lines (default 0)."
        ),
        click.option("--bleed", default=None, metavar="MM", help="Art and background past the trim (default 3)."),
        click.option(
            "--safe", default=None, metavar="MM", help="Safe area: text stays this far inside the trim (default 3)."
        ),
        click.option(
            "--marks",
            type=click.Choice(MARKS),
            default=None,
            help="Per-card crop marks, full-length cut lines, or none (default crop).",
        ),
        click.option("--mark-length", default=None, metavar="MM", help="Crop mark length (default 5)."),
        click.option(
            "--mark-offset",
            default=None,
            metavar="MM",
            help="Gap between trim corner and crop mark (default: the bleed, at least 1).",
        ),
        click.option(
            "--duplex",
            type=click.Choice(DUPLEX),
            default=None,
            help="Backs for long-edge or short-edge flip, fold-over (no duplex printer), or none (default long-edge).",
        ),
        click.option("--flip", type=click.Choice(FLIPS), default=None, help="Same as --duplex long-edge|short-edge."),
        click.option(
            "--back-offset",
            default=None,
            metavar="X,Y",
            help="Move every back by X,Y mm: the reading of the alignment page.",
        ),
        click.option(
            "--sheet-layout",
            "sheet_layout",
            default=None,
            metavar="FILE",
            help="A sheet layout file (TOML) with explicit card slots.",
        ),
    ]
    for option in reversed(options):
        f = option(f)
    return f


def _cli_values(params: dict) -> dict:
    values = {
        k: params.get(k)
        for k in (
            "paper",
            "orientation",
            "margin",
            "gutter",
            "bleed",
            "safe",
            "marks",
            "mark_length",
            "mark_offset",
            "duplex",
            "back_offset",
            "sheet_layout",
            "sort",
        )
    }
    if params.get("flip") and not params.get("duplex"):
        values["duplex"] = params["flip"]
    return values


@click.command()
@click.argument("games", nargs=-1)
@click.option(
    "--cards",
    "cards_dir",
    type=click.Path(exists=True, path_type=Path),
    metavar="DIR",
    help="Print the cards in DIR instead of the game's card folder (e.g. an import).",
)
@click.option("--only", multiple=True, metavar="ID|TITLE", help="Print only these cards (repeatable).")
@click.option(
    "--deck",
    "deck_file",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    metavar="FILE",
    help="Print the cards of a decklist, each as many times as listed (proxies).",
)
@click.option(
    "--out",
    "out_dir",
    type=click.Path(file_okay=False, path_type=Path),
    metavar="DIR",
    help="Output folder (default: the project's build/).",
)
@_print_options
@click.option(
    "--sort",
    default=None,
    metavar="FIELDS",
    help="Order of the fronts: 'listed' (default) or card fields, e.g. set,type,title.",
)
@click.option(
    "--export",
    "exports",
    multiple=True,
    type=click.Choice(EXPORTS),
    help="Also export: png (one PNG per card), tts (Tabletop Simulator sheets), print-shop (one card per page). Repeatable.",
)
@click.option("--dpi", default=300, show_default=True, type=click.IntRange(36, 1200), help="Resolution of PNG exports.")
@click.option("--png-bleed", is_flag=True, help="PNG export: include the bleed (default: cut at the trim).")
@click.option(
    "--icc",
    "icc",
    default=None,
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    metavar="PROFILE.icc",
    help="Write PDF/X-4 (CMYK) with this CMYK output profile; art is converted through it.",
)
@click.option(
    "--strict", is_flag=True, help="Treat warnings (missing cards, missing art, text that does not fit) as errors."
)
@click.option(
    "--no-aids", is_flag=True, help="Leave out the player aids (rules/<game>/aids/*.md) printed after the cards."
)
@click.pass_context
def build(
    ctx, games, cards_dir, only, deck_file, out_dir, exports, dpi, png_bleed, icc, strict, no_aids, **params
) -> None:
    """Print card sheets (fronts, then backs for duplex) to PDF.

    With no GAMES, prints every game of the project. Each game gives
    build/<game>.pdf (with --deck, build/<game>-<deck>.pdf). Every sheet
    option can also be set in printer.toml ([project] or [games.<id>]).
    """
    from printer.sheets.export import export_png, export_print_shop, export_tts
    from printer.sheets.export.pdfx import check_profile

    project = project_from(ctx)
    chosen = [project.game(g) for g in games] if games else list(project.games.values())
    if not chosen:
        raise usage_error("the project has no games", "add a [games.<id>] table to printer.toml")
    if (cards_dir or deck_file or only) and len(chosen) != 1:
        raise usage_error("--cards, --deck and --only need exactly one game", "e.g. printer build l5r --deck FILE")
    out_dir = out_dir or project.build_dir
    if icc:
        check_profile(icc)
    failed = False
    for game in chosen:
        opts = resolve_options(
            project.settings, game.settings, game.card_size, _cli_values(params), str(project.root / "printer.toml")
        )
        layout = sheet_layout(opts, project.root)
        source = cards_dir or game.cards
        sets, problems = load_cards(project, [source], game.id)
        # Missing or unreadable art prints a labelled placeholder: a warning here, an error with --strict.
        problems = [p.with_severity(WARNING) if p.code in ("missing-art", "bad-art") else p for p in problems]
        if errors(problems):
            report(problems, strict)
            click.echo(f"{game.id}: not printed: fix the card files first", err=True)
            failed = True
            continue
        cards = sets.get(game.id)
        if cards is None or not len(cards):
            report(problems + [Problem(str(source), "no cards to print", code="empty")], strict)
            failed = True
            continue
        if deck_file:
            items, found = _deck_items(deck_file, cards)
            items = builder.sort_items(items, opts.sort)
            target = out_dir / f"{game.id}-{builder.slug(deck_file.stem)}.pdf"
        else:
            selected, found = builder.select(cards, only)
            items = builder.sort_items(builder.items_for_cards(selected, cards), opts.sort)
            if not only and not no_aids:  # player aids print with the whole game (printer.book.aids)
                from printer.book import aid_items

                aids, aid_problems = aid_items(project, game, builder.allowed_roots(project, [source.resolve()]))
                items, problems = items + aids, problems + aid_problems
            target = out_dir / f"{game.id}.pdf"
        problems += found
        if errors(problems) or (strict and problems):
            report(problems, strict)
            click.echo(f"{game.id}: not printed", err=True)
            failed = True
            continue
        n_sheets = -(-len(items) // layout.per_sheet)
        extra = [source.resolve()] + ([deck_file.resolve().parent] if deck_file else [])
        job = builder.make_job(project, game, opts, extra, cmyk_profile=icc)
        with click.progressbar(
            length=n_sheets,
            label=f"{game.id}: {len(items)} card{'s' * (len(items) != 1)}",
            file=sys.stderr,
            show_pos=True,
        ) as bar:
            found = builder.build_sheets(job, items, layout, target, game.name, bar.update, strict)
        written = []
        if not (strict and found):
            stem = target.stem
            for kind in dict.fromkeys(exports):
                if kind == "png":
                    folder, more = export_png(job, items, out_dir / f"{stem}-png", dpi, png_bleed)
                    written.append(f"{folder}/ ({len(list(folder.glob('*.png')))} PNG at {dpi} dpi)")
                elif kind == "tts":
                    files, more = export_tts(job, items, out_dir / f"{stem}-tts")
                    written.append(f"{out_dir / f'{stem}-tts'}/ ({len(files)} Tabletop Simulator images)")
                else:
                    pdf, more = export_print_shop(job, items, out_dir / f"{stem}-print-shop", strict=strict)
                    written.append(f"{pdf} and {pdf.with_suffix('')}/ (print shop)")
                found += more
        problems += _unique(found, problems)
        n_errors, _ = report(problems, strict)
        if n_errors:
            if strict:
                click.echo(f"{game.id}: not printed (--strict)", err=True)
            failed = True
            continue
        click.echo(
            f"{target}: {len(items)} card{'s' * (len(items) != 1)} on {n_sheets} sheet{'s' * (n_sheets != 1)} "
            f"({_grid(layout)} per sheet, {opts.describe_backs()})"
        )
        for line in written:
            click.echo(line)
    ctx.exit(EXIT_INVALID if failed else EXIT_OK)


def _grid(layout) -> str:
    return f"{layout.per_sheet} slots" if layout.explicit is not None else f"{layout.cols}x{layout.rows}"


def _unique(found: list[Problem], already: list[Problem]) -> list[Problem]:
    """``found`` without repeats, and without problems already reported at the same place for the same reason."""
    seen = {(p.where, p.code) for p in already}
    out = []
    for p in found:
        if (p.where, p.code) not in seen:
            seen.add((p.where, p.code))
            out.append(p)
    return out


@click.command()
@click.option(
    "--out",
    "out_file",
    type=click.Path(path_type=Path),
    metavar="DIR",
    help="Output folder, as for build (default: the project's build/); the page is alignment-<paper>-<duplex>.pdf. "
    "A path ending in .pdf is taken as the file itself.",
)
@click.option(
    "--card-size",
    default=None,
    metavar="SIZE",
    help="Card size outlined on the page (default: the first game's, else poker).",
)
@_print_options
@click.pass_context
def align(ctx, out_file, card_size, **params) -> None:
    """Print the duplex alignment test page: crosses on the front, scales on the back.

    Print it duplex as you print cards, hold the sheet up to a light (or
    push a pin through each cross) and read on the back's scales where the
    front's crosses fall; pass that reading as --back-offset X,Y. Printed
    with a --back-offset, the scales show what is left to correct.
    """
    from printer.sheets.align import write_alignment_page

    project = project_from(ctx)
    game = next(iter(project.games.values()), None)
    size = card_size or (game.card_size if game else "poker")
    opts = resolve_options(
        project.settings, game.settings if game else {}, size, _cli_values(params), str(project.root / "printer.toml")
    )
    if opts.duplex == "none":
        raise usage_error("--duplex none prints no backs to align", "use long-edge, short-edge or fold")
    name = f"alignment-{builder.slug(_paper_name(params.get('paper') or project.settings.get('paper', 'A4')))}-{opts.duplex}.pdf"
    if out_file is not None and out_file.suffix.lower() == ".pdf" and not out_file.is_dir():
        target = out_file  # --out FILE.pdf, as earlier versions took it
    else:
        target = (out_file or project.build_dir) / name
    problems = write_alignment_page(project, game, opts, target)
    report(problems)
    click.echo(
        f"{target}: alignment test page ({opts.describe_backs()}, back offset "
        f"{opts.back_offset[0]:g},{opts.back_offset[1]:g} mm)"
    )
    ctx.exit(EXIT_OK)


def _paper_name(text: str) -> str:
    return str(text)


def _deck_items(deck_file: Path, cards):
    from printer.decks import read_decklist, resolve

    deck, problems = read_decklist(deck_file)
    resolution = resolve(deck, cards)
    # Names matched only loosely ("'Fall Back' read as 'Fall Back!'") are warnings, as printer deck says.
    problems = list(problems) + list(resolution.problems) + list(resolution.notes)
    entries = [(r.entry.count, r.card, r.entry.name) for r in resolution.entries]
    items = builder.items_for_counts(
        entries, cards
    )  # a double-faced card prints its other side (back_card) on its back
    # A card missing from the database prints as a placeholder: a warning here, an error with --strict.
    problems = [p.with_severity(WARNING) if p.code in ("unknown-card", "ambiguous-card") else p for p in problems]
    return items, problems


COMMANDS = [build, align]
