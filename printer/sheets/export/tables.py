"""What the play-table exports share: the cards in decks by back design, each face one image named by its digest.

The exports for online tables (``tabletopia``, ``tabletop-playground``,
``playingcards-io``, ``screentop``, ``cgs``) all start from the same
pictures: the PNG export's (:func:`.png.write_face_pngs`), the trim box of
each distinct face at the build's ``--dpi``, so that every card face of a
game is the same pixel size, and the game's components (tokens, tiles,
boards) at the resolution of :func:`.tts_components.component_dpi`. Each
file name ends in the digest of its picture (``<name>-<digest>.png``): a
changed card gets a new name, so no platform or browser cache shows the old
picture.

:func:`table_decks` groups the printed cards (copies included, in print
order) into one deck per back design, as the Tabletop Simulator export does
(:func:`.tts.back_group`); :func:`table_pieces` gives each component's
pieces with their images.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from printer.sheets.export.faces import back_name, front_name, page_layout, px_of
from printer.sheets.export.png import write_face_pngs
from printer.sheets.export.tts import back_group
from printer.sheets.export.tts_components import component_dpi, component_face_names
from printer.sheets.faces.items import PrintItem
from printer.sheets.job import SheetJob

if TYPE_CHECKING:
    from PIL import Image

_TAG = re.compile(r"<[^>]+>")


@dataclass
class TableCard:
    """One distinct card of a deck: its print ``item`` (the first copy), ``count`` copies, ``front``/``back`` files."""

    item: PrintItem
    count: int
    front: str
    back: str

    @property
    def id(self) -> str:
        """The card's id (a placeholder or aid: its front file's stem without the digest)."""
        return self.item.card.id if self.item.card is not None else self.front.rsplit("-", 1)[0]

    @property
    def text(self) -> str:
        """The card's ``text`` field without markup (a placeholder: why it is one)."""
        if self.item.card is None:
            return self.item.reason
        return _TAG.sub("", str(self.item.card.get("text") or "")).strip()


@dataclass
class TableDeck:
    """The cards of one back design: ``name`` (the back's slug, or ``double-faced``), its ``cards`` in print order.

    ``back`` is the shared back's file, ``None`` when each card has its own back (double-faced cards).
    """

    name: str
    cards: list[TableCard] = field(default_factory=list)
    back: str | None = None

    @property
    def size(self) -> int:
        """Cards in the deck, copies included."""
        return sum(c.count for c in self.cards)


@dataclass
class TablePieces:
    """One component's pieces: the ``component``, its image size ``px``, and ``pieces`` as distinct faces with counts."""

    component: Any
    px: tuple[int, int]
    pieces: list[TableCard]


def table_decks(
    job: SheetJob,
    items: Sequence[PrintItem],
    folder: Path,
    dpi: float,
    back_folder: Path | None = None,
) -> tuple[list[TableDeck], tuple[int, int]]:
    """Write each distinct front (into ``folder``) and back (into ``back_folder``, default ``folder``) once.

    Returns the decks (one per back design, in order of first use; a card
    printed several times is one :class:`TableCard` with its count) and the
    pixel size every face image has (the trim box at ``dpi``). File names
    are relative to their folder.
    """
    fronts: dict[str, str] = {}
    backs: dict[str, str] = {}
    for item in items:
        fronts.setdefault(job.faces.front_key(item), front_name(item))
        name = back_name(job, item)
        backs.setdefault(
            job.faces.back_key(item), name if name.startswith("back-") or name.endswith("-back") else name + "-back"
        )
    front_files = write_face_pngs(job, fronts, folder, dpi, digest=True)
    back_files = write_face_pngs(job, backs, back_folder or folder, dpi, digest=True)
    decks: dict[str, TableDeck] = {}
    seen: dict[tuple[str, str], TableCard] = {}
    for item in items:
        group, own = back_group(job, item)
        deck = decks.setdefault(group, TableDeck(group))
        front, back = front_files[job.faces.front_key(item)], back_files[job.faces.back_key(item)]
        if not own:
            deck.back = back
        known = seen.get((group, front))
        if known is None:
            seen[(group, front)] = known = TableCard(item, 0, front, back)
            deck.cards.append(known)
        known.count += 1
    return list(decks.values()), px_of(page_layout(job, with_bleed=False).page, dpi)


def table_pieces(
    components: Sequence[tuple[Any, Sequence[PrintItem]]],
    job_for: Callable[[Any], Any] | None,
    folder: Path,
    transform: Callable[[Any], Callable[[Image.Image], Image.Image] | None] = lambda component: None,
) -> list[TablePieces]:
    """Write the faces of every component's pieces into ``folder``; returns them per component.

    ``job_for(component)`` gives each component's print job; ``transform(component)`` an optional function applied
    to each image before it is written (a round token's transparency, say).
    """
    found: list[TablePieces] = []
    if job_for is None:
        return found
    for component, items in components:
        job = job_for(component)
        dpi = component_dpi(component)
        files = write_face_pngs(
            job, component_face_names(job, component, items), folder, dpi, digest=True, transform=transform(component)
        )
        pieces: dict[str, TableCard] = {}
        for item in items:
            front = files[job.faces.front_key(item)]
            piece = pieces.setdefault(front, TableCard(item, 0, front, files[job.faces.back_key(item)]))
            piece.count += 1
        found.append(TablePieces(component, px_of(component.size, dpi), list(pieces.values())))
    return found
