"""The components of ``--export tts-save``: tokens, tiles and boards as Tabletop Simulator custom objects.

Each printed piece of a game's components (:mod:`printer.sheets.components`: copies included, as in
``<game>-components.pdf``) becomes one object of the saved object, face up, laid out in rows in front of the
decks, sized in proportion to the cards:

- a **token** is a ``Custom_Token``: ``CustomImage`` with ``ImageURL`` (its front), ``ImageSecondaryURL`` (its
  back), ``ImageScalar``, ``WidthScale`` and ``CustomToken`` (``Thickness``, ``MergeDistancePixels``,
  ``StandUp``, ``Stackable``). TTS cuts a custom token out of its image's transparency, so a round token's
  images are transparent outside the circle;
- a **tile** is a ``Custom_Tile``: ``CustomImage`` with ``ImageURL`` (front), ``ImageSecondaryURL`` (back) and
  ``CustomTile`` (``Type`` 0 box for a square tile, 1 hex for a hex tile; ``Thickness``, ``Stackable``,
  ``Stretch``);
- a **board** is a ``Custom_Board``: ``CustomImage`` with ``ImageURL`` (the whole board, one image) and
  ``ImageSecondaryURL`` (the game's back for it).

Each distinct face is rendered once (trim box, no bleed) at :data:`DPI` dpi, at most :data:`MAX_PX` px a side,
and written as ``<component>-<face>-<digest>.png`` beside the deck sheets.

Source of the format: the object data Tabletop Simulator writes in a save file (``Custom_Token``,
``Custom_Tile``, ``Custom_Board`` with their ``CustomImage`` fields) as declared by the typed-tabletop-simulator
project's ``objectData.d.ts`` and ``forge/tile.js`` (npm ``@typed-tabletop-simulator/declaration`` and ``lib``),
and the tile types of Tabletop Simulator's API documentation, "Custom Game Objects" (Custom Tile: 0 box, 1 hex,
2 circle, 3 rounded).
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

from PIL import Image, ImageDraw

from printer.sheets.export.faces import back_name, front_name
from printer.sheets.export.png import write_face_pngs
from printer.sheets.faces.items import PrintItem
from printer.sheets.layout import MM_PER_IN

#: resolution of the component images (px per inch), lowered for a piece whose longer side would pass MAX_PX
DPI = 150
#: the largest side of a component image (px), as for TTS's deck images
MAX_PX = 4096
#: mm per TTS unit, so that pieces keep their size beside the cards (a poker card is about 2.2 units wide)
MM_PER_UNIT = 63.0 / 2.2
#: TTS units across the longer side of a custom token, tile or board at scale 1
UNITS_AT_SCALE_1 = 2.0
#: TTS units between neighbouring pieces in a row
GAP = 0.4
#: the CustomTile ``Type`` of each tile shape
TILE_TYPES = {"square": 0, "hex": 1}


@dataclass
class ComponentObjects:
    """What :func:`component_objects` made: the TTS ``objects``, the image ``files`` written, the piece ``count``."""

    objects: list[dict[str, Any]]
    files: list[Path]
    count: int


def _guid(*parts: object) -> str:
    return hashlib.sha1("\x1f".join(str(p) for p in parts).encode()).hexdigest()[:6]


def _masked(image: Image.Image, shape: str) -> Image.Image:
    """``image`` as RGBA, transparent outside a round token's circle (TTS cuts a custom token along its alpha)."""
    rgba = image.convert("RGBA")
    if shape != "round":
        return rgba
    mask = Image.new("L", rgba.size, 0)
    ImageDraw.Draw(mask).ellipse((0, 0, rgba.size[0] - 1, rgba.size[1] - 1), fill=255)
    rgba.putalpha(mask)
    return rgba


def custom_image(component: Any, front: str, back: str) -> dict[str, Any]:
    """The ``CustomImage`` of a piece of ``component`` whose images are at the URLs ``front`` and ``back``."""
    data: dict[str, Any] = {"ImageURL": front, "ImageSecondaryURL": back, "ImageScalar": 1.0, "WidthScale": 0.0}
    if component.kind == "token":
        data["CustomToken"] = {"Thickness": 0.1, "MergeDistancePixels": 15.0, "StandUp": False, "Stackable": True}
    elif component.kind == "tile":
        data["CustomTile"] = {
            "Type": TILE_TYPES.get(component.shape, 0),
            "Thickness": 0.1,
            "Stackable": False,
            "Stretch": True,
        }
    return data


OBJECT_NAMES = {"token": "Custom_Token", "tile": "Custom_Tile", "board": "Custom_Board"}


def component_dpi(component: Any, dpi: float = DPI) -> float:
    """The resolution of a component's images: ``dpi``, lowered so that its longer side stays within MAX_PX."""
    longest: float = max(component.size)
    return min(dpi, MAX_PX / (longest / MM_PER_IN))


def component_face_names(job: Any, component: Any, items: Sequence[PrintItem]) -> dict[str, str]:
    """Face key -> file name stem (no extension) of each distinct front and back of a component's ``items``."""
    names: dict[str, str] = {}
    for item in items:
        names.setdefault(job.faces.front_key(item), f"{component.name}-{front_name(item)}")
        back = back_name(job, item)
        names.setdefault(
            job.faces.back_key(item), f"{component.name}-{back if back.startswith('back-') else back + '-back'}"
        )
    return names


def component_objects(
    groups: Sequence[tuple[Any, Sequence[PrintItem]]],
    job_for: Callable[[Any], Any],
    folder: Path,
    url: Callable[[str], str],
    base: Callable[[str, str, str, dict[str, Any]], dict[str, Any]],
    describe: Callable[[PrintItem], str],
    name: str,
    z0: float,
) -> ComponentObjects:
    """The TTS objects of every piece of ``groups`` (each a component with its print items), and their images.

    ``job_for(component)`` gives the component's print job (its card size is the component's trim size);
    ``url(file name)`` the URL TTS loads an image from; ``base(object name, nickname, guid, transform)`` an
    object's common fields; ``describe(item)`` its tooltip text. Pieces are laid out face up in rows from
    ``z0`` (TTS units, towards the player), one row per component.
    """
    objects: list[dict[str, Any]] = []
    files: list[Path] = []
    z = z0
    for component, items in groups:
        job = job_for(component)
        w_mm, h_mm = component.size
        dpi = component_dpi(component)
        fronts = {id(item): job.faces.front_key(item) for item in items}
        backs = {id(item): job.faces.back_key(item) for item in items}
        stems = component_face_names(job, component, items)
        names = write_face_pngs(job, stems, folder, dpi, digest=True, transform=partial(_masked, shape=component.shape))
        files += [folder / name for name in names.values()]
        scale = max(w_mm, h_mm) / MM_PER_UNIT / UNITS_AT_SCALE_1
        width = w_mm / MM_PER_UNIT
        depth = h_mm / MM_PER_UNIT
        per_row = max(1, int(24 // (width + GAP)))
        for n, item in enumerate(items):
            x = (n % per_row) * (width + GAP)
            row_z = z - (n // per_row) * (depth + GAP)
            transform = {
                "posX": x,
                "posY": 1.0,
                "posZ": row_z,
                "rotX": 0.0,
                "rotY": 180.0,
                "rotZ": 0.0,
                "scaleX": scale,
                "scaleY": 1.0,
                "scaleZ": scale,
            }
            obj = base(OBJECT_NAMES[component.kind], item.name, _guid(name, component.name, n, item.name), transform)
            obj["Description"] = describe(item)
            obj["HideWhenFaceDown"] = obj["Hands"] = False
            obj.pop("SidewaysCard", None)
            obj["CustomImage"] = custom_image(component, url(names[fronts[id(item)]]), url(names[backs[id(item)]]))
            objects.append(obj)
        rows = -(-len(items) // per_row)
        z -= rows * (depth + GAP) + 1.0
    return ComponentObjects(objects, files, len(objects))
