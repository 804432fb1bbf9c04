"""What later builds (a watch's saves; the chrome also in a new process, through the face cache) do not do again:
render the sheets' chrome (marks, guides, labels), unless something it is made from changed (the sheets, the sheet
template, the title), and hash the last PDF, unless another hand changed it."""

from __future__ import annotations

import os
from pathlib import Path

import pdfplumber
import pytest

from printer import api
from printer.paths import bundled_root, cache_folder
from printer.sheets.cache import FaceCache
from printer.sheets.sheet_documents import SheetDocuments
from tests.unit.sheets.test_cache import _build, _cards, _project, _write_cards


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = _project(tmp_path / "p")
    _build(root)
    return root


def _chrome_renders(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """A list that grows by the number of sheets each time the chrome's HTML (sheets without faces) is rendered."""
    calls: list[int] = []
    document = SheetDocuments.document

    def counted(self, sheets, layout, marks=True, *args, **kwargs):  # type: ignore[no-untyped-def]
        if not marks and not any(sheet.faces for sheet in sheets):
            calls.append(len(sheets))
        return document(self, sheets, layout, marks, *args, **kwargs)

    monkeypatch.setattr(SheetDocuments, "document", counted)
    return calls


def _save(project: Path, runtime: api.Runtime, edit: dict[int, str]) -> api.GameBuild:
    cards = _cards(project)
    for index, text in edit.items():
        if index >= len(cards):
            cards.append({"id": f"n{index}", "title": f"New {index}", "type": "A", "text": text})
        else:
            cards[index]["text"] = text
    _write_cards(project, cards)
    loaded = api.load_project(project)
    request = api.BuildRequest(out_dir=project / "out", jobs=1)
    outcome = api.build_game(loaded, loaded.game("t"), request, None, runtime, "later")
    assert outcome.ok, [str(p) for p in outcome.problems]
    return outcome


def _text(pdf: Path) -> str:
    with pdfplumber.open(pdf) as opened:
        return "".join(page.extract_text() or "" for page in opened.pages)


@pytest.mark.slow
def test_a_save_renders_the_chrome_again_only_when_what_it_is_made_from_changed(project, monkeypatch):
    renders = _chrome_renders(monkeypatch)
    loaded = api.load_project(project)
    request = api.BuildRequest(out_dir=project / "out", jobs=1)
    with api.Runtime().open(loaded, request) as runtime:  # a watch's: its face cache kept from save to save
        first = _save(project, runtime, {3: "Saved once."})
        assert len(renders) == 0  # the key the cold build kept in the face cache: not rendered in a new process
        second = _save(project, runtime, {3: "Saved twice."})
        assert len(renders) == 0 and "Saved twice." in _text(second.target)  # the same sheets: not rendered
        assert second.stats["faces laid out"] == 1 and first.target == second.target

        more = _save(project, runtime, {index: f"Added {index}." for index in range(6, 12)})
        assert renders == [4]  # more sheets (two fronts, two backs): rendered again
        assert "Added 11." in _text(more.target)

        template = project / "templates" / "t" / "sheet.html.j2"  # the game's own sheet template now
        template.write_text((bundled_root() / "templates" / "sheet.html.j2").read_text(encoding="utf-8"))
        _save(project, runtime, {3: "Saved thrice."})
        assert len(renders) == 2
        stat = template.stat()
        os.utime(template, ns=(stat.st_atime_ns, stat.st_mtime_ns + 10_000_000))  # the template saved again
        again = _save(project, runtime, {3: "Saved again."})
        assert len(renders) == 3 and "Saved again." in _text(again.target)


def test_the_chrome_key_is_made_once_per_thing_it_is_made_from(project):
    from printer.sheets.output.cached import CachedFaces

    loaded = api.load_project(project)
    game = loaded.game("t")
    from printer.sheets.job import make_job
    from printer.sheets.options import resolve_options

    opts = resolve_options(loaded.settings, game.settings, game.card_size, {}, "printer.toml", loaded.limits)
    cache = FaceCache(cache_folder(loaded.root, loaded.build_dir, "faces"))
    try:
        made: list[str] = []

        def html(text: str):  # type: ignore[no-untyped-def]
            return lambda: made.append(text) or text

        first = CachedFaces(make_job(loaded, game, opts), cache)
        key = first.chrome_key_of(("sheets", 1), html("<a>"))
        assert first.chrome_key_of(("sheets", 1), html("<b>")) == key and made == ["<a>"]
        again = CachedFaces(make_job(loaded, game, opts), cache)  # a later build of the same process
        assert again.chrome_key_of(("sheets", 1), html("<c>")) == key and made == ["<a>"]
        assert again.chrome_key_of(("sheets", 2), html("<d>")) != key and made == ["<a>", "<d>"]
    finally:
        cache.close()


@pytest.mark.slow
def test_the_last_pdf_is_hashed_again_only_when_another_hand_changed_it(project, monkeypatch):
    """A process's later build trusts its own last PDF without hashing it again; a PDF changed since (same size,
    even) is hashed, found different and written whole."""
    import hashlib

    from printer.sheets.output import imposition

    loaded = api.load_project(project)
    request = api.BuildRequest(out_dir=project / "out", jobs=1)
    target = project / "out" / "t.pdf"
    hashed: list[int] = []
    sha256 = hashlib.sha256

    def counting(data: bytes = b"", **kwargs):  # type: ignore[no-untyped-def]
        if len(data) == target.stat().st_size:
            hashed.append(len(data))
        return sha256(data, **kwargs)

    with api.Runtime().open(loaded, request) as runtime:  # a watch's: its face cache kept from save to save
        cache = runtime.cache
        assert cache is not None
        _save(project, runtime, {3: "Saved once."})
        monkeypatch.setattr(imposition.hashlib, "sha256", counting)
        first = target.read_bytes()
        assert str(target) in cache.written
        assert imposition.previous_output(cache, target, _chrome_key(cache, target)) is not None
        assert hashed == []  # the file this process wrote
        _save(project, runtime, {3: "Saved twice."})
        assert target.read_bytes().startswith(first) and hashed == []  # an update, nothing hashed again
        data = bytearray(target.read_bytes())
        data[-40] ^= 1  # another hand changes one byte in place (same size, same file)
        target.write_bytes(bytes(data))
        assert imposition.previous_output(cache, target, _chrome_key(cache, target)) is None and hashed
        again = _save(project, runtime, {3: "Saved thrice."})
        assert not target.read_bytes().startswith(bytes(data)) and "Saved thrice." in _text(again.target)


def _chrome_key(cache: FaceCache, target: Path) -> str:
    import json

    stored = cache.get_blob("impose:" + str(target))
    assert stored is not None
    return str(json.loads(stored)["chrome"])
