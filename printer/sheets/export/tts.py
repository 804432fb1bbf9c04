"""``--export tts``: Tabletop Simulator deck sheets.

Tabletop Simulator's Custom Deck takes a *face* image holding a grid of up
to 10 x 7 cards, whose last slot (bottom-right) is the *hidden card* shown
for cards in another player's hand, and a *back* image. printer makes one
deck per back design (two decks for a game with two backs), with as many
face images as it needs (69 cards each), every copy in its own slot, plus:

- ``<deck>-back.png``, the back (for double-faced cards, a back *sheet*
  whose slots match the face sheet's: tick "Unique backs" in TTS);
- ``tts.json``, a manifest: per face image its grid (``width`` x
  ``height``, as TTS's dialog asks), number of cards and back image.

Images are RGB PNG at most :data:`MAX_WIDTH` px wide: each card is
``MAX_WIDTH // 10`` = 409 px wide whatever the grid, its height in
proportion (571 px for a 63 x 88 mm card). Grids are at least 2 x 2.
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from pathlib import Path

from PIL import Image

from printer.fsutil import atomic_write_bytes, atomic_write_text
from printer.problems import Problem
from printer.sheets.compose import PrintItem, PrintJob
from printer.sheets.export.faces import _slug, face_images, page_layout

MAX_COLS, MAX_ROWS, MAX_WIDTH = 10, 7, 4096
PER_SHEET = MAX_COLS * MAX_ROWS - 1


def card_px(card_mm: tuple[float, float]) -> tuple[int, int]:
    """The pixel size of one card on a TTS sheet."""
    width = MAX_WIDTH // MAX_COLS
    return (width, round(width * card_mm[1] / card_mm[0]))


def grid_for(n_cards: int) -> tuple[int, int]:
    """Columns and rows for ``n_cards`` plus the hidden card (at least 2 x 2, at most 10 x 7)."""
    slots = n_cards + 1
    rows = min(MAX_ROWS, max(2, math.ceil(slots / MAX_COLS)))
    cols = min(MAX_COLS, max(2, math.ceil(slots / rows)))
    return cols, rows


def export_tts(job: PrintJob, items: Sequence[PrintItem], folder: Path) -> tuple[list[Path], list[Problem]]:
    """Write the TTS face sheets, back images and ``tts.json`` into ``folder``; returns ``(files, problems)``."""
    folder = Path(folder)
    layout = page_layout(job, with_bleed=False)
    px = card_px(job.opts.card)
    groups: dict[str, list[PrintItem]] = {}
    unique_backs: dict[str, bool] = {}
    for item in items:
        kind, *rest = job.back_ident(item)
        group = "double-faced" if kind in ("card", "html") else _slug(str(rest[0]))
        groups.setdefault(group, []).append(item)
        unique_backs[group] = kind in ("card", "html")
    fronts = {id(item): job.front(item)[1] for item in items}
    backs = {id(item): job.back(item)[1] for item in items}
    needed = list(dict.fromkeys(list(fronts.values()) + list(backs.values())))
    images = dict(face_images(job, needed, layout, px))
    files: list[Path] = []
    manifest = []
    for group, members in groups.items():
        for n, start in enumerate(range(0, len(members), PER_SHEET), 1):
            part = members[start : start + PER_SHEET]
            cols, rows = grid_for(len(part))
            hidden = images[backs[id(part[0])]]
            face_sheet = _sheet([images[fronts[id(i)]] for i in part], hidden, cols, rows, px)
            name = f"{group}-{n}.png"
            atomic_write_bytes(folder / name, _png(face_sheet))
            files.append(folder / name)
            if unique_backs[group]:
                back_name = f"{group}-{n}-back.png"
                back_sheet = _sheet([images[backs[id(i)]] for i in part], hidden, cols, rows, px)
                atomic_write_bytes(folder / back_name, _png(back_sheet))
                files.append(folder / back_name)
            else:
                back_name = f"{group}-back.png"
                if (folder / back_name) not in files:
                    atomic_write_bytes(folder / back_name, _png(images[backs[id(part[0])]]))
                    files.append(folder / back_name)
            manifest.append(
                {
                    "face": name,
                    "back": back_name,
                    "width": cols,
                    "height": rows,
                    "cards": len(part),
                    "unique_backs": unique_backs[group],
                    "card_px": list(px),
                }
            )
    atomic_write_text(folder / "tts.json", json.dumps({"decks": manifest}, indent=2) + "\n")
    return files, []


def _sheet(cards: list[Image.Image], hidden: Image.Image, cols: int, rows: int, px: tuple[int, int]) -> Image.Image:
    sheet = Image.new("RGB", (cols * px[0], rows * px[1]), (255, 255, 255))
    for index, image in enumerate(cards):
        sheet.paste(image, ((index % cols) * px[0], (index // cols) * px[1]))
    last = cols * rows - 1
    sheet.paste(hidden, ((last % cols) * px[0], (last // cols) * px[1]))
    return sheet


def _png(image: Image.Image) -> bytes:
    import io

    buffer = io.BytesIO()
    image.save(buffer, "PNG", compress_level=6)
    return buffer.getvalue()
