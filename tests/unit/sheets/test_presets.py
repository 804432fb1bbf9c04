"""Print-on-demand presets (--preset): each vendor's files read back, pixel and page sizes against the vendor's
figures (docs/print-on-demand.md), naming, layout, CMYK through Ghostscript, and the warnings by card name.

Expected sizes are written here from the vendors' figures, never taken from printer's vendors.toml.
"""

from __future__ import annotations

import csv
import json
import shutil
from pathlib import Path

import pytest
from helpers import MM
from PIL import Image
from pypdf import PdfReader

IN = 25.4
CARD_HTML = """<div class="card kind-{{ card.type|lower }}">
  {% if card.type == 'Edge' %}<div class="edge">{{ card.title }}</div>{% endif %}
  {% if card.type == 'Inset' %}<div class="inset"></div>{% endif %}
  <div class="safe"><div class="title">{{ card.title }}</div></div>
</div>
"""
BACK_HTML = '<div class="card back"><div class="safe"><div class="title">BACK</div></div></div>\n'
CSS = """
.card { position: absolute; inset: 0; background: rgb(200, 0, 0); font: 8pt "DejaVu Sans", sans-serif; color: #fff; }
.card.back { background: rgb(0, 0, 200); }
.card.kind-inset { background: #fff; }
.inset { position: absolute; inset: 0; background: rgb(200, 0, 0); }
.edge { position: absolute; left: 0.5mm; top: 40mm; font-size: 9pt; }
"""
CMYK = Path("/usr/share/color/icc/ghostscript/default_cmyk.icc")


def project(root: Path, cards: list[dict], card_size: str = "poker") -> Path:
    (root / "cards" / "t").mkdir(parents=True, exist_ok=True)
    (root / "templates" / "t").mkdir(parents=True, exist_ok=True)
    (root / "schema" / "t").mkdir(parents=True, exist_ok=True)
    (root / "printer.toml").write_text(
        f'[project]\npaper = "A4"\n[games.t]\nname = "Test"\ncard_size = "{card_size}"\n', encoding="utf-8"
    )
    for name, text in (("card.html.j2", CARD_HTML), ("back.html.j2", BACK_HTML), ("card.css", CSS)):
        (root / "templates" / "t" / name).write_text(text, encoding="utf-8")
    (root / "cards" / "t" / "cards.json").write_text(json.dumps({"cards": cards}), encoding="utf-8")
    (root / "schema" / "t" / "card.schema.json").write_text(
        json.dumps(
            {
                "$schema": "https://json-schema.org/draft/2020-12/schema",
                "$id": "https://printer.invalid/schema/t/card.schema.json",
                "allOf": [{"$ref": "../card.schema.json"}],
                "unevaluatedProperties": False,
            }
        ),
        encoding="utf-8",
    )
    return root


GOOD = [
    {"id": "a", "title": "Alpha", "type": "A", "copies": 3},
    {"id": "b", "title": "Beta", "type": "A"},
]
BAD = GOOD + [{"id": "e", "title": "Edgy", "type": "Edge"}, {"id": "i", "title": "Inset", "type": "Inset"}]


@pytest.fixture(scope="module")
def good(tmp_path_factory):
    return project(tmp_path_factory.mktemp("good"), GOOD)


def red(p) -> bool:
    return p[0] > 150 and p[1] < 60 and p[2] < 60


def pages_mm(pdf: Path) -> list[tuple[tuple[float, float], tuple[float, float, float, float]]]:
    reader = PdfReader(pdf)
    out = []
    for page in reader.pages:
        media = [float(v) / MM for v in page.mediabox]
        trim = [float(v) / MM for v in page.trimbox]
        out.append(((media[2] - media[0], media[3] - media[1]), tuple(trim)))
    return out


@pytest.mark.slow
@pytest.mark.parametrize(
    "preset, px", [("mpc", (822, 1122)), ("thegamecrafter", (825, 1125))], ids=["mpc", "thegamecrafter"]
)
def test_image_vendors_one_rgb_png_per_face_at_the_vendors_canvas(good, tmp_path, run, preset, px):
    result = run("--project", good, "build", "t", "--preset", preset, "--out", tmp_path)
    assert result.code == 0, result.err
    folder = tmp_path / f"t-{preset}"
    fronts = sorted(p.name for p in (folder / "fronts").iterdir())
    backs = sorted(p.name for p in (folder / "backs").iterdir())
    assert fronts == ["001-a.png", "002-b.png"] and backs == ["001-back-default.png"]
    for image_path in [folder / "fronts" / f for f in fronts] + [folder / "backs" / b for b in backs]:
        with Image.open(image_path) as image:
            assert image.size == px and image.mode == "RGB"
            assert image.info["dpi"] == pytest.approx((300, 300), abs=0.1)
    with Image.open(folder / "fronts" / "001-a.png") as image:
        assert red(image.getpixel((1, 1))) and red(image.getpixel((px[0] - 2, px[1] - 2)))  # art to the edge
    rows = list(csv.DictReader((folder / "cards.csv").open(encoding="utf-8")))
    assert rows == [
        {"front": "fronts/001-a.png", "back": "backs/001-back-default.png", "copies": "3"},
        {"front": "fronts/002-b.png", "back": "backs/001-back-default.png", "copies": "1"},
    ]
    assert "trim 63.5 x 88.9 mm" in result.out and "(the game's is 63 x 88 mm)" in result.out


@pytest.mark.slow
def test_drivethrucards_one_card_per_page_back_then_front_with_an_eighth_inch_bleed(good, tmp_path, run):
    result = run("--project", good, "build", "t", "--preset", "drivethrucards", "--out", tmp_path)
    assert result.code == 0, result.err
    pages = pages_mm(tmp_path / "t-drivethrucards.pdf")
    assert len(pages) == 2 * 4  # 4 printed cards (3 copies of Alpha), each a back page then a front page
    for size, trim in pages:
        assert size == pytest.approx((2.75 * IN, 3.75 * IN), abs=0.05)
        assert (trim[2] - trim[0], trim[3] - trim[1]) == pytest.approx((2.5 * IN, 3.5 * IN), abs=0.05)
        assert trim[0] == pytest.approx(IN / 8, abs=0.05) and trim[1] == pytest.approx(IN / 8, abs=0.05)
    texts = [page.extract_text() for page in PdfReader(tmp_path / "t-drivethrucards.pdf").pages]
    assert ["Alpha" in t for t in texts[:2]] == [False, True] and "BACK" in texts[0]  # DriveThru asks back first
    assert ["BACK" in t for t in texts] == [True, False] * 4
    assert "4 cards, back then front" in result.out
    # no --icc: the profile built from the free GRACoL data, under DriveThruCards' 240 % ink
    assert "CMYK through CGATS TR 006 (built from icc-profiles-free TR006.ti3, TAC 236%)" in result.out


@pytest.mark.slow
def test_drivethrucards_splits_past_its_cards_per_file(good, tmp_path, run, monkeypatch):
    from dataclasses import replace

    from printer.sheets.export.presets import presets

    monkeypatch.setitem(presets(), "drivethrucards", replace(presets()["drivethrucards"], max_cards_per_file=3))
    result = run("--project", good, "build", "t", "--preset", "drivethrucards", "--out", tmp_path)
    assert result.code == 0, result.err
    assert (
        len(pages_mm(tmp_path / "t-drivethrucards-1.pdf")) == 6
        and len(pages_mm(tmp_path / "t-drivethrucards-2.pdf")) == 2
    )
    assert "split into 2 files of at most 3 cards" in result.out


@pytest.mark.slow
def test_printplaygames_front_and_back_pdfs_with_at_least_2_mm_bleed(good, tmp_path, run):
    result = run("--project", good, "build", "t", "--preset", "printplaygames", "--out", tmp_path)
    assert result.code == 0, result.err
    fronts, backs = pages_mm(tmp_path / "t-printplaygames-FRONT.pdf"), pages_mm(tmp_path / "t-printplaygames-BACK.pdf")
    assert len(fronts) == len(backs) == 4
    for size, trim in fronts + backs:
        assert (trim[2] - trim[0], trim[3] - trim[1]) == pytest.approx((63, 88), abs=0.05)  # the game's own trim
        assert min(trim[0], trim[1], size[0] - trim[2], size[1] - trim[3]) >= 2 - 0.01


@pytest.mark.slow
def test_mbprint_3_mm_bleed_4_mm_safe_area_and_the_cards_that_leave_it(tmp_path, run):
    root = project(tmp_path / "p", BAD)
    result = run("--project", root, "build", "t", "--preset", "mbprint", "--out", tmp_path / "out")
    assert result.code == 0, result.err
    pages = pages_mm(tmp_path / "out" / "t-mbprint.pdf")
    assert len(pages) == 2 * 6 and "6 cards, front then back" in result.out  # MB Print: front page first
    for size, trim in pages:
        assert size == pytest.approx((69, 94), abs=0.05) and trim[0] == pytest.approx(3, abs=0.05)
    assert "Edgy: text runs" in result.err and "outside MB Print's safe area (4 mm inside the trim)" in result.err
    assert "Inset: the art stops at the trim on the left, right, top, bottom" in result.err
    assert "Alpha:" not in result.err and "Beta:" not in result.err
    strict = run("--project", root, "build", "t", "--preset", "mbprint", "--strict", "--out", tmp_path / "strict")
    assert strict.code == 1 and not (tmp_path / "strict" / "t-mbprint.pdf").exists()


@pytest.mark.slow
@pytest.mark.skipif(not CMYK.is_file() or not shutil.which("gs"), reason="needs Ghostscript and a CMYK profile")
def test_cmyk_vendors_get_every_colour_converted_by_ghostscript(good, tmp_path, run):
    from printer.sheets.export.pdfx import rgb_report

    result = run("--project", good, "build", "t", "--preset", "drivethrucards", "--icc", CMYK, "--out", tmp_path)
    assert result.code == 0, result.err
    pdf = tmp_path / "t-drivethrucards.pdf"
    assert rgb_report(pdf) == []  # no RGB colour or image left
    reader = PdfReader(pdf)
    intent = reader.trailer["/Root"]["/OutputIntents"][0].get_object()
    assert intent["/DestOutputProfile"].get_object().get_data() == CMYK.read_bytes()
    assert b" k" in reader.pages[0].get_contents().get_data()  # fills set as CMYK
    for size, trim in pages_mm(pdf):
        assert size == pytest.approx((2.75 * IN, 3.75 * IN), abs=0.05)
        assert (trim[2] - trim[0]) == pytest.approx(2.5 * IN, abs=0.05)
    assert "CMYK" in result.out
    mb = run("--project", good, "build", "t", "--preset", "mbprint", "--icc", CMYK, "--out", tmp_path / "mb")
    assert mb.code == 0 and "MB Print prints to FOGRA39 / ISO Coated v2; this profile is" in mb.err


def test_a_size_the_vendor_does_not_print_is_a_usage_error(tmp_path, run):
    root = project(tmp_path, GOOD, card_size="64x80mm")
    result = run("--project", root, "build", "t", "--preset", "mpc", "--out", tmp_path / "out")
    assert result.code == 2
    assert "MakePlayingCards prints no 64 x 80 mm cards (t)" in result.err and "poker 63.5 x 88.9 mm" in result.err
    assert not (tmp_path / "out").exists()
    bad = run("--project", root, "build", "t", "--preset", "mcp")
    assert bad.code == 2 and "'mcp' is not one of" in bad.err


def test_the_fact_sheet_names_every_preset_and_its_figures():
    from helpers import REPO

    from printer.cli.build_options import PRESETS
    from printer.sheets.export.presets import PRESET_IDS, presets

    doc = (REPO / "docs" / "print-on-demand.md").read_text(encoding="utf-8")
    assert PRESETS == PRESET_IDS == tuple(presets())
    for key, preset in presets().items():
        assert f"`--preset {key}`" in doc and preset.name in doc
        for size in preset.sizes:
            if size.canvas_px:
                assert f"{size.canvas_px[0]} x {size.canvas_px[1]}" in doc, (key, size)


def _names_in(pdf_path: Path) -> set[str]:
    """Every PDF name used anywhere in the file (dictionaries, arrays, content streams)."""
    import pikepdf

    found: set[str] = set()
    with pikepdf.open(pdf_path) as pdf:
        for obj in pdf.objects:
            if isinstance(obj, pikepdf.Dictionary | pikepdf.Stream):
                stack = [obj]
                while stack:
                    item = stack.pop()
                    if isinstance(item, pikepdf.Name):
                        found.add(str(item))
                    elif isinstance(item, pikepdf.Array):
                        stack += list(item)
                    elif isinstance(item, pikepdf.Dictionary | pikepdf.Stream):
                        stack += [v for k, v in item.items() if not item.is_indirect or k != "/Parent"]
        for page in pdf.pages:
            for instruction in pikepdf.parse_content_stream(page):
                found |= {str(o) for o in instruction.operands if isinstance(o, pikepdf.Name)}
                found.add("op:" + str(instruction.operator))
    return found


@pytest.mark.slow
@pytest.mark.skipif(not CMYK.is_file() or not shutil.which("gs"), reason="needs Ghostscript and its CMYK profile")
def test_drivethrucards_and_mbprint_write_cmyk_that_passes_their_preflight(tmp_path, run):
    import pikepdf

    root = project(tmp_path / "p", GOOD)
    with (root / "templates" / "t" / "card.css").open("a", encoding="utf-8") as css:
        css.write(".title { color: #000; }\n")  # pure black: MB Print's rich black
    dtc = run("--project", root, "build", "t", "--preset", "drivethrucards", "--out", tmp_path / "d")
    assert dtc.code == 0, dtc.err
    pdf = tmp_path / "d" / "t-drivethrucards.pdf"
    names = _names_in(pdf)
    assert not names & {"/DeviceRGB", "/CalRGB", "op:rg", "op:RG"}  # no RGB anywhere
    with pikepdf.open(pdf) as opened:
        assert str(opened.trailer.Info.GTS_PDFXVersion) == "PDF/X-1a:2003"
        assert opened.pdf_version <= "1.4"
        assert [str(p.label) for p in opened.pages[:4]] == ["back 1", "front 1", "back 2", "front 2"]
        intent = opened.Root.OutputIntents[0]
        assert intent.S == "/GTS_PDFX" and int(intent.DestOutputProfile.N) == 4
    texts = [page.extract_text() for page in PdfReader(pdf).pages]
    assert ["BACK" in t for t in texts] == [True, False] * 4  # each card's back before its front
    assert run("preflight", pdf, "--vendor", "drivethrucards").code == 0

    mb = run("--project", root, "build", "t", "--preset", "mbprint", "--out", tmp_path / "m")
    assert mb.code == 0, mb.err
    pdf = tmp_path / "m" / "t-mbprint.pdf"
    names = _names_in(pdf)
    assert not names & {"/DeviceRGB", "/CalRGB", "op:rg", "op:RG", "/Font"}  # CMYK, and text as outlines
    with pikepdf.open(pdf) as opened:
        assert [str(p.label) for p in opened.pages[:4]] == ["front 1", "back 1", "front 2", "back 2"]
        blacks = [
            [float(v) for v in i.operands]
            for i in pikepdf.parse_content_stream(opened.pages[0])
            if str(i.operator) == "k" and float(i.operands[3]) > 0.95
        ]
    assert blacks and all(b == pytest.approx([0.3, 0.3, 0, 1], abs=0.01) for b in blacks)  # C30 M30 Y0 K100
    assert run("preflight", pdf, "--vendor", "mbprint").code == 0


DARK_CARD = """<div class="card"><div class="art"></div><div class="band"></div>
  <div class="safe"><div class="title">{{ card.title }}</div><p class="text">Deep shadows, rich colours.</p></div>
</div>
"""
DARK_BACK = '<div class="card back"><div class="safe"><div class="title">BACK</div></div></div>\n'
DARK_CSS = """
.card { position: absolute; inset: 0; background: #000; font: 9pt "DejaVu Sans", sans-serif; color: #fff; }
.art { position: absolute; left: 0; right: 0; top: 0; height: 55%;
  background: linear-gradient(90deg, #f00, #ff0, #0f0, #0ff, #00f, #f0f, #200010); }
.band { position: absolute; left: 0; right: 0; top: 55%; height: 20%;
  background: linear-gradient(180deg, #1b1b1b, #3a0a5a 40%, #0a2a12 70%, #050505); }
.title { position: absolute; top: 62%; left: 8mm; font-size: 14pt; color: #ffd700; }
.text { position: absolute; top: 80%; left: 8mm; color: #000; background: #fff; }
.card.back { background: radial-gradient(circle, #7a0000, #100000 70%, #000); }
.card.back .title { position: absolute; top: 40mm; left: 20mm; color: #c0c0ff; }
"""
ARGYLL = shutil.which("colprof") is not None and Path("/usr/share/color/icc/FOGRA39L.ti3").is_file()


def dark_project(root: Path) -> Path:
    """Cards on a #000 background with saturated and near-black gradients: what a free SWOP profile puts 295 % on."""
    project(root, [{"id": "a", "title": "Night", "type": "A"}, {"id": "b", "title": "Ember", "type": "A"}])
    for name, text in (("card.html.j2", DARK_CARD), ("back.html.j2", DARK_BACK), ("card.css", DARK_CSS)):
        (root / "templates" / "t" / name).write_text(text, encoding="utf-8")
    return root


@pytest.mark.slow
@pytest.mark.skipif(
    not CMYK.is_file() or not shutil.which("gs") or not ARGYLL, reason="needs gs, argyll, icc-profiles-free"
)
@pytest.mark.parametrize(
    "vendor, limit, condition, data",
    [("drivethrucards", 240, "CGATS TR 006", "TR006.ti3"), ("mbprint", 300, "FOGRA39", "FOGRA39L.ti3")],
    ids=["drivethrucards", "mbprint"],
)
def test_a_dark_page_is_cmyk_under_the_vendors_ink_limit_and_passes_its_preflight(
    tmp_path, run, vendor, limit, condition, data
):
    from printer.sheets.export.preflight import colour
    from printer.sheets.export.preflight.profile import VendorProfile
    from printer.sheets.export.preflight.walk import read_facts

    result = run("--project", dark_project(tmp_path / "p"), "build", "t", "--preset", vendor, "--out", tmp_path / "o")
    assert result.code == 0, result.err
    assert f"CMYK through {condition} (built from icc-profiles-free {data}" in result.out
    pdf = tmp_path / "o" / f"t-{vendor}.pdf"
    assert not _names_in(pdf) & {"/DeviceRGB", "/CalRGB", "/Lab", "op:rg", "op:RG"}
    with pikepdf_open(pdf) as opened:
        intent = opened.Root.OutputIntents[0]
        assert str(intent.OutputConditionIdentifier) == condition
        assert f"{condition} (built from icc-profiles-free {data}, TAC" in str(intent.Info)
        facts = read_facts(opened)
        cmyk = VendorProfile("test", "the test", "", colour="cmyk")
        assert colour.rgb_problems(facts, str(pdf), cmyk) == []
        ink = [p.message for p in colour.ink_problems(facts, str(pdf), VendorProfile("t", "t", "", max_ink=limit))]
        assert ink == []  # measured as printer preflight measures it: fills, strokes and images in 0.5 mm cells
        dark = colour.ink_problems(facts, str(pdf), VendorProfile("t", "t", "", max_ink=limit - 30))
        assert dark  # the page is dark: its darkest ink is within 30 points of the limit, not lightened to pass
    assert run("preflight", pdf, "--vendor", vendor).code == 0


def pikepdf_open(path: Path):
    import pikepdf

    return pikepdf.open(path)


@pytest.mark.slow
@pytest.mark.skipif(not CMYK.is_file() or not shutil.which("gs"), reason="needs Ghostscript and its CMYK profile")
def test_without_argyll_a_cmyk_preset_says_what_to_install_and_converts_to_swop(good, tmp_path, run, monkeypatch):
    from printer.sheets.export import cmykprofile

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "empty-cache"))
    monkeypatch.setattr(cmykprofile, "colprof", lambda: None)
    result = run("--project", good, "build", "t", "--preset", "mbprint", "--out", tmp_path / "o")
    assert result.code == 0, result.err
    assert "--preset mbprint: warning: ArgyllCMS (colprof) is not installed" in result.err
    assert "install the Debian package argyll" in result.err and "Traceback" not in result.err
    assert "Ghostscript's free SWOP profile" in result.out
