"""``--export cgs``: a Card Game Simulator game folder, with ``cgs.json``, the cards' data, images and decks.

Writes ``<stem>-cgs/<game name>/``, a folder to copy into Card Game Simulator's games folder (on Windows
``%USERPROFILE%/AppData/LocalLow/Finol Digital/Card Game Simulator/games/``; on Android
``/Data/Data/com.finoldigital.cardgamesim/files/games/``):

- ``cgs.json``: the game: ``name``, ``cardSize`` (inches), ``cardImageFileType`` and ``cardBackImageFileType``
  ``png``, ``cardProperties`` (one per field of the cards' data: ``integer`` for whole numbers, ``boolean``,
  else ``string``), ``cardPrimaryProperty`` (``text`` when the cards have it), ``cardNameIsUnique`` false with
  decks saved as ``txt`` naming each card by id (``deckFileTxtId`` ``id``), ``cardBackFaceImageUrls`` (one back
  per deck), ``gameBoardUrls`` (the game's boards), ``autoUpdate`` -1 (a local game: never downloaded again);
- ``AllCards.json``: one object per distinct card: ``id``, ``name``, ``set`` and its fields; ``AllSets.json``:
  the one set, its ``code`` the game's id;
- ``sets/<set>/<card id>.png``: each card's front; ``CardBack.png`` the first deck's back and
  ``backs/<deck>.png`` each deck's; ``boards/<board>.png`` each board;
- ``decks/<deck>.txt``: each deck (back design) as a decklist, ``<count> [<id>] <name>`` a line.

Source: Card Game Simulator's card game specification, the JSON schema ``schema/cgs.json`` of
github.com/finol-digital/FinolDigital.Cgs.Json (field names and meanings, ``cardSize`` in inches, the ``txt``
deck lines ``<Quantity> [<Card:Id>] <Card:Name>``, ``CardBack.<cardBackImageFileType>``,
``backs/<id>.<ext>``, ``boards/<id>.<ext>``) and its "Defining Custom Games" page (a game is a folder in the games
directory). Not documented there: the folder CGS keeps a card's image in when it has no URL to download it from
(printer writes ``sets/<set code>/<card id>.png``, where CGS saves the images it downloads), and how a card picks
one of several ``cardBackFaceImageUrls`` (printer adds each card's ``backFace`` property naming its deck's back).
CGS finds images by card id, so these file names carry no digest; copy the whole folder again after a change.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from printer.fsutil import atomic_write_bytes, atomic_write_text
from printer.paths import safe_file_name
from printer.problems import Problem
from printer.sheets.export import ExportRequest, ExportResult
from printer.sheets.export.tables import TableDeck, table_decks, table_pieces
from printer.sheets.faces.items import PrintItem
from printer.sheets.job import SheetJob
from printer.sheets.layout import MM_PER_IN


def property_type(values: Sequence[object]) -> str:
    """The CGS property type of a field with these ``values``: ``boolean``, ``integer`` or ``string``."""
    present = [v for v in values if v is not None]
    if present and all(isinstance(v, bool) for v in present):
        return "boolean"
    if present and all(isinstance(v, int) and not isinstance(v, bool) for v in present):
        return "integer"
    return "string"


def _value(value: object) -> object:
    if isinstance(value, (bool, int)) or value is None:
        return value
    if isinstance(value, (list, tuple)):
        return "; ".join(str(v) for v in value)
    return str(value) if not isinstance(value, dict) else json.dumps(value, ensure_ascii=False)


def game_files(decks: Sequence[TableDeck], name: str, set_code: str, card_mm: tuple[float, float]) -> dict[str, Any]:
    """``{"cgs.json": ..., "AllCards.json": ..., "AllSets.json": ...}``: the game's JSON documents as data."""
    fields: dict[str, list[object]] = {}
    cards: list[dict[str, Any]] = []
    for deck in decks:
        for card in deck.cards:
            data = card.item.card.data if card.item.card is not None else {"text": card.text}
            entry: dict[str, Any] = {"id": card.id, "name": card.item.name, "set": set_code, "backFace": deck.name}
            for key, value in data.items():
                if key in ("id", "name", "set", "backFace"):
                    continue
                entry[key] = _value(value)
                fields.setdefault(key, []).append(entry[key])
            cards.append(entry)
    properties = [{"name": k, "type": property_type(v)} for k, v in fields.items()]
    properties.append({"name": "backFace", "type": "string"})
    game = {
        "name": name,
        "autoUpdate": -1,
        "cardSize": {"x": round(card_mm[0] / MM_PER_IN, 4), "y": round(card_mm[1] / MM_PER_IN, 4)},
        "cardImageFileType": "png",
        "cardBackImageFileType": "png",
        "cardIdIdentifier": "id",
        "cardNameIdentifier": "name",
        "cardSetIdentifier": "set",
        "cardNameIsUnique": False,
        "cardProperties": properties,
        "cardPrimaryProperty": "text" if "text" in fields else (next(iter(fields), "backFace")),
        "deckFileType": "txt",
        "deckFileTxtId": "id",
        "setCodeDefault": set_code,
        "setNameDefault": name,
        "cardBackFaceImageUrls": [{"id": deck.name} for deck in decks],
    }
    return {"cgs.json": game, "AllCards.json": cards, "AllSets.json": [{"code": set_code, "name": name}]}


def deck_text(deck: TableDeck) -> str:
    """A deck as CGS's ``txt`` decklist: ``<count> [<id>] <name>`` a line."""
    return "".join(f"{c.count} [{c.id}] {c.item.name}\n" for c in deck.cards)


def export_cgs(
    job: SheetJob, items: Sequence[PrintItem], request: ExportRequest, scratch: Path
) -> tuple[Path, dict[str, Any], list[TableDeck], list[Problem]]:
    """Write the game folder (faces rendered into ``scratch`` first); returns ``(folder, documents, decks, problems)``."""
    name = request.title or request.stem
    folder = Path(request.out_dir) / f"{request.stem}-cgs" / safe_file_name(name)
    set_code = safe_file_name(request.stem)
    decks, _ = table_decks(job, items, scratch, request.dpi)
    for deck in decks:  # the images again under the names CGS looks for (card id, deck name)
        for card in deck.cards:
            atomic_write_bytes(
                folder / "sets" / set_code / f"{safe_file_name(card.id)}.png", (scratch / card.front).read_bytes()
            )
        back = (scratch / (deck.back or deck.cards[0].back)).read_bytes()
        atomic_write_bytes(folder / "backs" / f"{deck.name}.png", back)
        atomic_write_text(folder / "decks" / f"{deck.name}.txt", deck_text(deck))
    if decks:
        atomic_write_bytes(folder / "CardBack.png", (folder / "backs" / f"{decks[0].name}.png").read_bytes())
    documents = game_files(decks, name, set_code, job.opts.card)
    boards = [
        (group, piece)
        for group in table_pieces(request.components, request.component_job, scratch)
        if group.component.kind == "board"
        for piece in group.pieces
    ]
    if boards:
        game = documents["cgs.json"]
        game["gameBoardImageFileType"] = "png"
        game["gameBoardUrls"] = []
        for _group, piece in boards:
            board_id = piece.front.rsplit("-", 1)[0]
            atomic_write_bytes(folder / "boards" / f"{board_id}.png", (scratch / piece.front).read_bytes())
            game["gameBoardUrls"].append({"id": board_id})
    for file, data in documents.items():
        atomic_write_text(folder / file, json.dumps(data, indent=2, ensure_ascii=False) + "\n")
    return folder, documents, decks, []


def export(job: SheetJob, items: Sequence[PrintItem], request: ExportRequest) -> ExportResult:
    """The ``cgs`` entry of :data:`printer.sheets.export.EXPORTERS`."""
    import tempfile

    with tempfile.TemporaryDirectory(prefix="printer-cgs-") as tmp:
        folder, documents, decks, problems = export_cgs(job, items, request, Path(tmp))
    summary = (
        f"{folder}/ (Card Game Simulator game: {len(documents['AllCards.json'])} cards in {len(decks)} decks; "
        "copy the folder into CGS's games folder)"
    )
    return ExportResult([folder.parent], summary, problems)
