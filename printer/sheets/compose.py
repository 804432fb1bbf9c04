"""Card sheets: what to print (cards and copies), placed on sheets, written as one PDF.

Fronts are printed n-up; each sheet of fronts is followed by its sheet of
backs, placed for the chosen duplex flip so that every back lands behind
its front (or, fold-over, beside it on the same sheet). Jobs are laid out
in chunks of :data:`SHEETS_PER_CHUNK` sheets (reported through a progress
callback) while the PDF is written, one chunk in memory at a time
(:func:`printer.sheets.pdf.stream_pdf`). Each chunk is laid out once; text boxes
that overflow are shrunk on small one-face-per-page documents
(:mod:`printer.sheets.fit`) and only the sheets holding them laid out again. Art is
prepared once (:mod:`printer.sheets.images`). :mod:`printer.sheets.assemble` writes a job's PDF from its
faces, laid out once each and imposed on the sheets. ``bench/`` measures it.

The stages: :func:`items_for_cards` / :func:`items_for_counts` (what, how
many), :func:`sort_items` (in which order), :class:`PrintJob` (faces
rendered once per distinct card, sheets planned from a
:class:`~printer.sheets.layout.SheetLayout`, laid out with text fit, written).
"""

from __future__ import annotations

import hashlib
import json
import re
import time
import zlib
from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator, MutableMapping, Sequence
from dataclasses import dataclass, replace
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

from markupsafe import Markup

from printer.cards.model import Card, CardSet
from printer.limits import DEFAULT as DEFAULT_LIMITS
from printer.limits import over as over_limit
from printer.problems import WARNING, Problem, RenderError
from printer.project import Game, Project, bundled_root
from printer.sheets.cache import FaceCache, referenced_files
from printer.sheets.cutting import outline_path, registration_marks
from printer.sheets.fit import Fitter, find_overflows, page_overflows
from printer.sheets.images import ArtCache
from printer.sheets.layout import Box, Segment, SheetLayout, Slot, single_card_layout
from printer.sheets.options import PrintOptions
from printer.sheets.render import Face, Renderer, Sheet, card_bleed, project_view

if TYPE_CHECKING:
    from printer.spill import Spill

SHEETS_PER_CHUNK = 8
#: sheets per WeasyPrint document of the sheets' chrome (marks, guides, labels: light pages)
FIT_ROUNDS = 10


@dataclass(slots=True)  # no dict of its own: one a printed card
class PrintItem:
    """One printed card: a real ``card``, or a placeholder for ``name`` (``card`` is ``None``)."""

    card: Card | None
    name: str
    reason: str = ""
    back_card: Card | None = None
    front_html: Markup | None = None  # a ready-made face (e.g. a player aid, printer.book.aids) printed as it is
    back_html: Markup | None = None


def items_for_cards(cards: Iterable[Card], all_cards: CardSet | None = None) -> list[PrintItem]:
    """Each card as many times as its ``copies`` field says (default 1).

    A card that is another card's ``back_card`` prints only as that card's
    back (looked up in ``all_cards``), never as a front of its own.
    """
    cards = list(cards)
    lookup = all_cards if all_cards is not None else CardSet(cards[0].game if cards else "", cards)
    backs = {c["back_card"] for c in lookup if c.get("back_card")}
    return [
        PrintItem(card, card.name, back_card=lookup.by_id(card["back_card"]) if card.get("back_card") else None)
        for card in cards
        if card.id not in backs
        for _ in range(card.copies)
    ]


def items_for_counts(
    entries: Iterable[tuple[int, Card | None, str]], all_cards: CardSet | None = None
) -> list[PrintItem]:
    """``(count, card or None, name)`` triples, e.g. from a decklist, as print items (in that order).

    A card with a ``back_card`` prints that card (found in ``all_cards``) on its back.
    """
    items = []
    for count, card, name in entries:
        reason = "" if card else "not in the card database"
        back = None
        if card is not None and card.get("back_card") and all_cards is not None:
            back = all_cards.by_id(card["back_card"])
        items += [PrintItem(card, name, reason, back_card=back) for _ in range(max(count, 0))]
    return items


def _sort_value(item: PrintItem, name: str) -> tuple:
    if item.card is None:
        return (3, "")
    value = item.card.name if name == "name" else item.card.get(name)
    if isinstance(value, bool):
        value = int(value)
    if isinstance(value, (int, float)):
        return (0, float(value), "")
    if isinstance(value, list):
        value = ", ".join(str(v) for v in value)
    if value is None or value == "":
        return (2, "")
    text = str(value)
    number = re.match(r"^\s*(\d+)", text)
    return (1, float(number.group(1)) if number else float("inf"), text.casefold())


def sort_items(items: Sequence[PrintItem], fields: Sequence[str]) -> list[PrintItem]:
    """``items`` ordered by card ``fields`` (e.g. ``["set", "type", "title"]``); empty keeps them as listed.

    Numbers sort by value and before text, text case-insensitively (with a
    leading number by its value, so set number 9 comes before 10); a card
    without the field comes after those with it; placeholders come last.
    The sort is stable, so copies stay together.
    """
    if not fields:
        return list(items)
    return sorted(
        items, key=lambda item: tuple(_sort_value(item, f) for f in fields) + ((0, 0.0, item.name.casefold()),)
    )


def slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-") or "cards"


def allowed_roots(project: Project, extra: Iterable[Path] = ()) -> list[Path]:
    """Folders a build may read: the project, printer's bundled templates, and ``extra`` card folders."""
    return [project.root, bundled_root() / "templates", *extra]


def marks_for(layout: SheetLayout, opts: PrintOptions) -> list[Segment]:
    """The crop marks or cut lines ``opts.marks`` asks for on ``layout``.

    Full-length cut lines give way to one outline per card
    (:func:`outlines_for`) when corners are rounded or registration marks
    are printed; crop marks near registration marks are left out.
    """
    reg = registration_marks(opts.registration, layout.page, opts.registration_inset, opts.layout_version)
    if opts.marks == "crop":
        marks = layout.crop_marks(opts.mark_length, opts.mark_offset)
        if reg is not None:
            marks = [
                m for m in marks if reg.clear(Box(min(m.x1, m.x2), min(m.y1, m.y2), max(m.x1, m.x2), max(m.y1, m.y2)))
            ]
        return marks
    if opts.marks == "cut" and opts.corner_radius <= 0 and reg is None:
        return layout.cut_line_segments()
    return []


def outlines_for(layout: SheetLayout, opts: PrintOptions, slots: Sequence[Slot] | None = None) -> list[str]:
    """With ``--marks cut`` and rounded corners or registration marks: each card's closed cut line (SVG path, mm).

    ``slots`` are the cards to outline (default: every slot of ``layout``).
    """
    if opts.marks != "cut" or (opts.corner_radius <= 0 and opts.registration == "none"):
        return []
    return [outline_path(layout.trim_box(slot), opts.corner_radius) for slot in (slots or layout.slots())]


_NO_HTML = Markup()


def layout_sheets(
    renderer: Renderer,
    items: Sequence[PrintItem],
    layout: SheetLayout,
    flip: str = "long-edge",
    opts: PrintOptions | None = None,
    job: PrintJob | None = None,
    with_html: bool = True,
) -> list[Sheet]:
    """Fronts and backs, alternating sheet by sheet, for duplex printing (or one page each, fold-over).

    ``opts`` gives the duplex mode, back offset, marks and safe area
    (default: long-edge ``flip``, crop marks). Faces are rendered once per
    distinct card through ``job`` (a throw-away one when not given). Without
    ``with_html``, each :class:`Face` has its key, an empty ``html`` and no
    label (the imposition's sheets: their faces' HTML is in ``job.html``, once
    each), and a face equal to the one the sheet before had in the same slot is
    that same object.
    """
    opts = opts or PrintOptions(card=layout.card, bleed=layout.bleed, duplex=flip)
    job = job or PrintJob(renderer, opts)
    w, h = layout.card
    slots = layout.slots()
    fold = layout.fold is not None
    sheets: list[Sheet] = []
    geometry: dict[int, tuple] = {}  # by the number of cards on a sheet: every full sheet has the same
    last_fronts: list[Face | None] = [None] * layout.per_sheet  # the faces the sheet before had in each slot
    last_backs: list[Face | None] = [None] * layout.per_sheet
    for start in range(0, len(items), layout.per_sheet):
        number = start // layout.per_sheet + 1
        chunk = items[start : start + layout.per_sheet]
        if len(chunk) not in geometry:
            geometry[len(chunk)] = _sheet_geometry(layout, opts, slots[: len(chunk)], fold)
        used, mirrored, full, both, front_bleeds, back_bleeds, marks = geometry[len(chunk)]
        front = Sheet("front", number=number)
        back = Sheet("back", number=number)
        for i, (item, slot, (bslot, rotate), front_bleed, back_bleed) in enumerate(
            zip(chunk, used, mirrored, front_bleeds, back_bleeds)
        ):
            html, key, label = job.front(item) + (item.name,) if with_html else (_NO_HTML, job.front_key(item), "")
            face = Face(html, slot.x, slot.y, w, h, slot.rotate, label, front_bleed, layout.bleed, opts.safe, key)
            front.faces.append(face if with_html else _as_before(last_fronts, i, face))
            if opts.duplex == "none":
                continue
            html, key, label = job.back(item) + (item.name,) if with_html else (_NO_HTML, job.back_key(item), "")
            dx, dy = (0.0, 0.0) if fold else opts.back_offset
            face = Face(html, bslot.x + dx, bslot.y + dy, w, h, rotate, label, back_bleed, layout.bleed, opts.safe, key)
            (front if fold else back).faces.append(face if with_html else _as_before(last_backs, i, face))
        if fold:
            W, H = layout.page
            vertical = layout.fold == "vertical"
            front.marks = [m for m in marks if (min(m.x1, m.x2) < W / 2 if vertical else min(m.y1, m.y2) < H / 2)]
            front.guides = [Segment(W / 2, 0, W / 2, H) if layout.fold == "vertical" else Segment(0, H / 2, W, H / 2)]
            front.outlines = outlines_for(layout, opts, used)
            sheets.append(front)
        else:
            front.marks = list(marks)
            front.outlines = outlines_for(full, opts)
            reg = registration_marks(opts.registration, layout.page, opts.registration_inset, opts.layout_version)
            front.fills = list(reg.ink) if reg is not None else []
            sheets += [front] + ([back] if opts.duplex != "none" else [])
    return sheets


def _as_before(last: list[Face | None], slot: int, face: Face) -> Face:
    """``face``, or the equal face the sheet before had in ``slot`` (the imposition's sheets, without HTML or label,
    share them: a catalogue's backs are the same few faces sheet after sheet), which ``last`` then holds."""
    before = last[slot]
    if before is not None and before == face:
        return before
    last[slot] = face
    return face


def _sheet_geometry(layout: SheetLayout, opts: PrintOptions, used: list[Slot], fold: bool) -> tuple:
    """What every sheet of ``len(used)`` cards shares: the slots used, their back slots and turns, the layout the
    marks follow, the fold-over layout, each front's and back's bleed, and the marks."""
    mirrored = [layout.back_slot(slot, opts.flip) for slot in used]
    both = SheetLayout(
        layout.page,
        layout.card,
        layout.cols,
        layout.rows,
        layout.gutter,
        layout.margin,
        layout.bleed,
        explicit=tuple(used + ([m for m, _ in mirrored] if fold else [])),
    )
    backs_layout = SheetLayout(
        layout.page,
        layout.card,
        layout.cols,
        layout.rows,
        layout.gutter,
        layout.margin,
        layout.bleed,
        explicit=tuple(m for m, _ in mirrored),
    )
    full = layout if len(used) == layout.per_sheet and not fold and layout.explicit is None else both
    front_bleeds = [card_bleed(full.bleed_extents(slot), slot.rotate) for slot in used]
    back_bleeds = [
        card_bleed(both.bleed_extents(bslot) if fold else backs_layout.bleed_extents(bslot), rotate)
        for bslot, rotate in mirrored
    ]
    return used, mirrored, full, both, front_bleeds, back_bleeds, marks_for(both if fold else full, opts)


class FaceHtml(MutableMapping[str, Markup]):
    """Each distinct face's HTML by face key (:attr:`PrintJob.html`), held as UTF-8 bytes, compressed past
    :attr:`RAW_BUDGET` and, once :meth:`set_aside` is called, kept in a spill file; reading one gives a new
    ``Markup``.

    Past the budget a face is kept deflated (zlib, raw deflate, level 1) with the first face stored as a preset
    dictionary: the faces of one game share most of their markup, so a card front of the bundled games (about
    2.3 KB as a Python string, 1.1 KB as UTF-8) takes about 0.4 KB (9,000 cards: about 5 MB instead of 10), and a
    handle in the spill file (:class:`printer.spill.Spill`) about 40 bytes. Deflating one takes about 25
    microseconds and inflating one 6: within the budget (a project of a few hundred cards, whose every build
    composes all its faces, an edit's too) faces are held as they are."""

    #: raw deflate (no header) with a 4 KB window: the window holds the dictionary's last 4 KB
    WBITS, LEVEL, MEMORY = -12, 1, 4
    #: bytes of faces held as they are before the next ones are deflated
    RAW_BUDGET = 2 * 1024 * 1024

    def __init__(self) -> None:
        # b"=" + the UTF-8 bytes, b"z" + them deflated, or the handle of them deflated in the spill file
        self._data: dict[str, bytes | int] = {}
        self._dictionary = b""
        self._raw = 0  # bytes held as they are
        self._spill: Spill | None = None
        self._spilling = False  # whether faces deflated from now on go to the spill file

    def set_aside(self, spill: Spill) -> None:
        """Keep every face held, deflated, and those deflated from now on, in ``spill`` (a job's first spill only:
        faces already set aside are read from it); the budget is free again for faces stored later (an edit's).
        When the spill cannot take more (a full disk), the rest stay in memory."""
        if self._spill is None:
            self._spill = spill
            self._spilling = True
        for key, held in self._data.items():
            if not self._spilling or not isinstance(held, bytes):
                continue
            data = held[1:]
            if held[:1] == b"=":  # as it is: deflated first
                self._raw -= len(data)
                data = self._deflate(data)
            self._data[key] = self._put_aside(data)

    def _put_aside(self, deflated: bytes) -> bytes | int:
        assert self._spill is not None
        try:
            return self._spill.put(deflated)
        except OSError:
            self._spilling = False
            return b"z" + deflated

    def __getitem__(self, key: str) -> Markup:
        held = self._data[key]
        if isinstance(held, int):
            assert self._spill is not None
            return self._inflate(self._spill.get(held))
        if held[:1] == b"z":
            return self._inflate(memoryview(held)[1:])
        return Markup(str(memoryview(held)[1:], "utf-8", "surrogatepass"))

    def _inflate(self, deflated: bytes | memoryview) -> Markup:
        unpack = zlib.decompressobj(self.WBITS, zdict=self._dictionary)
        return Markup((unpack.decompress(deflated) + unpack.flush()).decode("utf-8", "surrogatepass"))

    def __setitem__(self, key: str, html: str) -> None:
        if key in self._data:
            del self[key]
        data = str(html).encode("utf-8", "surrogatepass")
        if not self._dictionary:
            self._dictionary = data[-(1 << -self.WBITS) :] or b" "
        if self._raw + len(data) <= self.RAW_BUDGET:
            self._raw += len(data)
            self._data[key] = b"=" + data
            return
        deflated = self._deflate(data)
        self._data[key] = self._put_aside(deflated) if self._spilling else b"z" + deflated

    def _deflate(self, data: bytes) -> bytes:
        pack = zlib.compressobj(self.LEVEL, zlib.DEFLATED, self.WBITS, self.MEMORY, zdict=self._dictionary)
        return pack.compress(data) + pack.flush()

    def __delitem__(self, key: str) -> None:
        held = self._data.pop(key)
        if isinstance(held, bytes) and held[:1] == b"=":
            self._raw -= len(held) - 1

    def __contains__(self, key: object) -> bool:
        return key in self._data

    def __iter__(self) -> Iterator[str]:
        return iter(self._data)

    def __len__(self) -> int:
        return len(self._data)


#: what prints a face, for warnings: ``(where, name, card or None)``; a card's ``where`` is ``""`` (:func:`owner_where`)
Owner = tuple[str, str, Card | None]


def front_owner(item: PrintItem) -> Owner:
    """The owner of ``item``'s front: ``("", name, card)`` for a card, ``(name, name, None)`` for a placeholder."""
    return ("" if item.card else item.name, item.name, item.card)


class FaceOwners:
    """What prints each face, by face key (:attr:`PrintJob.owners`): :meth:`get` gives a face's owners in the order
    they were added.

    A face whose only owner is the front of one print item (most faces) is held as that item, the entry made
    when asked for (:func:`front_owner`): two tuples a face otherwise, 1 MB for 9,000 cards."""

    def __init__(self) -> None:
        self._items: dict[str, PrintItem] = {}  # faces owned by one item's front alone
        self._many: dict[str, tuple[Owner, ...]] = {}

    def add(self, key: str, owner: Owner, item: PrintItem | None = None) -> None:
        """Add ``owner`` to the face ``key``'s owners unless it is one; ``item``: the print item whose front
        ``owner`` is, if any."""
        owners = self.get(key)
        if owner in owners:
            return
        if not owners and item is not None and front_owner(item) == owner:
            self._items[key] = item
            return
        self._items.pop(key, None)
        self._many[key] = owners + (owner,)

    def get(self, key: str, default: tuple[Owner, ...] = ()) -> tuple[Owner, ...]:
        """The owners of the face ``key``, or ``default`` when it has none."""
        item = self._items.get(key)
        if item is not None:
            return (front_owner(item),)
        return self._many.get(key, default)

    def __len__(self) -> int:
        return len(self._items) + len(self._many)


def owner_where(owner: Owner) -> str:
    """Where the owner of a face (an entry of :attr:`PrintJob.owners`) is, for a warning: a card's ``where`` (not
    held in the entry: a string a card), else the place the entry names."""
    where, _, card = owner
    return card.where if card is not None and not where else where


def html_digest(html: str) -> bytes:
    """What tells one face's HTML from another's in :attr:`PrintJob.keys`: a 16-byte BLAKE2b digest of it (the HTML
    itself as the key held a second copy of every face's, 19 MB for 9,000 cards)."""
    return hashlib.blake2b(html.encode("utf-8", "surrogatepass"), digest_size=16).digest()


class PrintJob:
    """Renders the faces of one print job once each and lays out documents with text fit.

    ``renderer`` renders the game's templates; ``opts`` are the print
    settings. ``front_key(item)`` / ``back_key(item)`` return the face key,
    one per distinct face, rendering its HTML the first time; ``front(item)``
    / ``back(item)`` return ``(html, key)``. ``fitter`` keeps the text-fit font sizes, shared
    by the PDF and every export; ``owners`` (:class:`FaceOwners`) gives a
    face key's owners, the cards that print it, ``(where, name, card)`` each
    (for warnings; a card's ``where`` is ``""``: :func:`owner_where` gives it).
    """

    def __init__(self, renderer: Renderer, opts: PrintOptions, base: Path | None = None):
        self.renderer = renderer
        self.opts = opts
        self.base = base or Path.cwd()
        self.fitter = Fitter()
        self.html = FaceHtml()
        self.keys: dict[bytes, str] = {}  # a face's HTML (its digest: :func:`html_digest`) -> its key
        #: characters of HTML of the distinct faces composed, and how many the job may compose (the project's
        #: ``limits.face_html_total_chars``, set by :func:`make_job`)
        self.html_chars = 0
        self.max_html_chars = DEFAULT_LIMITS.face_html_total_chars
        self.owners = FaceOwners()
        self._fronts: dict[object, str] = {}  # a card's (or placeholder's) front -> its face key
        self._backs: dict[object, str] = {}
        self._given: list[Markup] = []  # HTML given with an item, known by its id(): kept, so that no other has it
        self.problems: list[Problem] = []
        #: CSS added to every document (the ICC profile of a PDF/X output) and options for WeasyPrint
        self.extra_css = ""
        self.render_options: dict = {}
        self.write_options: dict = {}
        #: what the job cost: layouts and pages laid out (sheets, again after text fit, text-fit pages), seconds
        self.stats: dict[str, float] = defaultdict(int)  # counts, and seconds spent
        self._measured: set[str] = set()  # faces fitted by fit_faces
        self.cache_keys: dict[str, str] = {}  # face key -> its key in the face cache (printer.sheets.cache)
        #: the face cache, also keeping each card's front HTML (set by the build when it uses the cache)
        self.face_cache: FaceCache | None = None
        self._templates: str | None = None  # the signature of the game's templates and options
        self._existing: dict[Path, bool] = {}  # files the faces' HTML names: whether each exists (this job's view)
        self._base_url = self.base.as_uri() + "/"

    def fresh(self) -> PrintJob:
        """A new job on the same renderer, options and output settings (a worker's job for one batch of faces)."""
        job = PrintJob(self.renderer, self.opts, self.base)
        job.extra_css, job.render_options, job.write_options = self.extra_css, self.render_options, self.write_options
        return job

    def _key(self, html: Markup, owner: Owner, item: PrintItem | None = None) -> str:
        text = html_digest(html)
        key = self.keys.get(text)
        if key is None:
            self.html_chars += len(html)
            if self.html_chars > self.max_html_chars:
                problem = over_limit(
                    "face_html_total_chars",
                    self.html_chars,
                    self.max_html_chars,
                    owner_where(owner),
                    "the HTML of the faces of this build, in characters, up to this one",
                )
                raise RenderError(problem.message, [problem])
            key = self.keys[text] = f"f{len(self.keys) + 1}"
            self.html[key] = html
        self.owners.add(key, owner, item)
        return key

    def front(self, item: PrintItem) -> tuple[Markup, str]:
        """``(html, key)`` of the item's front (:meth:`front_key`; the HTML read back from :attr:`html`)."""
        key = self.front_key(item)
        return self.html[key], key

    def back(self, item: PrintItem) -> tuple[Markup, str]:
        """``(html, key)`` of the item's back (:meth:`back_key`)."""
        key = self.back_key(item)
        return self.html[key], key

    def front_key(self, item: PrintItem) -> str:
        """The face key of the item's front, its HTML rendered and kept in :attr:`html` the first time."""
        ident: object = (  # a card's by its id alone (a string: no tuple a card)
            ("html", id(item.front_html))
            if item.front_html is not None
            else (item.card.id if item.card is not None else ("placeholder", item.name, item.reason))
        )
        known = self._fronts.get(ident)
        if known is not None:
            return known
        if item.front_html is not None:
            html = item.front_html
        elif item.card is not None:
            html = self._rendered_front(item.card)
        else:
            html = self.renderer.placeholder(item.name, item.reason)
        return self._remember(self._fronts, ident, html, front_owner(item), item.front_html, item)

    def _remember(
        self,
        table: dict[object, str],
        ident: object,
        html: Markup,
        owner: Owner,
        given: Markup | None,
        item: PrintItem | None = None,
    ) -> str:
        """``html``'s face key, kept in ``table`` under ``ident`` (a front or a back); ``given``, the HTML an item
        came with, is kept alive while its ``id()`` is part of ``ident``; ``item``: the item whose front it is."""
        table[ident] = key = self._key(html, owner, item)
        if given is not None:
            self._given.append(given)
        return key

    def _rendered_front(self, card: Card) -> Markup:
        """The card's front HTML: from the face cache's HTML store when the card's data, the game's templates,
        the options and the card's art are as when it was rendered (the renderer's warnings come back too)."""
        cache = self.face_cache
        if cache is None:
            return self.renderer.front(card)
        if self._templates is None:
            from printer import __version__
            from printer.sheets.uptodate import signature

            dirs = self.renderer.game.template_dirs
            game = self.renderer.game
            parts = [__version__, game.id, game.settings, self.renderer.bleed, self.renderer.card_size, self.opts]
            parts += [self.renderer.component, self.renderer.project]
            if self.renderer.lang is not None:  # a build in one language (the source's is in the game's settings)
                parts.append(("lang", self.renderer.lang))
            self._templates = signature(parts, [], dirs) or ""
        art = card.art_path()
        stat: tuple[int, int] | str | None = None
        if art is not None:
            try:
                stat = (art.stat().st_size, art.stat().st_mtime_ns)
            except OSError:
                stat = "missing"
        data = json.dumps(card.data, sort_keys=True, ensure_ascii=False, default=str)
        key = hashlib.sha256(f"{self._templates}\0{card.where}\0{stat}\0{data}".encode()).hexdigest()
        found = cache.get_html(key)
        if found is not None and all(map(self._exists, referenced_files(found[0], self._base_url))):
            self.renderer.problems.extend(p for p in found[1] if p not in self.renderer.problems)
            return Markup(found[0])
        before = len(self.renderer.problems)
        html = self.renderer.front(card)
        cache.put_html(key, str(html), self.renderer.problems[before:])
        return html

    def _exists(self, path: Path) -> bool:
        """Whether ``path`` exists, asked once per job (900 faces name the same icons)."""
        found = self._existing.get(path)
        if found is None:
            found = self._existing[path] = path.exists()
        return found

    def back_ident(self, item: PrintItem) -> tuple:
        if item.back_html is not None:
            return ("html", id(item.back_html))
        if item.back_card is not None:
            return ("card", item.back_card.id)
        if item.card is not None and self.renderer.double_sided(item.card):
            return ("self", item.card.id)
        return ("back", self.renderer.back_name(item.card))

    def back_key(self, item: PrintItem) -> str:
        """The face key of the item's back (a back card's front, a shared back or HTML given with the item)."""
        ident = self.back_ident(item)
        known = self._backs.get(ident)
        if known is not None:
            return known
        owner: Owner
        if item.back_html is not None:
            html, owner = item.back_html, (item.name, item.name, None)
        elif item.back_card is not None:
            html = self.renderer.front(item.back_card)
            owner = ("", item.back_card.name, item.back_card)
        elif ident[0] == "self" and item.card is not None:  # a double-sided card: itself again, as its back
            html = self.renderer.front(item.card, side="back")
            owner = ("", item.card.name, item.card)
        else:
            html, owner = self.renderer.back(ident[1]), (f"back {ident[1]!r}", f"back {ident[1]}", None)
        return self._remember(self._backs, ident, html, owner, item.back_html)

    # -- layout with text fit --------------------------------------------------

    def fitted(self, face: Face) -> Face:
        """``face`` with the text-fit font sizes chosen so far written into its HTML."""
        if not face.key:
            return face
        html = self.fitter.apply(face.key, face.html)
        return face if html is face.html else replace(face, html=html)

    def document_html(self, sheets: list[Sheet], layout: SheetLayout, title: str = "", label: bool = True) -> str:
        """The HTML of ``sheets`` (one page each), faces at their fitted sizes."""
        fitted = [replace(sheet, faces=[self.fitted(f) for f in sheet.faces]) for sheet in sheets]
        return self.renderer.document(fitted, layout, marks=False, title=title, css=self.extra_css, label=label)

    def _fit_faces(self, keys: set[str], roots: list[Path]) -> None:
        """Shrink the fit boxes of the faces ``keys`` on a one-face-per-page document until each fits or is at its minimum."""
        from printer.sheets.pdf import render_documents  # imports WeasyPrint (0.4 s): not before a layout needs it

        layout = single_card_layout(self.opts.card, 0.0)
        slot = layout.slots()[0]
        pending = set(keys)
        for _ in range(FIT_ROUNDS):
            if not pending:
                break
            sheets = [
                Sheet("front", [Face(self.html[k], slot.x, slot.y, *self.opts.card, key=k, safe=self.opts.safe)], i + 1)
                for i, k in enumerate(sorted(pending))
            ]
            html = self.document_html(sheets, layout, label=False)
            documents, _ = render_documents([html], roots, self.base, "text fit", **self.render_options)
            self.stats["fit layouts"] += 1
            self.stats["fit pages"] += len(sheets)
            pending = self.fitter.shrink(find_overflows(documents[0]), pending)
        for key, (lo, _) in self.fitter.bounds.items():
            if lo is not None and key[0] in keys:
                self.fitter.sizes[key] = lo  # the largest size seen to fit, should the search stop early

    def fit_faces(self, faces: Sequence[tuple[Markup, Owner]]) -> list[Markup]:
        """Each face's HTML with its text fitted, as on card sheets, for printing it anywhere else (rules books).

        ``faces`` are ``(html, owner)``, the owner ``(where, name, card or
        None)`` naming the card in warnings; faces are laid out one per page
        at the job's card size and their fit boxes shrunk as in :meth:`lay_out`.
        Boxes that do not fit even at their minimum are in :meth:`fit_problems`.
        """
        keys = [self._key(html, owner) for html, owner in faces]
        todo = {k for k in keys if "data-fit" in self.html[k]} - self._measured
        if todo:
            self._fit_faces(todo, self.renderer.allowed_roots)
            self._measured |= todo
        return [self.fitter.apply(k, self.html[k]) for k in keys]

    def lay_out(self, chunk: list[Sheet], layout: SheetLayout, title: str = "", label: bool = True, **options):
        """Lay out ``chunk`` (one page per sheet) with text fit; returns ``(document, problems)``.

        The chunk is laid out once at the sizes known so far. Fit boxes that
        overflow are shrunk on one-face-per-page documents of just those faces
        (:meth:`_fit_faces`), then only the sheets that hold them are laid out
        again and their pages put in place of the first ones. A box that still
        overflows at its minimum is remembered for :meth:`fit_problems`.
        """
        roots = self.renderer.allowed_roots
        where = title or "build"
        options = {**self.render_options, **options}
        started = time.perf_counter()
        document, problems = self._document_of(chunk, layout, title, label, options)
        self.stats["layouts"] += 1
        self.stats["pages"] += len(chunk)
        try:
            overflows = page_overflows(document.pages)
        except RuntimeError as exc:
            return document, problems + [Problem(where, str(exc), severity=WARNING, code="text-fit")]
        todo = {o.face for o in overflows if (o.face, o.name) not in self.fitter.unfit}
        if todo and all(len(sheet.faces) == 1 for sheet in chunk):  # face pages: fit on the pages themselves
            document, more = self._fit_face_pages(document, chunk, overflows, todo, layout, title, label, options)
            problems += more
            overflows = page_overflows(document.pages)
        elif todo:
            self.fitter.shrink([o for o in overflows if o.face in todo])
            self._fit_faces({o.face for o in overflows if (o.face, o.name) not in self.fitter.unfit}, roots)
            again = [i for i, sheet in enumerate(chunk) if any(f.key in todo for f in sheet.faces)]
            redone, more = self._document_of([chunk[i] for i in again], layout, title, label, options)
            problems += more
            self.stats["layouts"] += 1
            self.stats["pages again"] += len(again)
            pages = list(document.pages)
            if len(redone.pages) == len(again) and len(pages) == len(chunk):
                for i, page in zip(again, redone.pages):
                    pages[i] = page
                document.pages = pages
            else:  # a sheet did not make exactly one page: lay the whole chunk out again
                document, more = self._document_of(chunk, layout, title, label, options)
                problems += [p for p in more if p not in problems]
            overflows = page_overflows(document.pages)
        for over in overflows:
            self.fitter.unfit.setdefault((over.face, over.name), over)
        self.stats["layout seconds"] += time.perf_counter() - started
        return document, problems

    def _fit_face_pages(self, document, chunk, overflows, todo, layout, title, label, options):
        """Text fit for a chunk of face pages (one face a page): the search of :meth:`_fit_faces`, each round laid
        out on the faces' own pages rather than on pages of the trim size, so that a face whose last round was at
        its final sizes keeps that round's page and is not laid out once more (a one-card edit whose text
        overflows: 5 layouts -> 3 or 4). Returns ``(document, problems)``, the chunk's pages with the fitted ones
        in place."""
        problems: list[Problem] = []
        keys = [sheet.faces[0].key for sheet in chunk]
        pages = list(document.pages)
        tried: dict[int, tuple] = {}  # page index -> the sizes its face was laid out at in the last round
        pending = self.fitter.shrink([o for o in overflows if o.face in todo])
        pending = {o.face for o in overflows if (o.face, o.name) not in self.fitter.unfit} & pending
        for _ in range(FIT_ROUNDS):
            if not pending:
                break
            indexes = [i for i, key in enumerate(keys) if key in pending]
            laid_out, more = self._document_of([chunk[i] for i in indexes], layout, title, label, options)
            laid = list(laid_out.pages)
            problems += more
            self.stats["fit layouts"] += 1
            self.stats["fit pages"] += len(indexes)
            if len(laid) != len(indexes):  # a face did not make exactly one page: the general way
                self._fit_faces(pending, self.renderer.allowed_roots)
                tried = {}
                break
            for i, page in zip(indexes, laid):
                pages[i], tried[i] = page, self._sizes_of(keys[i])
            pending = self.fitter.shrink(page_overflows(laid), pending)
        for key, (lo, _) in self.fitter.bounds.items():
            if lo is not None and key[0] in todo:
                self.fitter.sizes[key] = lo  # the largest size seen to fit, should the search stop early
        again = [i for i, key in enumerate(keys) if key in todo and tried.get(i) != self._sizes_of(key)]
        if again:
            redone, more = self._document_of([chunk[i] for i in again], layout, title, label, options)
            problems += more
            self.stats["layouts"] += 1
            self.stats["pages again"] += len(again)
            if len(redone.pages) != len(again):  # a sheet did not make exactly one page: lay the whole chunk out again
                full, more = self._document_of(chunk, layout, title, label, options)
                return full, problems + more
            for i, page in zip(again, redone.pages):
                pages[i] = page
        document.pages = pages
        return document, problems

    def _document_of(self, sheets: list[Sheet], layout: SheetLayout, title: str, label: bool, options: dict):
        """``sheets`` laid out at the text-fit sizes chosen so far, as one WeasyPrint document:
        ``(document, problems)``."""
        from printer.sheets.pdf import render_documents

        documents, problems = render_documents(
            [self.document_html(sheets, layout, title, label)],
            self.renderer.allowed_roots,
            self.base,
            title or "build",
            **options,
        )
        return documents[0], problems

    def _sizes_of(self, face: str) -> tuple:
        """The text-fit sizes chosen so far for ``face``'s boxes."""
        return tuple(sorted((name, size) for (f, name), size in self.fitter.sizes.items() if f == face))

    def pdf(
        self,
        chunks: list[list[Sheet]],
        layout: SheetLayout,
        title: str = "",
        label: bool = True,
        progress: Callable[[int], None] | None = None,
        fit_problems: bool = True,
        **options,
    ) -> tuple[bytes, list[Problem]]:
        """The PDF of ``chunks`` of sheets (one page per sheet), text fitted; returns ``(pdf bytes, problems)``.

        Chunks are laid out one at a time while the PDF is written
        (:func:`printer.sheets.pdf.stream_pdf`), so memory holds one chunk's pages,
        not the whole job's. ``progress`` is called with the index of each
        chunk laid out. ``fit_problems`` adds :meth:`fit_problems` to the
        problems. ``options`` go to WeasyPrint's ``render``.
        """
        problems: list[Problem] = []

        def part(index: int, chunk: list[Sheet]):
            document, found = self.lay_out(chunk, layout, title, label, **options)
            problems.extend(p for p in found if p not in problems)
            if progress:
                progress(index)
            return document

        from printer.sheets.pdf import stream_pdf

        started = time.perf_counter()
        data, more = stream_pdf(
            [(len(chunk), partial(part, i, chunk)) for i, chunk in enumerate(chunks)],
            title or "build",
            **self.write_options,
        )
        self.stats["pdf seconds"] += time.perf_counter() - started
        return data, problems + more + (self.fit_problems() if fit_problems else [])

    def fit_problems(self) -> list[Problem]:
        """A warning for each fit box that overflows even at its minimum size, naming each card and field."""
        problems = []
        for (face, name), over in sorted(self.fitter.unfit.items()):
            for owner in self.owners.get(face, ()):
                _, card_name, card = owner
                at = self.renderer.field_where(card, name) if card is not None and name in card else owner_where(owner)
                problem = Problem(
                    at,
                    f"{card_name}: the {name} does not fit its box even at {over.min_pt:g}pt "
                    f"(the template's minimum); about {(over.ratio - 1) * 100:.0f}% too much",
                    "shorten the text, or lower data-fit-min in the template",
                    WARNING,
                    "text-overflow",
                )
                if problem not in problems:
                    problems.append(problem)
        return problems


def make_job(
    project: Project,
    game: Game,
    opts: PrintOptions,
    extra_roots: Iterable[Path] = (),
    cmyk_profile: Path | None = None,
    lang: str | None = None,
) -> PrintJob:
    """A :class:`PrintJob` for ``game`` with art prepared into ``build/.cache/art`` of the project; ``lang``: the
    language every face is marked with (:attr:`Renderer.lang`; ``None``: no mark, as a build without ``--lang``)."""
    cache = ArtCache(project.build_dir / ".cache" / "art", cmyk_profile=cmyk_profile)
    renderer = Renderer(
        game,
        allowed_roots(project, extra_roots),
        art_cache=cache,
        bleed=opts.bleed,
        card_size=opts.card,
        base=project.root,
    )
    renderer.max_chars = project.limits.face_html_chars
    renderer.project = project_view(project.settings)
    from printer.cards.translations import languages

    renderer.lang, renderer.source_lang = lang, languages(project, game.id)[0]
    job = PrintJob(renderer, opts, project.root)
    job.max_html_chars = project.limits.face_html_total_chars
    if cmyk_profile is not None:
        from printer.sheets.export.pdfx import use_cmyk_profile

        use_cmyk_profile(job, cmyk_profile)
    return job


def select(cards: CardSet, only: Sequence[str]) -> tuple[list[Card], list[Problem]]:
    """The cards named by id or name in ``only`` (all cards when empty)."""
    if not only:
        return list(cards), []
    chosen, unmatched = cards.select(only)
    problems = [
        Problem(
            "--only",
            f"no card with id or name {term!r}",
            ("did you mean " + " or ".join(repr(n) for n in cards.closest_names(term)) + "?")
            if cards.closest_names(term)
            else None,
            code="unknown-card",
        )
        for term in unmatched
    ]
    return chosen, problems
