"""A font's subset is made once a process and reused by the next documents that need no other glyph
(:mod:`printer.sheets.fontsubsets`); the pages are the same as with a subset of each document's own glyphs."""

from __future__ import annotations

import io
import shutil
import subprocess
from pathlib import Path

import pikepdf
import pytest
from PIL import Image, ImageChops

from printer import api
from printer.sheets import fontsubsets
from printer.sheets.pdf import pdf_bytes, render_one

REPO = Path(__file__).resolve().parents[3]


def _pdf(text: str, tmp_path: Path) -> bytes:
    html = f"<p style=\"font: 20pt 'DejaVu Sans'\">{text}</p>"
    document, _ = render_one(html, [tmp_path], tmp_path)
    return pdf_bytes([document])[0]


def _font_programs(data: bytes) -> list[bytes]:
    """The embedded font files of a PDF (its TrueType and OpenType programs), in object order."""
    found = []
    with pikepdf.open(io.BytesIO(data)) as pdf:
        for obj in pdf.objects:
            if isinstance(obj, pikepdf.Dictionary) and obj.get("/Type") == "/FontDescriptor":
                for name in ("/FontFile2", "/FontFile3"):
                    if name in obj:
                        found.append(obj[name].read_bytes())
    return found


def test_a_document_needing_no_other_glyph_gets_the_kept_subset_and_another_one_grows_it(tmp_path, monkeypatch):
    monkeypatch.setattr(fontsubsets, "_kept", type(fontsubsets._kept)())
    first = _font_programs(_pdf("Abc", tmp_path))
    again = _font_programs(_pdf("cbA", tmp_path))  # the same glyphs: the same subset, not made again
    assert len(first) == 1 and again == first
    more = _font_programs(_pdf("Abcd", tmp_path))  # one more glyph: a subset of them all, kept from now on
    assert more != first and len(more[0]) > len(first[0])
    assert _font_programs(_pdf("dA", tmp_path)) == more
    (kept,) = fontsubsets._kept.values()
    assert len(kept[0]) == 4  # A, b, c and d
    monkeypatch.setattr(fontsubsets, "MOST_GLYPHS", 6)
    own = _font_programs(_pdf("Abcdefgh", tmp_path))  # past the bound: a subset of its own glyphs, not kept
    assert own != more and fontsubsets._kept[next(iter(fontsubsets._kept))] == kept


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("pdftoppm") is None, reason="pdftoppm (poppler-utils) is not installed")
def test_the_pages_are_the_same_as_with_each_documents_own_subsets(tmp_path, monkeypatch):
    """The example L5R cards, set in Noto CJK whose digits and ligatures have glyph ids near 63,000: built in this
    process with subsets reused, and again with each document's own (``MOST_GLYPHS`` 0): the same pixels, the same
    text."""
    root = tmp_path / "p"
    root.mkdir()
    shutil.copy(REPO / "printer.toml", root / "printer.toml")
    shutil.copytree(REPO / "cards" / "l5r", root / "cards" / "l5r", ignore=shutil.ignore_patterns("ja"))
    import weasyprint.pdf.fonts as fonts

    project = api.load_project(root)
    outputs, made = [], []
    subset = fonts.Font._harfbuzz_subset
    monkeypatch.setattr(fonts.Font, "_harfbuzz_subset", lambda self, *a: made.append(self.family) or subset(self, *a))
    for name, most in (("reused", fontsubsets.MOST_GLYPHS), ("own", 0)):
        monkeypatch.setattr(fontsubsets, "_kept", type(fontsubsets._kept)())
        monkeypatch.setattr(fontsubsets, "MOST_GLYPHS", most)
        request = api.BuildRequest(games=["l5r"], out_dir=root / name, jobs=1, cache=False)
        result = api.build(project, request)
        assert result.ok, [str(p) for p in result.games[0].problems]
        outputs.append(result.games[0].target)
        made.append(name)
    reused, own = made.index("reused"), len(made) - made.index("reused") - 2
    assert 0 < reused < own, (reused, own)  # fewer subsets made when they are reused
    texts = [subprocess.run(["pdftotext", str(pdf), "-"], capture_output=True, check=True).stdout for pdf in outputs]
    assert texts[0] == texts[1] and b"Tetsuya" in texts[0]
    for index in range(1, 4):  # a sheet of fronts, its backs, the next fronts
        pictures = []
        for pdf in outputs:
            stem = tmp_path / f"{pdf.parent.name}-{index}"
            page = ["-f", str(index), "-l", str(index)]
            subprocess.run(["pdftoppm", "-r", "60", *page, "-png", "-singlefile", str(pdf), str(stem)], check=True)
            pictures.append(Image.open(stem.with_suffix(".png")).convert("RGB"))
        assert pictures[0].size == pictures[1].size
        assert ImageChops.difference(pictures[0], pictures[1]).getbbox() is None, f"page {index} differs"


def _padded(monkeypatch) -> None:
    """This test's process pads new subsets (as printer serve's render processes do), from no kept subset."""
    monkeypatch.setattr(fontsubsets, "_kept", type(fontsubsets._kept)())
    monkeypatch.setattr(fontsubsets, "_padded", {})
    monkeypatch.setattr(fontsubsets, "_padding", {"characters": fontsubsets.PADDING})


@pytest.mark.parametrize("family", ["DejaVu Sans", "Noto Sans CJK JP"])
def test_a_padded_subset_holds_latin_text_so_a_face_with_other_letters_needs_no_new_subset(family, tmp_path, monkeypatch):  # fmt: skip
    _padded(monkeypatch)
    made: list[str] = []
    import weasyprint.pdf.fonts as fonts

    subset = fonts.Font._harfbuzz_subset
    monkeypatch.setattr(fonts.Font, "_harfbuzz_subset", lambda self, *a: made.append(self.family) or subset(self, *a))

    def pdf(text: str) -> bytes:
        # English text: Noto CJK draws its digits from the glyphs its ``locl`` feature gives Latin, not its cmap's
        document, _ = render_one(f"<p lang=en style=\"font: 20pt '{family}'\">{text}</p>", [tmp_path], tmp_path)
        return pdf_bytes([document])[0]

    first = _font_programs(pdf("Abc"))
    assert made == [family]
    (kept,) = fontsubsets._kept.values()
    assert len(kept[0]) > 150  # printable ASCII, Latin-1, the marks, their ligatures and forms
    for text in ("Kyuden Hida (7)", "Zoë’s “fine” office - 1,250 ffi", "Ébène ‘ñ’ … #42 @ 100%"):
        assert _font_programs(pdf(text)) == first, text
    assert made == [family]  # no other subset made


def test_without_padding_a_new_letter_makes_a_new_subset(tmp_path, monkeypatch):
    monkeypatch.setattr(fontsubsets, "_kept", type(fontsubsets._kept)())
    monkeypatch.setattr(fontsubsets, "_padding", {"characters": ""})
    assert _font_programs(_pdf("Abc", tmp_path)) != _font_programs(_pdf("Kyuden", tmp_path))


@pytest.mark.slow
def test_a_face_picture_is_the_same_with_padded_subsets(tmp_path, monkeypatch):
    """printer serve's picture of each example L5R card: the same pixels from padded subsets as from each document's
    own."""
    from printer.api.common import load_cards
    from printer.serve.pictures import picture_job
    from printer.sheets.export.faces import face_images, page_layout, px_of

    project = api.load_project(REPO)
    game = project.games["l5r"]
    sets, _ = load_cards(project, [game.cards])
    cards = [card for card in sets["l5r"] if "/ja/" not in str(card.where)][:6]
    pictures: dict[str, list[bytes]] = {}
    for name in ("padded", "own"):
        if name == "padded":
            _padded(monkeypatch)
        else:
            monkeypatch.setattr(fontsubsets, "_kept", type(fontsubsets._kept)())
            monkeypatch.setattr(fontsubsets, "_padding", {"characters": ""})
            monkeypatch.setattr(fontsubsets, "MOST_GLYPHS", 0)
        job = picture_job(project, game)
        layout = page_layout(job, with_bleed=True)
        for number, card in enumerate(cards):
            job.faces.html[f"face{number}"] = job.renderer.front(card)
        pictures[name] = []
        for number in range(len(cards)):  # one document a face, as the pictures of saved cards are made
            for _, image in face_images(job, [f"face{number}"], layout, px_of(layout.page, 100)):
                pictures[name].append(image.tobytes())
    assert len(pictures["padded"]) == len(cards)
    assert pictures["padded"] == pictures["own"]


def test_padding_for_a_while_leaves_the_process_padding_as_it_did(monkeypatch):
    monkeypatch.setattr(fontsubsets, "_padding", {"characters": "", "shaped": ""})
    monkeypatch.setattr(fontsubsets, "_padded", {("a font",): frozenset({1})})
    with fontsubsets.padded():  # a watch's save, in a process that pads nothing
        assert fontsubsets._padding["characters"] == fontsubsets.PADDING
    assert fontsubsets._padding["characters"] == ""
    assert fontsubsets._padded == {}  # glyphs shaped from other characters are not taken for these
    fontsubsets._padded[("a font",)] = frozenset({2})
    with fontsubsets.padded(False):
        assert fontsubsets._padding["characters"] == ""
    with fontsubsets.padded():  # the same characters again: their glyphs are kept
        assert fontsubsets._padded == {("a font",): frozenset({2})}
    fontsubsets.pad_subsets("Abc")  # a process that pads its own way (printer serve's render processes)
    with fontsubsets.padded():
        assert fontsubsets._padding["characters"] == "Abc"
    assert fontsubsets._padding["characters"] == "Abc"
