"""``--export playingcards-io``: a playingcards.io room file, the zip of ``widgets.json`` and the images it names.

Writes ``<stem>-playingcards-io.pcio``, a zip archive holding:

- ``widgets.json``: the room's widgets, a JSON array. Per deck (back design) a ``cardPile`` (``label`` the deck's
  name, ``hasShuffleButton``), a ``cardDeck`` in it (``cardTypes``: one per distinct card, with its ``image`` and
  ``back``; ``faceTemplate`` and ``backTemplate``: one ``image`` object the size of the card whose value is the
  card type's ``image``, or ``back``; ``cardWidth`` x ``cardHeight`` px) and one ``card`` widget per printed card
  (copies included, in print order, face down in the pile: ``deck``, ``cardType``, ``parent``). Each component gets
  a pile and deck of its own the same way, and a board is a ``board`` widget (``boardImage``);
- ``userassets/``: the images, each face once (``<name>-<digest>.png``), named in ``widgets.json`` as
  ``package://userassets/<file>``.

Cards are 160 px high on the table, as playingcards.io's own cards (103 x 160 px), and as wide as their proportions
make them; the images themselves are the trim box at ``--dpi``. In playingcards.io, open a room, then Edit Table >
Import from file.

Source: playingcards.io publishes no specification of this file. The structure above is the one its room export
writes as read by Virtual Tabletop's importer of playingcards.io files (github.com/ArnoldSmith86/virtualtabletop,
``server/pcioimport.mjs``: the zip's ``widgets.json`` array, widget ``type``s ``cardPile``, ``cardDeck``, ``card``
and ``board``, ``cardTypes``, ``faceTemplate``/``backTemplate`` objects with a ``value``, ``cardWidth`` and
``cardHeight`` defaulting to 103 x 160, ``package://userassets/`` image names, ``parent`` and ``faceup``). Not
documented anywhere we found: how a template object takes a card type's property (printer writes
``dynamicProperties``, as rooms exported by playingcards.io do), and the limits of an import (a room holds about
1200 widgets, by its users' reports).
"""

from __future__ import annotations

import io
import json
import zipfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from printer.fsutil import atomic_write_bytes
from printer.problems import Problem
from printer.sheets.export import ExportRequest, ExportResult
from printer.sheets.export.tables import TableCard, table_decks, table_pieces
from printer.sheets.faces.items import PrintItem
from printer.sheets.job import SheetJob

CARD_HEIGHT_PX = 160  # playingcards.io's own cards are 103 x 160 px on the table
PILE_GAP = 40  # px between neighbouring piles
ASSETS = "userassets"


def _url(file: str) -> str:
    return f"package://{ASSETS}/{file}"


def _image(width: int, height: int, prop: str) -> dict[str, Any]:
    """A template object: an image the size of the card showing the card type's ``prop``."""
    return {
        "type": "image",
        "x": 0,
        "y": 0,
        "width": width,
        "height": height,
        "color": "#ffffff",
        "value": "",
        "dynamicProperties": {"value": prop},
    }


def deck_widgets(
    deck_id: str, label: str, cards: Sequence[TableCard], size: tuple[int, int], x: int, y: int
) -> list[dict[str, Any]]:
    """The ``cardPile``, ``cardDeck`` and ``card`` widgets of one deck of ``cards`` (each with its count) at (x, y)."""
    w, h = size
    pile = f"{deck_id}-pile"
    types = {f"{deck_id}-{n}": card for n, card in enumerate(cards, 1)}
    widgets: list[dict[str, Any]] = [
        {
            "id": pile,
            "type": "cardPile",
            "x": x,
            "y": y,
            "width": w + 8,
            "height": h + 8,
            "label": label,
            "hasShuffleButton": True,
        },
        {
            "id": deck_id,
            "type": "cardDeck",
            "parent": pile,
            "x": x,
            "y": y,
            "cardWidth": w,
            "cardHeight": h,
            "cardTypes": {
                key: {"image": _url(c.front), "back": _url(c.back), "name": c.item.name} for key, c in types.items()
            },
            "faceTemplate": {"objects": [_image(w, h, "image")]},
            "backTemplate": {"objects": [_image(w, h, "back")]},
        },
    ]
    n = 0
    for key, card in types.items():
        for _ in range(card.count):
            n += 1
            widgets.append(
                {
                    "id": f"{deck_id}-card-{n}",
                    "type": "card",
                    "deck": deck_id,
                    "cardType": key,
                    "parent": pile,
                    "x": x,
                    "y": y,
                    "z": n,
                }
            )
    return widgets


def export_playingcards_io(
    job: SheetJob, items: Sequence[PrintItem], request: ExportRequest, folder: Path
) -> tuple[Path, list[dict[str, Any]], list[Problem]]:
    """Write ``<stem>-playingcards-io.pcio`` (images rendered into ``folder`` first); returns ``(file, widgets, problems)``."""
    decks, px = table_decks(job, items, folder, request.dpi)
    size = (round(CARD_HEIGHT_PX * px[0] / px[1]), CARD_HEIGHT_PX)
    widgets: list[dict[str, Any]] = []
    x = 40
    for n, deck in enumerate(decks, 1):
        widgets += deck_widgets(f"deck{n}", deck.name, deck.cards, size, x, 40)
        x += size[0] + PILE_GAP
    x, y = 40, 40 + CARD_HEIGHT_PX + 2 * PILE_GAP
    for n, group in enumerate(table_pieces(request.components, request.component_job, folder), 1):
        gw, gh = group.px
        piece = (
            (round(CARD_HEIGHT_PX * gw / gh), CARD_HEIGHT_PX)
            if gh >= gw
            else (CARD_HEIGHT_PX, round(CARD_HEIGHT_PX * gh / gw))
        )
        if group.component.kind == "board":
            for m, board in enumerate(group.pieces, 1):
                bw, bh = 4 * piece[0], 4 * piece[1]
                widgets.append(
                    {
                        "id": f"board{n}-{m}",
                        "type": "board",
                        "x": x,
                        "y": y,
                        "width": bw,
                        "height": bh,
                        "boardImage": _url(board.front),
                    }
                )
                x += bw + PILE_GAP
            continue
        widgets += deck_widgets(f"component{n}", group.component.name, group.pieces, piece, x, y)
        x += piece[0] + PILE_GAP
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("widgets.json", json.dumps(widgets, indent=1, ensure_ascii=False))
        for image in sorted(folder.glob("*.png")):
            archive.write(image, f"{ASSETS}/{image.name}")
    target = Path(request.out_dir) / f"{request.stem}-playingcards-io.pcio"
    atomic_write_bytes(target, buffer.getvalue())
    return target, widgets, []


def export(job: SheetJob, items: Sequence[PrintItem], request: ExportRequest) -> ExportResult:
    """The ``playingcards-io`` entry of :data:`printer.sheets.export.EXPORTERS`."""
    import tempfile

    with tempfile.TemporaryDirectory(prefix="printer-pcio-") as tmp:
        target, widgets, problems = export_playingcards_io(job, items, request, Path(tmp))
    cards = sum(1 for w in widgets if w["type"] == "card")
    summary = f"{target} (playingcards.io room: {cards} cards and pieces; Edit Table > Import from file)"
    return ExportResult([target], summary, problems)
