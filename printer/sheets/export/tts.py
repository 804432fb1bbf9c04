"""``--export tts``: Tabletop Simulator deck sheets.

Tabletop Simulator's Custom Deck takes a *face* image holding a grid of up
to 10 x 7 cards, whose last slot (bottom-right) is the *hidden card* shown
for cards in another player's hand, and a *back* image. printer makes one
deck per back design (two decks for a game with two backs), with as many
face images as it needs (69 cards each, ``<deck>-<n>-<digest>.png``), every copy in its own slot, plus:

- ``<deck>-back-<digest>.png``, the back (for double-faced cards, a back *sheet*
  whose slots match the face sheet's: tick "Unique backs" in TTS);
- ``tts.json``, a manifest: per face image its grid (``width`` x
  ``height``, as TTS's dialog asks), number of cards and back image.

Images are RGB PNG of at most :data:`MAX_SIZE` px a side: each card is at
most ``MAX_SIZE // 10`` = 409 px wide and ``MAX_SIZE // 7`` = 585 px high
whatever the grid, in the card's proportions (409 x 571 px for a
63 x 88 mm card, 341 x 585 px for a 70 x 120 mm tarot card). Grids are at
least 2 x 2. The saved object (``--export tts-save``,
:mod:`.tts_save`) is built on the same sheets (:func:`plan_sheets`).

Source of the limits: Tabletop Simulator's knowledge base, "Custom Deck"
(at most 10 x 7 cards a sheet, the last one the hidden card unless "Back is
hidden"; images up to 4096 x 4096 px).
"""

from __future__ import annotations

import io
import json
import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from PIL import Image

from printer.fsutil import atomic_write_bytes, atomic_write_text
from printer.problems import Problem
from printer.sheets.export.faces import _slug, face_images, page_layout
from printer.sheets.faces.items import PrintItem
from printer.sheets.job import SheetJob

MAX_COLS, MAX_ROWS, MAX_SIZE = 10, 7, 4096
PER_SHEET = MAX_COLS * MAX_ROWS - 1


def card_px(card_mm: tuple[float, float]) -> tuple[int, int]:
    """The pixel size of one card on a TTS sheet: as large as 10 x 7 of them allow within 4096 px, in proportion."""
    w, h = card_mm
    width = min(MAX_SIZE // MAX_COLS, math.floor(MAX_SIZE // MAX_ROWS * w / h))
    return (width, min(MAX_SIZE // MAX_ROWS, round(width * h / w)))


def grid_for(n_cards: int) -> tuple[int, int]:
    """Columns and rows for ``n_cards`` plus the hidden card (at least 2 x 2, at most 10 x 7)."""
    slots = n_cards + 1
    rows = min(MAX_ROWS, max(2, math.ceil(slots / MAX_COLS)))
    cols = min(MAX_COLS, max(2, math.ceil(slots / rows)))
    return cols, rows


@dataclass
class TTSSheet:
    """One face image: its ``group`` (back design), ``number`` in the group, ``items`` slot by slot, grid, file names.

    ``back`` is the back image: one back for all (``unique_back`` false) or
    a back sheet of the same grid, slot for slot.
    """

    group: str
    number: int
    items: list[PrintItem]
    cols: int
    rows: int
    face: str
    back: str
    unique_back: bool
    card_px: tuple[int, int] = (0, 0)
    extra: dict[str, Any] = field(default_factory=dict[str, Any])


def back_group(job: SheetJob, item: PrintItem) -> tuple[str, bool]:
    """The deck an item goes in (its back design, or ``double-faced``) and whether its back is its own."""
    kind, *rest = job.faces.back_ident(item)
    if kind in ("card", "html"):
        return "double-faced", True
    return _slug(str(rest[0])), False


def plan_sheets(job: SheetJob, items: Sequence[PrintItem]) -> list[TTSSheet]:
    """The face images for ``items``: grouped by back design in order of first use, 69 cards a sheet, in order."""
    px = card_px(job.opts.card)
    groups: dict[str, list[PrintItem]] = {}
    unique: dict[str, bool] = {}
    for item in items:
        group, own = back_group(job, item)
        groups.setdefault(group, []).append(item)
        unique[group] = own
    plan = []
    for group, members in groups.items():
        for n, start in enumerate(range(0, len(members), PER_SHEET), 1):
            part = members[start : start + PER_SHEET]
            cols, rows = grid_for(len(part))
            back = f"{group}-{n}-back.png" if unique[group] else f"{group}-back.png"
            plan.append(TTSSheet(group, n, part, cols, rows, f"{group}-{n}.png", back, unique[group], px))
    return plan


def write_sheets(job: SheetJob, plan: Sequence[TTSSheet], folder: Path) -> list[Path]:
    """Render and write every face image and back image of ``plan`` into ``folder``; returns the files written."""
    folder = Path(folder)
    items = [item for sheet in plan for item in sheet.items]
    layout = page_layout(job, with_bleed=False)
    fronts = {id(item): job.faces.front_key(item) for item in items}
    backs = {id(item): job.faces.back_key(item) for item in items}
    needed = list(dict.fromkeys(list(fronts.values()) + list(backs.values())))
    px = card_px(job.opts.card)
    images = dict(face_images(job, needed, layout, px))
    files: list[Path] = []
    shared: dict[str, str] = {}  # a shared back's planned name -> the name written
    for sheet in plan:
        hidden = images[backs[id(sheet.items[0])]]
        faces = [images[fronts[id(i)]] for i in sheet.items]
        sheet.face = _write(folder, sheet.face, png(_sheet(faces, hidden, sheet.cols, sheet.rows, px)), files)
        if sheet.unique_back:
            backs_img = [images[backs[id(i)]] for i in sheet.items]
            sheet.back = _write(folder, sheet.back, png(_sheet(backs_img, hidden, sheet.cols, sheet.rows, px)), files)
        else:
            if sheet.back not in shared:
                shared[sheet.back] = _write(folder, sheet.back, png(hidden), files)
            sheet.back = shared[sheet.back]
    return files


def _write(folder: Path, planned: str, data: bytes, files: list[Path]) -> str:
    """Write ``data`` as ``<planned stem>-<digest>.png`` (:func:`.png.face_digest`); returns the name written."""
    from printer.sheets.export.png import face_digest

    name = f"{planned.removesuffix('.png')}-{face_digest(data)}.png"
    atomic_write_bytes(folder / name, data)
    files.append(folder / name)
    return name


def manifest(plan: Sequence[TTSSheet]) -> dict[str, Any]:
    """``tts.json``: per face image its back, grid (``width`` x ``height``), card count and card size in px."""
    return {
        "decks": [
            {
                "face": s.face,
                "back": s.back,
                "width": s.cols,
                "height": s.rows,
                "cards": len(s.items),
                "unique_backs": s.unique_back,
                "card_px": list(s.card_px),
            }
            for s in plan
        ]
    }


def export_tts(job: SheetJob, items: Sequence[PrintItem], folder: Path) -> tuple[list[Path], list[Problem]]:
    """Write the TTS face sheets, back images and ``tts.json`` into ``folder``; returns ``(files, problems)``."""
    folder = Path(folder)
    plan = plan_sheets(job, items)
    files = write_sheets(job, plan, folder)
    atomic_write_text(folder / "tts.json", json.dumps(manifest(plan), indent=2) + "\n")
    return files, []


def _sheet(cards: list[Image.Image], hidden: Image.Image, cols: int, rows: int, px: tuple[int, int]) -> Image.Image:
    sheet = Image.new("RGB", (cols * px[0], rows * px[1]), (255, 255, 255))
    for index, image in enumerate(cards):
        sheet.paste(image, ((index % cols) * px[0], (index // cols) * px[1]))
    last = cols * rows - 1
    sheet.paste(hidden, ((last % cols) * px[0], (last // cols) * px[1]))
    return sheet


def png(image: Image.Image) -> bytes:
    """``image`` as PNG bytes."""
    buffer = io.BytesIO()
    image.save(buffer, "PNG", compress_level=6)
    return buffer.getvalue()
