r"""Card sheets: the faces of print items placed on sheets, fronts and backs, with their marks.

Fronts are printed n-up; each sheet of fronts is followed by its sheet of
backs, placed for the chosen duplex flip so that every back lands behind
its front (or, fold-over, beside it on the same sheet). :func:`layout_sheets` places the faces of
:class:`~printer.sheets.faces.items.PrintItem`\ s, keyed by a :class:`~printer.sheets.faces.registry.FaceRegistry`,
on the slots of a :class:`~printer.sheets.layout.SheetLayout`; :func:`marks_for` and :func:`outlines_for` give a
sheet's crop marks, cut lines and outlines. :mod:`printer.sheets.assemble` writes a job's PDF from them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from markupsafe import Markup

from printer.sheets.cutting import outline_path, registration_marks
from printer.sheets.faces.items import PrintItem
from printer.sheets.faces.registry import FaceRegistry
from printer.sheets.layout import Box, Segment, SheetLayout, Slot
from printer.sheets.options import PrintOptions
from printer.sheets.placed import Face, Sheet, card_bleed


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
    faces: FaceRegistry, items: Sequence[PrintItem], layout: SheetLayout, with_html: bool = True
) -> list[Sheet]:
    """Fronts and backs, alternating sheet by sheet, for duplex printing (or one page each, fold-over).

    ``faces.opts`` gives the duplex mode and flip, back offset, marks and safe area; faces are rendered once per
    distinct card through ``faces``. Without ``with_html``, each :class:`Face` has its key, an empty ``html`` and
    no label (the imposition's sheets: their faces' HTML is in ``faces.html``, once each), and a face equal to the
    one the sheet before had in the same slot is that same object.
    """
    opts = faces.opts
    w, h = layout.card
    slots = layout.slots()
    fold = layout.fold is not None
    sheets: list[Sheet] = []
    geometry: dict[int, tuple[Any, ...]] = {}  # by the number of cards on a sheet: every full sheet has the same
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
            html, key, label = faces.front(item) + (item.name,) if with_html else (_NO_HTML, faces.front_key(item), "")
            face = Face(html, slot.x, slot.y, w, h, slot.rotate, label, front_bleed, layout.bleed, opts.safe, key)
            front.faces.append(face if with_html else _as_before(last_fronts, i, face))
            if opts.duplex == "none":
                continue
            html, key, label = faces.back(item) + (item.name,) if with_html else (_NO_HTML, faces.back_key(item), "")
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


def _sheet_geometry(layout: SheetLayout, opts: PrintOptions, used: list[Slot], fold: bool) -> tuple[Any, ...]:
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
