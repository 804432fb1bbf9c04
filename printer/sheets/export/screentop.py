"""``--export screentop``: the images and card list a Screentop.gg deck is made from.

Writes ``<stem>-screentop/``:

- ``images/``: one PNG per distinct card face, fronts and backs (``<card id>-<digest>.png``,
  ``back-<name>-<digest>.png``), every card face the same pixel size (the trim box at ``--dpi``), and the
  components' faces;
- ``cards.csv``: one row per distinct card: ``deck`` (the back design), ``id``, ``name``, ``count`` (copies),
  ``front`` and ``back`` (image file names), ``text``, then every other field of the cards' data as a column of its
  own (UTF-8, a header row, comma-separated, quoted where needed);
- ``components.csv``: the same for the pieces of the game's components (``component``, ``kind``, ``shape``,
  ``width_mm``, ``height_mm``, ``name``, ``count``, ``front``, ``back``).

In Screentop.gg's editor, upload ``images/``, make a deck per ``deck`` value and import ``cards.csv`` as its data;
the ``front`` and ``back`` columns name each card's images.

Source: Screentop.gg publishes no import format that we could find (its editor and its help are its only
reference): the folder above holds what a deck there is made of (an image per face, one back per deck, the cards'
data as a spreadsheet with a row per card), in plain files. The column names are printer's own.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Sequence
from pathlib import Path

from printer.fsutil import atomic_write_text
from printer.problems import Problem
from printer.sheets.export import ExportRequest, ExportResult
from printer.sheets.export.tables import TableDeck, TablePieces, table_decks, table_pieces
from printer.sheets.faces.items import PrintItem
from printer.sheets.job import SheetJob

CARD_COLUMNS = ["deck", "id", "name", "count", "front", "back", "text"]
PIECE_COLUMNS = ["component", "kind", "shape", "width_mm", "height_mm", "name", "count", "front", "back"]


def _cell(value: object) -> str:
    """A field's value as a cell: a list of plain values joined with ``; ``, other lists and objects as JSON."""
    if isinstance(value, (list, tuple)) and all(isinstance(v, (str, int, float)) for v in value):
        return "; ".join(str(v) for v in value)
    if isinstance(value, (list, tuple, dict)):
        return json.dumps(value, ensure_ascii=False)
    return "" if value is None else str(value)


def cards_csv(decks: Sequence[TableDeck]) -> str:
    """``cards.csv``: the fixed columns, then every other top-level field of the cards' data in order of first use."""
    extra: dict[str, None] = {}
    for deck in decks:
        for card in deck.cards:
            if card.item.card is not None:
                extra.update(dict.fromkeys(k for k in card.item.card.data if k not in CARD_COLUMNS))
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CARD_COLUMNS + list(extra))
    for deck in decks:
        for card in deck.cards:
            data = card.item.card.data if card.item.card is not None else {}
            row = [deck.name, card.id, card.item.name, card.count, card.front, card.back, card.text]
            writer.writerow(row + [_cell(data.get(k)) for k in extra])
    return out.getvalue()


def pieces_csv(groups: Sequence[TablePieces]) -> str:
    """``components.csv``: one row per distinct piece of each component."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(PIECE_COLUMNS)
    for group in groups:
        c = group.component
        for piece in group.pieces:
            writer.writerow(
                [
                    c.name,
                    c.kind,
                    c.shape,
                    f"{c.size[0]:g}",
                    f"{c.size[1]:g}",
                    piece.item.name,
                    piece.count,
                    piece.front,
                    piece.back,
                ]
            )
    return out.getvalue()


def export_screentop(
    job: SheetJob, items: Sequence[PrintItem], request: ExportRequest
) -> tuple[Path, list[TableDeck], list[TablePieces], list[Problem]]:
    """Write the ``<stem>-screentop`` folder; returns ``(folder, decks, components, problems)``."""
    folder = Path(request.out_dir) / f"{request.stem}-screentop"
    decks, _ = table_decks(job, items, folder / "images", request.dpi)
    groups = table_pieces(request.components, request.component_job, folder / "images")
    atomic_write_text(folder / "cards.csv", cards_csv(decks))
    if groups:
        atomic_write_text(folder / "components.csv", pieces_csv(groups))
    return folder, decks, groups, []


def export(job: SheetJob, items: Sequence[PrintItem], request: ExportRequest) -> ExportResult:
    """The ``screentop`` entry of :data:`printer.sheets.export.EXPORTERS`."""
    folder, decks, groups, problems = export_screentop(job, items, request)
    cards = sum(d.size for d in decks)
    summary = f"{folder}/ (Screentop.gg: {cards} cards in {len(decks)} decks, images/ and cards.csv"
    summary += ", components.csv)" if groups else ")"
    return ExportResult([folder], summary, problems)
