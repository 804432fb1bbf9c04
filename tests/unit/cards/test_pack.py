"""A card's data packed while a build lays its faces out (:meth:`Card.pack`): read back whole, once, on first use."""

from __future__ import annotations

import copy
import json
import pickle
import re
from pathlib import Path

import pytest

from printer.cards.model import Card, pack_cards
from printer.cards.record import Record
from printer.cards.spreadsheet import SheetRecord

DATA = {"id": "kyuden", "title": "Kyūden ◆", "type": "Holding", "cost": 3, "legal": ["Ivory"], "art": None}


def holds(obj: object, name: str):
    """``obj``'s own ``name`` as held (a packed card's or record's ``data`` is not), else ``None``: not read back."""
    try:
        return object.__getattribute__(obj, name)
    except AttributeError:
        return None


def card(data: dict | None = None, record_type=Record, **extra) -> Card:
    data = copy.deepcopy(data or DATA)
    return Card("l5r", data, record_type(data, Path("cards.json"), "$.cards[4]", "l5r", **extra))


@pytest.mark.parametrize("record_type, extra", [(Record, {}), (SheetRecord, {"sheet": "Cards", "row": 7})])
def test_a_packed_card_holds_bytes_and_gives_back_the_same_data_once_read(record_type, extra):
    packed, plain = card(record_type=record_type, **extra), card(record_type=record_type, **extra)
    pack_cards([packed, None, packed])  # a card printed twice is packed once
    assert holds(packed, "data") is None and holds(packed.record, "data") is None
    assert isinstance(packed.record._packed, bytes) and packed._packed
    assert packed.id == "kyuden" and packed.data == DATA and packed == plain
    assert packed.data is packed.record.data  # one dict again, held by both
    assert packed.record._packed is None and not packed._packed
    assert packed.where == plain.where and packed.record.where(".cost") == plain.record.where(".cost")


def test_a_packed_card_survives_pickling_and_copying():
    packed = card()
    packed.pack()
    assert pickle.loads(pickle.dumps(packed)) == card()
    assert copy.deepcopy(packed).data == DATA


def test_a_card_packed_in_a_spill_file_reads_back_and_pickles_without_it(tmp_path):
    from printer.spill import Spill

    spill = Spill(tmp_path)
    cards = [card(dict(DATA, id=f"c{i}")) for i in range(3)]
    second = Card("l5r", cards[0].data, cards[0].record)
    pack_cards(cards + [second], spill)
    assert all(isinstance(c.record._packed, int) and c.record._spill is spill for c in cards)
    assert second._packed  # the record's pickle read back from the spill to compare
    copied = pickle.loads(pickle.dumps(cards[1]))
    assert isinstance(copied.record._packed, bytes) and copied.record._spill is None and copied == card(cards[1].data)
    assert copy.deepcopy(cards[2]).data["id"] == "c2"
    assert [c.data["id"] for c in cards] == ["c0", "c1", "c2"] and second.data is cards[0].data
    assert all(c.record._packed is None and c.record._spill is None for c in cards)


def test_a_full_spill_keeps_the_pickle_in_memory(tmp_path):
    from printer.spill import Spill

    class Full(Spill):
        def put(self, data):
            raise OSError(28, "No space left on device")

    packed = card()
    packed.pack(Full(tmp_path))
    assert isinstance(packed.record._packed, bytes) and packed.record._spill is None and packed.data == DATA


def test_a_card_whose_data_is_not_its_records_is_left_as_it_is():
    mine = card()
    mine.data = dict(DATA, title="Other")
    mine.pack()
    assert holds(mine, "data")["title"] == "Other" and holds(mine.record, "data") is not None


def test_two_cards_of_one_record_keep_one_dict():
    first = card()
    second = Card("l5r", first.data, first.record)
    pack_cards([first, second])
    assert first.data is second.data is first.record.data


def test_two_threads_reading_a_packed_card_get_the_same_dict():
    import sys
    import threading

    cards = [card() for _ in range(2000)]
    pack_cards(cards)
    seen: list[list[int]] = [[], []]
    errors: list[BaseException] = []

    def read(out: list[int]) -> None:
        try:
            out.extend(id(c.data) for c in cards)
        except BaseException as exc:  # noqa: BLE001
            errors.append(exc)

    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    try:
        threads = [threading.Thread(target=read, args=(out,)) for out in seen]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    finally:
        sys.setswitchinterval(interval)
    assert not errors and seen[0] == seen[1]


def test_data_that_cannot_be_pickled_stays_as_it_is():
    odd = card(dict(DATA, art=lambda: None))
    odd.pack()
    assert holds(odd, "data") is not None and holds(odd.record, "data") is not None
    assert odd.record._packed is None and not odd._packed


def test_other_missing_attributes_are_still_errors():
    packed = card()
    packed.pack()
    with pytest.raises(AttributeError, match="no attribute 'nothing'"):
        packed.nothing  # noqa: B018
    with pytest.raises(AttributeError, match="no attribute 'nothing'"):
        packed.record.nothing  # noqa: B018


@pytest.mark.slow
def test_a_build_that_packs_its_cards_warns_and_exports_as_one_that_does_not(tmp_path, run, monkeypatch):
    """The second build packs every card into a spill file and deflates every face's HTML (no budget) into it: the
    same warnings, saved object, PNGs and PDF text."""
    import hashlib

    import pdfplumber

    from printer.sheets import assemble
    from printer.sheets.faces.store import FaceHtml
    from tests.unit.sheets.test_print_production import HUGE, write_project

    cards = [{"id": "huge", "title": "HugeCard", "type": "A", "text": HUGE}]
    cards += [{"id": f"c{i}", "title": f"Card{i}", "type": "A", "text": f"Draw **{i}** cards."} for i in range(3)]
    root = write_project(tmp_path, cards)
    packed: list[str] = []

    def pack(found, spill):
        found = [c for c in found if c is not None]
        pack_cards(found, spill)
        packed.extend(c.record.packed() and c.id for c in found if isinstance(c.record._packed, int))  # in the spill

    stored_after: list[str] = []  # faces' HTML stored again once set aside (the serial path must not)
    set_aside, store = FaceHtml.set_aside, FaceHtml.__setitem__
    monkeypatch.setattr(FaceHtml, "set_aside", lambda self, spill: (setattr(self, "aside", True), set_aside(self, spill))[1])  # fmt: skip
    monkeypatch.setattr(FaceHtml, "__setitem__", lambda self, key, html: (stored_after.append(key) if getattr(self, "aside", False) else None, store(self, key, html))[1])  # fmt: skip
    outputs = {}
    for limit in (10_000, 1):
        monkeypatch.setattr(assemble, "PACK_CARDS_FROM", limit)
        monkeypatch.setattr(assemble, "pack_cards", pack)
        monkeypatch.setattr(FaceHtml, "RAW_BUDGET", 2 * 1024 * 1024 if limit > 1 else 0)
        out = tmp_path / f"out{limit}"
        exports = ("--export", "tts-save", "--export", "png")
        result = run("--project", root, "build", "t", "--out", out, *exports, "--no-cache")
        assert result.code == 0, result.err
        saved = json.loads((out / "t-tts" / "t.json").read_text())
        described = [c.get("Description") for o in saved["ObjectStates"] for c in o.get("ContainedObjects", [o])]
        pngs = {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(out.rglob("*.png"))}
        with pdfplumber.open(out / "t.pdf") as pdf:
            text = [page.extract_text() for page in pdf.pages]
        outputs[limit] = (result.err.splitlines()[-1:], described, pngs, text)
        assert re.search(
            r"cards\.json:\d+:\d+ \(\$\.cards\[0\]\.text\):\ warning:\ HugeCard:\ the\ text\ does\ not\ fit\ its\ box",
            result.err,
        )
    assert set(packed) == {"huge", "c0", "c1", "c2"}  # packed by the second build only
    assert stored_after == []
    assert outputs[1] == outputs[10_000] and "Draw **1** cards." in outputs[1][1]
    assert len(outputs[1][2]) >= 4 and any("Card1" in page for page in outputs[1][3])
