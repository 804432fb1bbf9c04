"""What a player sees: printer check-print and build's blank-face warning, on the bundled games, on printer init's
project, on a project whose CSS styles the names printer's own markup once used, and on planted faults."""

from __future__ import annotations

import pypdfium2
import pytest
from helpers import REPO
from PIL import Image

from printer.sheets.output import chrome as chrome_step

pytestmark = pytest.mark.slow

#: a game's stylesheet that styles the common names: it must change only the game's own faces
COMMON_NAMES = """
body { background: #c00; margin: 7mm; padding: 3mm; }
html { background: #0c0; }
section { background: #00c; padding: 5mm; border: 2mm solid #f0f; }
div { margin: 0.1mm; }
.sheet { background: #ff0; transform: rotate(3deg); }
.page { background: #0ff; }
.front { background: #f80; padding: 4mm; }
.back { background: #14202b; }
.face, .trim, .marks { background: #f0f; left: 0; top: 0; }
@page { size: A5; margin: 12mm; background: #888; }
"""


def _init(run, root):
    assert run("init", root).code == 0
    return root


def _pages(pdf, dpi=50):
    document = pypdfium2.PdfDocument(pdf)
    try:
        return [document[i].render(scale=dpi / 72).to_pil().convert("RGB") for i in range(len(document))]
    finally:
        document.close()


def _colours(image: Image.Image) -> int:
    """How many colours the middle of a sheet shows (a sheet of blank backs shows one)."""
    w, h = image.size
    middle = image.crop((w // 4, h // 4, 3 * w // 4, 3 * h // 4))
    return len(middle.getcolors(middle.width * middle.height) or [])


def test_the_five_bundled_games_print_every_face_as_it_looks_alone(run):
    checked = run("--project", REPO, "check-print", "--jobs", "1")
    assert checked.code == 0, checked.err
    for game in ("l5r", "res-arcana", "via-magica", "arcanductor", "edelweiss"):
        assert f"{game}: " in checked.out and "print as they look alone" in checked.out
    assert "error" not in checked.err


def test_printer_init_prints_backs_you_can_read(tmp_path, run):
    root = _init(run, tmp_path / "starfall")
    built = run("--project", root, "build")
    assert built.code == 0 and "blank" not in built.err, built.err
    back = _pages(root / "build/starfall.pdf")[1]
    assert _colours(back) > 20  # the backs' frames and words, not one flat colour
    checked = run("--project", root, "check-print")
    assert checked.code == 0, checked.err
    assert "starfall: 20 faces on 4 sheets print as they look alone (compared at 100 dpi, tolerance 2%)" in checked.out
    verified = run("--project", root, "build", "--verify", "--strict")
    assert verified.code == 0 and "warning" not in verified.err, verified.err


def test_a_stylesheet_styling_the_common_names_changes_only_its_own_faces(tmp_path, run):
    plain = _init(run, tmp_path / "plain")
    styled = _init(run, tmp_path / "styled")
    css = styled / "templates/styled/card.css"
    css.write_text(css.read_text(encoding="utf-8").replace(".card.back {", ".card.back-x {") + COMMON_NAMES)
    for root in (plain, styled):
        assert run("--project", root, "build").code == 0
    # printer's sheets, faces and marks are where they were; only the faces' own rules changed anything
    plain_pages, styled_pages = _pages(plain / "build/plain.pdf"), _pages(styled / "build/styled.pdf")
    assert [p.size for p in plain_pages] == [p.size for p in styled_pages]
    front = styled_pages[0]
    assert front.getpixel((front.width // 2, 5)) == (255, 255, 255)  # no body, html or @page background on the sheet
    checked = run("--project", styled, "check-print")
    assert checked.code == 0, checked.err + checked.out
    # the rules book embeds the cards, styled by the game's stylesheet, in pages the game's rules do not reach
    for root in (plain, styled):
        assert run("--project", root, "rules").code == 0
    plain_book, styled_book = _pages(plain / "build/plain-rules.pdf"), _pages(styled / "build/styled-rules.pdf")
    assert [p.size for p in plain_book] == [p.size for p in styled_book]
    contents = styled_book[1]
    assert contents.getpixel((5, 5)) == contents.getpixel((contents.width // 2, contents.height - 5)) == (255, 255, 255)


def test_a_blank_back_warns_by_card_and_side_and_fails_strict_and_check_print(tmp_path, run):
    root = _init(run, tmp_path / "blank")
    (root / "templates/blank/back.html.j2").write_text('<div class="card back"></div>\n', encoding="utf-8")
    built = run("--project", root, "build")
    assert built.code == 0
    assert "warning: the back 'crew' (behind Dawn Runner and 5 more; the same face as 'event', 'ship')" in built.err
    assert "prints blank: one flat colour (#14202b), no text or picture" in built.err
    assert "templates/blank/back.html.j2" in built.err
    strict = run("--project", root, "build", "--strict", "--no-cache")
    assert strict.code == 1 and "not printed (--strict)" in strict.err
    checked = run("--project", root, "check-print")
    assert checked.code == 1
    assert "error: the back 'crew'" in checked.err and "prints blank" in checked.err
    assert "do not all print as they look alone" in checked.out


def test_check_print_finds_a_face_painted_over_on_the_sheet(tmp_path, run, monkeypatch):
    root = _init(run, tmp_path / "over")
    chrome = chrome_step.chrome_pdf

    def painted(job, htmls, where):  # a box painted over the first card of every sheet, as a stray rule would
        box = '<div style="position: absolute; left: 20mm; top: 30mm; width: 30mm; height: 40mm; background: #123">'
        return chrome(job, [h.replace('data-sheet="1">', 'data-sheet="1">' + box + "</div>", 1) for h in htmls], where)

    monkeypatch.setattr(chrome_step, "chrome_pdf", painted)
    checked = run("--project", root, "check-print", "--jobs", "1")
    assert checked.code == 1
    assert "error: the front of Navigator Osei on sheet 1 (front) differs from the face alone" in checked.err


def test_check_print_finds_text_painted_over(tmp_path, run):
    root = _init(run, tmp_path / "hidden")
    template = root / "templates/hidden/card.html.j2"
    cover = '<div style="position: absolute; left: 0; right: 0; top: 40mm; height: 14mm; background: #f4f1ea"></div>'
    template.write_text(template.read_text(encoding="utf-8").replace("  </div>\n</div>", cover + "\n  </div>\n</div>"))
    checked = run("--project", root, "check-print", "--jobs", "1")
    assert checked.code == 1
    assert "the front of Navigator Osei on sheet 1 (front) has text that does not show: 'Board:" in checked.err
