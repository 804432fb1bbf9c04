"""``--export tabletopia``: one image per face for Tabletopia's game editor, backs apart, and a manifest.

Writes ``<stem>-tabletopia/``:

- ``fronts/``: one PNG per distinct card front, ``<card id>-<digest>.png``;
- ``backs/``: one PNG per distinct back (a shared back once: ``back-<name>-<digest>.png``);
- ``components/``: the fronts and backs of the game's tokens, tiles and boards;
- ``manifest.json``: per deck (back design) its back and its cards, each with its front, back and number of
  copies, and per component its pieces, with the pixel size of every image.

Every card face is the trim box at the build's ``--dpi`` (a poker card is 744 x 1039 px at 300 dpi), so all card
images are the same pixel size, fronts and backs alike; a component's images are the same size as each other.

Source: Tabletopia's help centre, "Preparing Graphics" (help.tabletopia.com/knowledge-base/how-to-prepare-graphics):
each component's image in its own file, front and back in different files (52 cards and one back: 53 files), the
two sides of a card the same size, and all components of a type exactly the same size in pixels, which stacks and
random elements need. Tabletopia publishes no import file: the designer uploads the images in its editor and
makes the decks there, so ``manifest.json`` is printer's own (what goes in which deck, how many copies).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from printer.fsutil import atomic_write_text
from printer.problems import Problem
from printer.sheets.export import ExportRequest, ExportResult
from printer.sheets.export.tables import TableCard, table_decks, table_pieces
from printer.sheets.faces.items import PrintItem
from printer.sheets.job import SheetJob

MANIFEST_FORMAT = "printer-tabletopia/1"


def _card(card: TableCard, front_dir: str, back_dir: str) -> dict[str, Any]:
    return {
        "id": card.id,
        "name": card.item.name,
        "front": f"{front_dir}/{card.front}",
        "back": f"{back_dir}/{card.back}",
        "count": card.count,
    }


def export_tabletopia(
    job: SheetJob, items: Sequence[PrintItem], request: ExportRequest
) -> tuple[Path, dict[str, Any], list[Problem]]:
    """Write the ``<stem>-tabletopia`` folder; returns ``(folder, manifest, problems)``."""
    folder = Path(request.out_dir) / f"{request.stem}-tabletopia"
    decks, px = table_decks(job, items, folder / "fronts", request.dpi, folder / "backs")
    pieces = table_pieces(request.components, request.component_job, folder / "components")
    manifest = {
        "format": MANIFEST_FORMAT,
        "game": request.title or request.stem,
        "card_px": list(px),
        "dpi": request.dpi,
        "decks": [
            {
                "name": deck.name,
                "back": f"backs/{deck.back}" if deck.back else None,
                "cards": [_card(c, "fronts", "backs") for c in deck.cards],
                "size": deck.size,
            }
            for deck in decks
        ],
        "components": [
            {
                "name": group.component.name,
                "kind": group.component.kind,
                "shape": group.component.shape,
                "px": list(group.px),
                "pieces": [_card(p, "components", "components") for p in group.pieces],
            }
            for group in pieces
        ],
    }
    atomic_write_text(folder / "manifest.json", json.dumps(manifest, indent=2, ensure_ascii=False) + "\n")
    return folder, manifest, []


def export(job: SheetJob, items: Sequence[PrintItem], request: ExportRequest) -> ExportResult:
    """The ``tabletopia`` entry of :data:`printer.sheets.export.EXPORTERS`."""
    folder, manifest, problems = export_tabletopia(job, items, request)
    cards = sum(d["size"] for d in manifest["decks"])
    w, h = manifest["card_px"]
    summary = (
        f"{folder}/ (Tabletopia: {cards} cards in {len(manifest['decks'])} decks, one {w}x{h} px image per face, "
        f"backs in backs/, manifest.json)"
    )
    return ExportResult([folder], summary, problems)
