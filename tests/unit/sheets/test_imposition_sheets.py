"""The imposition's sheets (layout_sheets without HTML): the same faces in the same places as the printed sheets',
with equal faces on consecutive sheets held once."""

from __future__ import annotations

from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[3]


def test_the_imposition_sheets_place_the_same_faces_and_share_equal_ones(tmp_path, monkeypatch):
    import printer.sheets.assemble as assemble
    import printer.sheets.compose as compose
    from printer.cli import main

    calls = []
    original = assemble.build_sheets
    monkeypatch.setattr(assemble, "build_sheets", lambda job, items, layout, *a, **k: calls.append((job, items, layout)) or original(job, items, layout, *a, **k))  # fmt: skip
    with pytest.raises(SystemExit) as done:
        main(["--project", str(REPO), "build", "l5r", "--out", str(tmp_path), "--no-cache"])
    assert done.value.code == 0
    job, items, layout = calls[0]
    items = list(items) + [items[0]] * (3 * layout.per_sheet)  # three more sheets of one card: equal faces
    printed = compose.layout_sheets(job.faces, items, layout)
    imposed = compose.layout_sheets(job.faces, items, layout, with_html=False)
    assert len(printed) == len(imposed) > 2

    def place(face):
        return (face.key, face.x, face.y, face.w, face.h, face.rotate, face.bleed, face.full_bleed, face.safe)

    assert [[place(f) for f in s.faces] for s in printed] == [[place(f) for f in s.faces] for s in imposed]
    assert all(f.label and f.html for s in printed for f in s.faces)
    assert not any(f.label or f.html for s in imposed for f in s.faces)
    backs = [s for s in imposed if s.side == "back"]
    shared = [a is b for one, two in zip(backs, backs[1:]) for a, b in zip(one.faces, two.faces) if a == b]
    assert shared and all(shared)  # a back equal to the one the sheet before had in that slot is that face
    assert len({id(f) for s in imposed for f in s.faces}) < sum(len(s.faces) for s in imposed)


def test_the_plan_holds_the_drawing_of_equal_consecutive_sheets_of_a_side_once():
    from printer.sheets.impose import plan
    from printer.sheets.placed import Face, Sheet

    def sheet(side: str, *keys: str) -> Sheet:
        return Sheet(side, [Face("", 10 + 70 * i, 10, 63, 88, key=k) for i, k in enumerate(keys)])

    sheets = [sheet("front", "a", "b"), sheet("back", "z", "z"), sheet("front", "c", "d"), sheet("back", "z", "z")]
    sheets.append(sheet("back", "z"))  # the last sheet's backs: one card
    drawing = plan(sheets, {k: "/" + k for k in "abcdz"}, (69, 94), (3, 3), 297)
    assert [[name for name, _ in entries] for entries in drawing] == [
        ["/a", "/b"], ["/z", "/z"], ["/c", "/d"], ["/z", "/z"], ["/z"]
    ]  # fmt: skip
    assert drawing[3] is drawing[1] and drawing[2] is not drawing[0] and drawing[4] != drawing[3]
    assert drawing[0][0][1] == drawing[2][0][1]  # the same place on the sheet: the same operators


def test_a_faces_owners_are_given_in_the_order_added_each_once():
    from printer.cards.model import Card
    from printer.cards.record import Record
    from printer.sheets.faces.items import PrintItem
    from printer.sheets.faces.registry import FaceOwners, front_owner

    def card(title: str) -> Card:
        data = {"id": title.lower(), "title": title, "type": "holding"}
        return Card("l5r", data, Record(data, Path("cards.json"), "$"))

    one, two = card("One"), card("Two")
    first, again, other = PrintItem(one, "One"), PrintItem(one, "One"), PrintItem(two, "Two")
    owners = FaceOwners()
    owners.add("f1", front_owner(first), first)
    owners.add("f1", front_owner(again), again)  # a second copy of the card: the same owner
    assert owners.get("f1") == (("", "One", one),) and owners.get("f9") == () and owners.get("f9", None) is None
    owners.add("f1", front_owner(other), other)  # another card with the same face
    owners.add("f2", ("back 'x'", "back x", None))
    owners.add("f3", ("", "Two", two), first)  # not the item's own front: held as given
    assert owners.get("f1") == (("", "One", one), ("", "Two", two))
    assert owners.get("f2") == (("back 'x'", "back x", None),) and owners.get("f3") == (("", "Two", two),)
    assert len(owners) == 3
