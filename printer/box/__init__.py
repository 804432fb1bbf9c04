"""Tuck boxes: a printable, foldable box for a game's deck (``printer box GAME``).

:mod:`printer.box.net` computes the net in mm from the card size and the
deck's thickness; :func:`write_box` places it on A4 or Letter (split in two
pieces when it does not fit), draws the game's card back on the front and
back panels and its name on the front, back and sides (``box.html.j2``,
rendered by WeasyPrint like the card sheets) and writes the PDF.
"""

from __future__ import annotations

import base64
import io
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from printer.box.net import BoxSpec, Net, box_net, fits
from printer.problems import ERROR, Problem
from printer.sheets.faces.items import PrintItem
from printer.sheets.job import SheetJob

__all__ = ["BoxResult", "BoxSpec", "Net", "box_net", "place", "write_box"]

#: resolution of the card back drawn on the box (px per inch)
ART_DPI = 200
#: space between two pieces on one page (mm)
PIECE_GAP = 6.0


@dataclass
class BoxPage:
    """One page of the box PDF: the pieces on it, each ``(index, x, y)`` (its offset on the page, mm)."""

    pieces: list[tuple[int, float, float]] = field(default_factory=list)
    landscape: bool = False


@dataclass
class BoxResult:
    """The net, how it sits on the pages (``sheets``, ``page`` in mm) and the problems found."""

    net: Net | None
    page: tuple[float, float] = (210.0, 297.0)
    sheets: list[BoxPage] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)


def place(spec: BoxSpec, paper: tuple[float, float]) -> tuple[Net | None, tuple[float, float], list[BoxPage]]:
    """The net for ``spec`` on ``paper`` (portrait mm): one piece on one page, else two pieces, one or two pages.

    Returns ``(net, page size as used (portrait or landscape), sheets)``, or ``(None, paper, [])`` when even
    the two pieces do not fit the paper.
    """
    net = box_net(spec)
    piece = net.pieces[0]
    way = fits(piece.size, paper)
    if way is not None:
        page = _turned(paper, way)
        return (
            net,
            page,
            [BoxPage([(0, (page[0] - piece.size[0]) / 2, (page[1] - piece.size[1]) / 2)], way == "landscape")],
        )
    net = box_net(spec, split=True)
    sizes = [p.size for p in net.pieces]
    stacked = (max(s[0] for s in sizes), sum(s[1] for s in sizes) + PIECE_GAP)
    way = fits(stacked, paper)
    if way is not None:
        page = _turned(paper, way)
        y = (page[1] - stacked[1]) / 2
        sheet = BoxPage([], way == "landscape")
        for i, size in enumerate(sizes):
            sheet.pieces.append((i, (page[0] - size[0]) / 2, y))
            y += size[1] + PIECE_GAP
        return net, page, [sheet]
    ways = [w for w in (fits(s, paper) for s in sizes) if w is not None]
    if len(ways) < len(sizes):  # a piece fits the paper neither way
        return None, paper, []
    if len(set(ways)) == 1:
        page = _turned(paper, ways[0])
        return (
            net,
            page,
            [
                BoxPage([(i, (page[0] - s[0]) / 2, (page[1] - s[1]) / 2)], ways[0] == "landscape")
                for i, s in enumerate(sizes)
            ],
        )
    return None, paper, []


def _turned(paper: tuple[float, float], way: str) -> tuple[float, float]:
    w, h = min(paper), max(paper)
    return (w, h) if way == "portrait" else (h, w)


def back_art(job: SheetJob, items: Sequence[PrintItem]) -> str | None:
    """The card back most of ``items`` print with, as a JPEG ``data:`` URL at :data:`ART_DPI`, or ``None``."""
    from printer.sheets.export.faces import face_images, page_layout, px_of

    if not items:
        return None
    counts = Counter(job.faces.back_ident(item) for item in items)
    ident = counts.most_common(1)[0][0]
    item = next(i for i in items if job.faces.back_ident(i) == ident)
    key = job.faces.back_key(item)
    layout = page_layout(job, with_bleed=False)
    for _, image in face_images(job, [key], layout, px_of(job.opts.card, ART_DPI)):
        buffer = io.BytesIO()
        image.convert("RGB").save(buffer, "JPEG", quality=90, dpi=(ART_DPI, ART_DPI))
        return "data:image/jpeg;base64," + base64.b64encode(buffer.getvalue()).decode("ascii")
    return None


def write_box(
    job: SheetJob,
    spec: BoxSpec,
    paper: tuple[float, float],
    target: Path,
    title: str,
    details: str,
    art: str | None,
) -> BoxResult:
    """Write the box for ``spec`` on ``paper`` to ``target`` (PDF); ``art`` a data: URL of the card back or ``None``.

    Returns the result with an error (nothing written) when the net does not
    fit the paper even in two pieces.
    """
    from printer.sheets.pdf import render_documents, write_documents

    net, page, sheets = place(spec, paper)
    if net is None:
        w, h, d = spec.inside
        problem = Problem(
            str(target),
            f"a box for {w:g} x {h:g} mm cards {d:.1f} mm deep does not fit a "
            f"{min(paper):g} x {max(paper):g} mm page even in two pieces",
            "pass a larger --paper (A3), or split the deck (--deck, --thickness)",
            ERROR,
            "box-too-large",
        )
        return BoxResult(None, paper, [], [problem])
    pages = [
        {
            "pieces": [
                {
                    "x": x,
                    "y": y,
                    "outline": net.pieces[i].outline,
                    "folds": [vars(f) for f in net.pieces[i].folds],
                    "panels": [vars(p) for p in net.pieces[i].panels],
                }
                for i, x, y in sheet.pieces
            ]
        }
        for sheet in sheets
    ]
    renderer = job.renderer
    html = renderer.box_document(pages, page, art, title, details, net.notch)
    documents, problems = render_documents([html], renderer.allowed_roots, job.engine.base, str(target))
    problems += write_documents(documents, target, str(target))
    return BoxResult(net, page, sheets, problems)
