"""``--export tts-save``: a Tabletop Simulator saved object, ready to spawn.

Writes, in ``<stem>-tts/`` beside the PDF, the deck sheets of ``--export
tts`` (:mod:`.tts`) and:

- ``<stem>.json``: the saved object. Copy it with its thumbnail into
  Tabletop Simulator's ``Saves/Saved Objects`` folder (in
  ``Documents/My Games/Tabletop Simulator`` on Windows,
  ``~/.local/share/Tabletop Simulator`` on Linux,
  ``~/Library/Tabletop Simulator`` on macOS) and spawn it from Objects >
  Saved Objects;
- ``<stem>.png``: its thumbnail (256 x 256 px, the top card of each deck).

The JSON has the top-level keys TTS writes for a saved object (``SaveName``,
``GameMode``, ``Date``, ``Gravity``, ``PlayArea``, ``Table``, ``Sky``,
``Note``, ``Tags``, ``TabStates``, ``LuaScript``, ``LuaScriptState``,
``XmlUI``, ``ObjectStates``...) and in ``ObjectStates`` one ``DeckCustom``
per back design of the printed cards (with ``--deck``: of the decklist's
cards, copies included), side by side and face down; a back design with a
single card gives a ``CardCustom``. Each deck has:

- ``CustomDeck``: one entry ``N`` (1, 2, ... over the whole save) per face
  image, with ``FaceURL``, ``BackURL``, ``NumWidth`` and ``NumHeight``
  (the image's grid, at most 10 x 7), ``BackIsHidden: false`` (the last
  slot of each image is the hidden face, so 69 cards a sheet),
  ``UniqueBack`` (true for double-faced cards, whose ``BackURL`` is a back
  sheet of the same grid) and ``Type`` (0 rounded rectangle with
  ``--corner-radius``, else 1 rectangle);
- ``ContainedObjects``: one ``Card`` per printed card, in print order,
  with ``CardID`` = N x 100 + its 0-based slot on the image (row by row),
  ``Nickname`` (the card's title), ``Description`` (its text, without
  markup), a ``Transform`` and its own copy of its ``CustomDeck`` entry;
- ``DeckIDs``: the ``CardID`` of each contained card, in the same order.

The game's components (tokens, tiles and boards, ``<game>-components.pdf``)
follow the decks, face up, as ``Custom_Token``, ``Custom_Tile`` and
``Custom_Board`` objects with their front and back images
(:mod:`.tts_components`).

Image URLs are ``file:///`` URLs of the images on this computer (local
play only: the other players' TTS cannot read them) unless the build is
given ``--image-url-base URL``, where the player uploads the ``-tts``
folder's images for multiplayer (``URL/<image name>``).

Source of the format: Tabletop Simulator's API documentation, "Save File
Format" and "Custom Deck" (the object JSON, ``CustomDeck`` fields, card ID
= deck key x 100 + index, the ``Type`` values 0 rounded rectangle, 1
rectangle, 2 rounded hex, 3 hex, 4 circle).
"""

from __future__ import annotations

import hashlib
import io
import json
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any
from urllib.parse import quote

from PIL import Image

from printer.fsutil import atomic_write_bytes, atomic_write_text
from printer.problems import Problem, UsageError
from printer.sheets.export.tts import TTSSheet, manifest, plan_sheets, write_sheets
from printer.sheets.faces.items import PrintItem
from printer.sheets.job import SheetJob

THUMBNAIL_PX = 256
DECK_SPACING = 3.0  # TTS units between neighbouring decks (a poker card is about 2.2 wide at scale 1)
_TAG = re.compile(r"<[^>]+>")


MAX_URL = 2000  # characters: longer URLs are refused by some servers and browsers


def check_url_base(url: str | None) -> None:
    """Raise :class:`UsageError` unless ``url`` is ``None`` or an ``http(s)://`` URL of at most :data:`MAX_URL` characters."""
    if url is None or (re.match(r"^https?://[^\s/]+", url) and len(url) <= MAX_URL):
        return
    shown = url if len(url) <= 80 else url[:79] + "\u2026"
    message = f"--image-url-base {shown!r} is not an http:// or https:// URL of at most {MAX_URL} characters"
    raise UsageError(
        message,
        [Problem("--image-url-base", message, "the folder where you uploaded the -tts images", code="usage")],
    )


@dataclass
class SaveResult:
    """What ``export_tts_save`` wrote: the saved object ``json``, its ``thumbnail``, every file, and counts."""

    json: Path
    thumbnail: Path
    files: list[Path]
    decks: int
    cards: int
    components: int = 0


def image_url(folder: Path, name: str, base: str | None) -> str:
    """The URL TTS loads an image from: ``base/name``, or the ``file:///`` URL of ``folder/name``."""
    if base:
        return base.rstrip("/") + "/" + quote(name)
    return (Path(folder).resolve() / name).as_uri()


def _guid(*parts: object) -> str:
    """A stable 6-hex-digit object GUID, as TTS writes them (TTS gives a new one to any that clashes)."""
    return hashlib.sha1("\x1f".join(str(p) for p in parts).encode()).hexdigest()[:6]


def _transform(x: float = 0.0, y: float = 1.0, z: float = 0.0) -> dict[str, Any]:
    """A TTS transform: at ``(x, y, z)``, face down (turned 180 degrees about z), unscaled."""
    return {
        "posX": x,
        "posY": y,
        "posZ": z,
        "rotX": 0.0,
        "rotY": 180.0,
        "rotZ": 180.0,
        "scaleX": 1.0,
        "scaleY": 1.0,
        "scaleZ": 1.0,
    }


def description(item: PrintItem) -> str:
    """A card's text for TTS's tooltip: the ``text`` field without HTML tags."""
    if item.card is None:
        return item.reason
    text = item.card.get("text") or ""
    return _TAG.sub("", str(text)).strip()


def _object_base(name: str, nickname: str, guid: str, transform: dict[str, Any]) -> dict[str, Any]:
    return {
        "GUID": guid,
        "Name": name,
        "Transform": transform,
        "Nickname": nickname,
        "Description": "",
        "GMNotes": "",
        "ColorDiffuse": {"r": 0.713235259, "g": 0.713235259, "b": 0.713235259},
        "Locked": False,
        "Grid": True,
        "Snap": True,
        "IgnoreFoW": False,
        "Autoraise": True,
        "Sticky": True,
        "Tooltip": True,
        "GridProjection": False,
        "HideWhenFaceDown": True,
        "Hands": True,
        "SidewaysCard": False,
        "XmlUI": "",
        "LuaScript": "",
        "LuaScriptState": "",
    }


def saved_object(
    plan: Sequence[TTSSheet], folder: Path, name: str, url_base: str | None, card_type: int, date: str = ""
) -> dict[str, Any]:
    """The saved object's JSON for the sheets of ``plan`` (see the module docstring); ``name`` is shown in TTS."""
    custom: dict[int, dict[str, Any]] = {}
    decks: dict[str, list[tuple[PrintItem, int, int]]] = {}
    for key, sheet in enumerate(plan, 1):
        custom[key] = {
            "FaceURL": image_url(folder, sheet.face, url_base),
            "BackURL": image_url(folder, sheet.back, url_base),
            "NumWidth": sheet.cols,
            "NumHeight": sheet.rows,
            "BackIsHidden": False,
            "UniqueBack": sheet.unique_back,
            "Type": card_type,
        }
        for slot, item in enumerate(sheet.items):
            decks.setdefault(sheet.group, []).append((item, key, slot))
    objects = []
    for index, (group, cards) in enumerate(decks.items()):
        position = _transform(index * DECK_SPACING)
        contained = []
        for n, (item, key, slot) in enumerate(cards):
            card = _object_base("Card", item.name, _guid(name, group, n, item.name), _transform(0.0, 0.0, 0.0))
            card["Description"] = description(item)
            card["CardID"] = key * 100 + slot
            card["CustomDeck"] = {str(key): dict(custom[key])}
            contained.append(card)
        nickname = f"{name} ({group})" if len(decks) > 1 else name
        if len(contained) == 1:  # TTS has no one-card deck: a lone card is a CardCustom
            lone = dict(contained[0], Name="CardCustom", Transform=position, GUID=_guid(name, group))
            objects.append(lone)
            continue
        deck = _object_base("DeckCustom", nickname, _guid(name, group), position)
        deck["DeckIDs"] = [c["CardID"] for c in contained]
        deck["CustomDeck"] = {str(k): dict(custom[k]) for k in dict.fromkeys(key for _, key, _ in cards)}
        deck["ContainedObjects"] = contained
        objects.append(deck)
    return {
        "SaveName": name,
        "Date": date,
        "VersionNumber": "",
        "GameMode": name,
        "GameType": "",
        "GameComplexity": "",
        "Tags": [],
        "Gravity": 0.5,
        "PlayArea": 0.5,
        "Table": "",
        "Sky": "",
        "Note": "",
        "TabStates": {},
        "LuaScript": "",
        "LuaScriptState": "",
        "XmlUI": "",
        "ObjectStates": objects,
    }


def thumbnail(folder: Path, plan: Sequence[TTSSheet]) -> Image.Image:
    """A 256 x 256 px thumbnail: the first card of each deck (at most four), side by side on transparency."""
    firsts: dict[str, TTSSheet] = {}
    for sheet in plan:
        firsts.setdefault(sheet.group, sheet)
    shown = list(firsts.values())[:4]
    canvas = Image.new("RGBA", (THUMBNAIL_PX, THUMBNAIL_PX), (0, 0, 0, 0))
    if not shown:
        return canvas
    w, h = shown[0].card_px
    scale = min(THUMBNAIL_PX / (w * len(shown)), THUMBNAIL_PX / h)
    cw, ch = max(1, int(w * scale)), max(1, int(h * scale))
    x = (THUMBNAIL_PX - cw * len(shown)) // 2
    for sheet in shown:
        with Image.open(folder / sheet.face) as image:
            card = image.crop((0, 0, w, h)).convert("RGBA").resize((cw, ch), Image.Resampling.LANCZOS)
        canvas.paste(card, (x, (THUMBNAIL_PX - ch) // 2))
        x += cw
    return canvas


def export_tts_save(  # noqa: PLR0913  public export: the save's optional parts are keywords with defaults
    job: SheetJob,
    items: Sequence[PrintItem],
    folder: Path,
    name: str,
    url_base: str | None = None,
    plan: Sequence[TTSSheet] | None = None,
    title: str = "",
    components: Sequence[tuple[Any, Sequence[PrintItem]]] = (),
    component_job: Callable[[Any], Any] | None = None,
) -> tuple[SaveResult, list[Problem]]:
    """Write the deck sheets, ``<name>.json`` and ``<name>.png`` into ``folder``; returns ``(result, problems)``.

    ``name`` is the saved object's file name, ``title`` its name in TTS
    (``SaveName`` and the decks' nicknames; default ``name``);
    ``url_base`` where the images are hosted (default ``file:///`` URLs).
    ``components`` are the game's components with their print items, and
    ``component_job(component)`` gives each one's print job: their pieces
    join the saved object (:func:`.tts_components.component_objects`).
    """
    folder = Path(folder)
    plan = list(plan) if plan is not None else plan_sheets(job, items)
    files = write_sheets(job, plan, folder)
    atomic_write_text(folder / "tts.json", json.dumps(manifest(plan), indent=2) + "\n")
    card_type = 0 if job.opts.corner_radius > 0 else 1
    date = datetime.now().strftime("%m/%d/%Y %I:%M:%S %p")
    data = saved_object(plan, folder, title or name, url_base, card_type, date)
    pieces = 0
    if components and component_job is not None:
        from printer.sheets.export.tts_components import component_objects

        made = component_objects(
            components,
            component_job,
            folder,
            lambda file: image_url(folder, file, url_base),
            _object_base,
            description,
            title or name,
            z0=-4.0,
        )
        data["ObjectStates"] += made.objects
        files += made.files
        pieces = made.count
    target, thumb = folder / f"{name}.json", folder / f"{name}.png"
    atomic_write_text(target, json.dumps(data, indent=2, ensure_ascii=False) + "\n")
    buffer = io.BytesIO()
    thumbnail(folder, plan).save(buffer, "PNG")
    atomic_write_bytes(thumb, buffer.getvalue())
    decks = len({s.group for s in plan})
    cards = sum(len(s.items) for s in plan)
    return SaveResult(target, thumb, files + [target, thumb], decks, cards, pieces), []
