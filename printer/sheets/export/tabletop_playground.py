"""``--export tabletop-playground``: card sheets and object templates, as a Tabletop Playground package holds them.

Writes ``<stem>-tabletop-playground/``, laid out as a package's folder:

- ``Textures/``: the card sheets of the Tabletop Simulator export (:mod:`.tts`: up to 10 x 7 cards, 4096 px a side,
  one set per back design, ``<deck>-<n>-<digest>.png``), the back of each deck (``<deck>-back-<digest>.png``, or
  a back sheet of the same grid for double-faced cards), and under ``Textures/components/`` each component's front
  and back;
- ``Templates/<deck>-<n>.json``: one card template per sheet, a stack of its cards (``Type`` ``Card``,
  ``FrontTexture``, ``BackTexture``, ``NumHorizontal`` x ``NumVertical``, ``Indices`` one per printed card, in print
  order, ``CardNames`` and ``CardMetadata`` (the card's id) per index, ``Width`` and ``Height`` in cm);
- ``Templates/components/<component>-<n>.json``: one card template per distinct piece of a component (Tabletop
  Playground's cards also stand for tiles and tokens), a stack of its copies, ``Model`` ``Round``, ``Hexagonal``
  or ``Square`` by the piece's shape.

Source: the object template schema Plasticity Studios publishes for Tabletop Playground
(github.com/plasticity-studios/tabletop-playground-schemas, ``src/object-template.ts`` and ``src/templates.ts``:
the required ``Type``, ``GUID`` (32 hex digits), ``Name``, ``Metadata``, ``CollisionType``, ``SurfaceType``,
``Models``, ``Tags``, and for a card ``FrontTexture``, ``BackIndex`` (-2: the back is a separate image, -3: a
separate image with the front's index), ``HiddenIndex`` (-1: the grey blur), ``Indices``, ``CardNames``,
``CardMetadata``, ``CardTags``), and its knowledge base, "Cards" (tabletop-playground.com/knowledge-base/cards:
cards stand for playing cards, tiles and tokens; a 6 x 9 cm playing card). Not documented there: the package's
own manifest, which the editor writes when a package is created (printer writes none: copy ``Templates`` and
``Textures`` into a package made in the editor).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from printer.fsutil import atomic_write_text
from printer.problems import Problem
from printer.sheets.export import ExportRequest, ExportResult
from printer.sheets.export.tables import table_pieces
from printer.sheets.export.tts import plan_sheets, write_sheets
from printer.sheets.faces.items import PrintItem
from printer.sheets.job import SheetJob

MODELS = {"round": "Round", "hex": "Hexagonal"}


def guid(*parts: object) -> str:
    """A stable template GUID: 32 upper-case hex digits from ``parts``."""
    return hashlib.sha256("\x1f".join(str(p) for p in parts).encode()).hexdigest()[:32].upper()


def card_template(  # noqa: PLR0913  one field each of Tabletop Playground's card template
    name: str,
    front: str,
    back: str,
    grid: tuple[int, int],
    size_mm: tuple[float, float],
    indices: list[int],
    names: dict[int, str],
    metadata: dict[int, str],
    model: str,
    same_index_back: bool,
) -> dict[str, Any]:
    """A Tabletop Playground card template: a stack of ``indices`` of the ``front`` texture's ``grid`` (cols, rows)."""
    return {
        "Type": "Card",
        "GUID": guid(name, front),
        "Name": name,
        "Metadata": "",
        "CollisionType": "Regular",
        "Friction": 0.7,
        "Restitution": 0,
        "Density": 0.5,
        "SurfaceType": "Cardboard",
        "Roughness": 1,
        "Metallic": 0,
        "Flippable": True,
        "AutoStraighten": False,
        "ShouldSnap": True,
        "Models": [],
        "Collision": [],
        "Tags": [],
        "FrontTexture": front,
        "BackTexture": back,
        "HiddenTexture": "",
        "BackIndex": -3 if same_index_back else -2,
        "HiddenIndex": -1,
        "NumHorizontal": grid[0],
        "NumVertical": grid[1],
        "Width": round(size_mm[0] / 10, 3),
        "Height": round(size_mm[1] / 10, 3),
        "Thickness": 0.05,
        "HiddenInHand": True,
        "UsedWithCardHolders": True,
        "CanStack": True,
        "Model": model,
        "Indices": indices,
        "CardNames": {str(k): v for k, v in names.items()},
        "CardMetadata": {str(k): v for k, v in metadata.items()},
        "CardTags": {},
    }


def export_tabletop_playground(
    job: SheetJob, items: Sequence[PrintItem], request: ExportRequest
) -> tuple[Path, list[dict[str, Any]], list[Problem]]:
    """Write the package folder; returns ``(folder, templates, problems)`` (card templates first, then components)."""
    folder = Path(request.out_dir) / f"{request.stem}-tabletop-playground"
    plan = plan_sheets(job, items)
    write_sheets(job, plan, folder / "Textures")
    model = "Rounded" if job.opts.corner_radius > 0 else "Square"
    templates: list[dict[str, Any]] = []
    for sheet in plan:
        slots = range(len(sheet.items))
        names = {i: item.name for i, item in zip(slots, sheet.items)}
        ids = {i: item.card.id for i, item in zip(slots, sheet.items) if item.card is not None}
        name = f"{request.title or request.stem} {sheet.group} {sheet.number}"
        data = card_template(
            name,
            sheet.face,
            sheet.back,
            (sheet.cols, sheet.rows),
            job.opts.card,
            list(slots),
            names,
            ids,
            model,
            sheet.unique_back,
        )
        atomic_write_text(
            folder / "Templates" / f"{sheet.group}-{sheet.number}.json", json.dumps(data, indent=2) + "\n"
        )
        templates.append(data)
    for group in table_pieces(request.components, request.component_job, folder / "Textures" / "components"):
        shape = MODELS.get(group.component.shape, "Square")
        for n, piece in enumerate(group.pieces, 1):
            data = card_template(
                f"{group.component.name} {piece.item.name}",
                f"components/{piece.front}",
                f"components/{piece.back}",
                (1, 1),
                group.component.size,
                [0] * piece.count,
                {0: piece.item.name},
                {},
                shape,
                False,
            )
            target = folder / "Templates" / "components" / f"{group.component.name}-{n}.json"
            atomic_write_text(target, json.dumps(data, indent=2) + "\n")
            templates.append(data)
    return folder, templates, []


def export(job: SheetJob, items: Sequence[PrintItem], request: ExportRequest) -> ExportResult:
    """The ``tabletop-playground`` entry of :data:`printer.sheets.export.EXPORTERS`."""
    folder, templates, problems = export_tabletop_playground(job, items, request)
    cards = sum(len(t["Indices"]) for t in templates if not t["FrontTexture"].startswith("components/"))
    pieces = len(templates) - sum(1 for t in templates if not t["FrontTexture"].startswith("components/"))
    summary = f"{folder}/ (Tabletop Playground package folder: {cards} cards on card sheets in Textures/, templates in Templates/"
    summary += f", {pieces} component templates)" if pieces else ")"
    return ExportResult([folder], summary, problems)
