"""Stylesheets parsed once per process (printer.sheets.stylesheets): the same PDF, warnings at every build, edits
seen at once, and stylesheets that change state outside themselves parsed every time."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from helpers import REPO
from PIL import Image

from printer.sheets import stylesheets

BAD_CARDS = (REPO / "tests/bad/good-cards.json").read_text(encoding="utf-8")


@pytest.fixture
def styled(project: Path) -> Path:
    """The ``project`` fixture with two cards and its own copy of the L5R card.css (and the picture it names)."""
    (project / "cards/l5r/cards.json").write_text(BAD_CARDS, encoding="utf-8")
    (project / "templates/l5r").mkdir(parents=True)
    for name in ("card.css", "no-art.svg"):
        shutil.copy(REPO / "templates/l5r" / name, project / "templates/l5r" / name)
    return project


def back_colour(pdf: Path, out: Path) -> tuple[int, int, int]:
    """The colour inside the Dynasty back's frame, above its ring (page 2 at 50 dpi: the backs of the two cards,
    mirrored for long-edge flip, the Dynasty back top right)."""
    subprocess.run(["pdftoppm", "-r", "50", "-png", "-f", "2", "-l", "2", str(pdf), str(out)], check=True)
    with Image.open(next(out.parent.glob(out.name + "*.png"))) as page:
        width, height = page.size
        return page.convert("RGB").getpixel((int(width * 0.8), int(height * 0.11)))


@pytest.mark.skipif(shutil.which("pdftoppm") is None, reason="pdftoppm (poppler-utils) is not installed")
def test_a_stylesheet_edited_between_builds_of_one_process_is_read_again(styled, run, tmp_path):
    first = run("build", "l5r", "--no-cache", "--jobs", "1", cwd=styled)
    assert first.code == 0, first.err
    before = dict(stylesheets._stats)
    assert back_colour(styled / "build/l5r.pdf", tmp_path / "a")[0] < 60  # the Dynasty back: near black
    css = styled / "templates/l5r/card.css"
    css.write_text(css.read_text(encoding="utf-8").replace(".card.back { background: #111; }", ".card.back { background: #ff0000; }"), encoding="utf-8")  # fmt: skip
    second = run("build", "l5r", "--no-cache", "--jobs", "1", cwd=styled)
    assert second.code == 0, second.err
    red = back_colour(styled / "build/l5r.pdf", tmp_path / "b")
    assert red[0] > 200 and red[1] < 60 and red[2] < 60, red
    assert stylesheets._stats["parsed"] > before["parsed"]  # the edited file, parsed anew


def test_each_build_of_one_process_reports_a_stylesheets_warnings(styled, run):
    css = styled / "templates/l5r/card.css"
    css.write_text(css.read_text(encoding="utf-8") + "\n.title { colr: red; }\n", encoding="utf-8")
    line = len(css.read_text(encoding="utf-8").splitlines())
    warning = (
        f"templates/l5r/card.css:{line}:10: warning: WeasyPrint: Ignored `colr: red` at {line}:10, unknown property."
    )
    reused = stylesheets._stats["reused"]
    for _ in range(2):
        result = run("build", "l5r", "--no-cache", "--jobs", "1", cwd=styled)
        assert result.code == 0 and warning in result.err, result.err
    assert stylesheets._stats["reused"] > reused  # the second build (and the sheets' chrome) used the parsed copy


def test_stylesheets_that_change_state_elsewhere_are_parsed_every_time(tmp_path):
    from weasyprint import CSS, HTML

    from printer.sheets.pdf import ProjectFetcher  # installs the parsed-once route

    counter = '@counter-style stars { system: cyclic; symbols: "*"; }\n.a { color: red; }'
    escaped = "@\\6c ayer base;\n.a { color: green; }"  # @layer, its name written with an escape
    plain = ".a { color: blue; }"
    fetcher = ProjectFetcher([tmp_path])
    counted = dict(stylesheets._stats)
    for _ in range(2):
        for text in (counter, escaped, plain):
            HTML(string=f"<style>{text}</style><p class=a>x</p>", base_url=tmp_path.as_uri() + "/", url_fetcher=fetcher).render()  # fmt: skip
    assert stylesheets._stats["parsed"] - counted["parsed"] == 1  # the plain one, once
    assert stylesheets._stats["reused"] - counted["reused"] >= 1
    assert CSS is not None


def test_a_kept_stylesheet_is_not_given_to_a_document_whose_sandbox_refuses_it(tmp_path):
    from weasyprint import HTML

    from printer.sheets.pdf import BlockedFetch, ProjectFetcher

    mine, theirs = tmp_path / "mine", tmp_path / "theirs"
    mine.mkdir()
    theirs.mkdir()
    (theirs / "card.css").write_text(".a { color: red; }", encoding="utf-8")
    page = f'<link rel="stylesheet" href="{(theirs / "card.css").as_uri()}"><p class=a>x</p>'
    HTML(string=page, url_fetcher=ProjectFetcher([theirs])).render()  # parsed and kept, inside its own project
    with pytest.raises(BlockedFetch):
        HTML(string=page, url_fetcher=ProjectFetcher([mine])).render()


def test_a_warming_worker_parses_the_game_s_stylesheets_and_its_first_face_still_reports_their_warnings(styled):
    """A pool worker parses the game's stylesheets while it starts (printer.sheets.pdf.prepare); the first face it
    lays out takes them as parsed, and still reports what they hold that WeasyPrint ignores, at its line."""
    import sys

    css = styled / "templates/l5r/card.css"
    css.write_text(css.read_text(encoding="utf-8") + "\n.title { colr: red; }\n", encoding="utf-8")
    line = len(css.read_text(encoding="utf-8").splitlines())
    code = (
        "from printer.sheets import parallel, stylesheets\n"
        "from printer.sheets.options import PrintOptions\n"
        f"spec = parallel.JobSpec({str(styled)!r}, 'l5r', PrintOptions())\n"
        "parallel._warm(spec)\n"
        "print(stylesheets._stats['parsed'], stylesheets._stats['reused'])\n"
        "result = parallel.render_batch(spec, [('face', '<div class=\"card\"><span class=\"title\">A</span></div>')])\n"
        "print(stylesheets._stats['parsed'], stylesheets._stats['reused'])\n"
        "print(sorted({str(p.where) for p in result.problems if 'colr' in p.message}))\n"
    )
    found = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, cwd=styled)
    assert found.returncode == 0, found.stderr
    warmed, laid_out, warnings = found.stdout.splitlines()
    assert warmed == "2 0"  # card-common.css and the game's card.css, before any face
    assert int(laid_out.split()[1]) >= 2  # the face took both as parsed (its own <style> elements it parses)
    assert warnings == f"[{str(css) + ':' + str(line) + ':10'!r}]"
