"""The duplex alignment test page: a front with crosses, a back with scales behind them.

The user prints it with the duplex settings they print cards with, holds
the sheet up to a light (or pushes a pin through each cross) and reads, on
the back's scales, where each front cross falls. The reading (X to the
right, Y down, as the back page is seen) is the ``--back-offset X,Y`` that
moves the backs onto their fronts: a back printed ``e`` mm off shows the
front cross at ``-e`` on its scale, and moving the backs by ``-e`` cancels
it. Five crosses (centre and corners) show whether the error is a shift
(all read the same), a turn or a scale (they differ); only a shift can be
corrected. Printed with a ``--back-offset``, the scales read what is left.
"""

from __future__ import annotations

from pathlib import Path

from printer.problems import Problem
from printer.project import Game, Project, bundled_root
from printer.sheets.layout import SheetLayout, Slot, fit_grid, fold_layout
from printer.sheets.options import PrintOptions
from printer.sheets.pdf import render_documents, write_documents
from printer.sheets.render import Renderer

INSET = 25.0  # mm from the sheet (or half-sheet) edges to the corner crosses


def alignment_points(opts: PrintOptions) -> tuple[SheetLayout, list[tuple[float, float]], list[tuple[float, float]]]:
    """The sheet layout used, the front crosses' centres and where each lies on the back page (mm).

    The back positions are mirrored as :meth:`SheetLayout.back_slot` mirrors
    cards, then moved by ``opts.back_offset`` (not for fold-over).
    """
    if opts.duplex == "fold":
        layout = fold_layout(opts.paper, opts.card, opts.gutter, opts.margin, opts.bleed, opts.orientation)
        x0, y0, x1, y1 = layout.area or (0.0, 0.0, *layout.page)  # a fold layout always has its area
    else:
        layout = fit_grid(opts.paper, opts.card, opts.gutter, opts.margin, opts.bleed, opts.orientation)
        x0, y0, x1, y1 = 0.0, 0.0, *layout.page
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    inset_x, inset_y = min(INSET, (x1 - x0) / 4), min(INSET, (y1 - y0) / 4)
    targets = [
        (cx, cy),
        (x0 + inset_x, y0 + inset_y),
        (x1 - inset_x, y0 + inset_y),
        (x0 + inset_x, y1 - inset_y),
        (x1 - inset_x, y1 - inset_y),
    ]
    dx, dy = (0.0, 0.0) if opts.duplex == "fold" else opts.back_offset
    backs = []
    for x, y in targets:
        # a point is a zero-size card: mirror it the way a card's footprint is mirrored
        point = SheetLayout(layout.page, (0.0, 0.0), 1, 1, fold=layout.fold)
        mirrored, _ = point.back_slot(Slot(x, y), opts.flip)
        backs.append((mirrored.x + dx, mirrored.y + dy))
    return layout, targets, backs


def write_alignment_page(project: Project, game: Game | None, opts: PrintOptions, target: Path) -> list[Problem]:
    """Write the alignment test page PDF to ``target``; returns WeasyPrint's warnings."""
    layout, targets, backs = alignment_points(opts)
    roots = [project.root, bundled_root() / "templates"]
    game = game or Game("printer", "printer", project.root, project.root, [bundled_root() / "templates"])
    renderer = Renderer(game, roots)
    html = renderer.alignment_document(
        layout.page, opts.duplex, opts.back_offset, targets, backs, opts.card, layout.fold
    )
    documents, problems = render_documents([html], roots, project.root, str(target))
    return problems + write_documents(documents, target, str(target))
