"""Card fronts' face cache keys kept between builds (``ident:`` entries, :class:`printer.sheets.cache.FaceKeyEntry`):
a rebuild after a one-card edit takes the other cards' keys from them instead of reading and hashing their HTML
(and the sheets' marks and labels by what they are made from, without making their HTML), changes exactly that
card's face, and prints what a cold build prints; a change to a template, a stylesheet, an
icon, a file a template names or an option is never hidden by a kept key."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest
from helpers import touch

from printer import api
from printer.paths import bundled_root, cache_folder
from printer.sheets.cache import FaceCache
from tests.unit.sheets.test_cache import CSS, ICON, _build, _cards, _pages, _project, _write_cards

LOGO = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><rect width="10" height="10" fill="{}"/></svg>'


def _entries(root: Path) -> dict[str, object]:
    """The face key entries stored in the project's face cache."""
    project = api.load_project(root)
    cache = FaceCache(cache_folder(project.root, project.build_dir, "faces"))
    try:
        return {str(k): cache.store.get(k) for k in cache.store.iterkeys() if str(k).startswith("ident:")}
    finally:
        cache.close()


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """The cache tests' project, with a logo outside the template folders that every front names (by a path
    from the project's folder), built cold once and then once more after an edit (so that every front's key
    is kept)."""
    root = _project(tmp_path / "p")
    (root / "assets").mkdir()
    (root / "assets" / "logo.svg").write_text(LOGO.format("green"), encoding="utf-8")
    card = root / "templates" / "t" / "card.html.j2"
    card.write_text(card.read_text(encoding="utf-8").replace("</div>\n", '<img src="assets/logo.svg"></div>\n'))
    cold = _build(root)
    assert cold.stats["faces laid out"] == 7
    return root


def _edit(root: Path, index: int, text: str) -> None:
    cards = _cards(root)
    cards[index]["text"] = text
    _write_cards(root, cards)


@pytest.mark.slow
def test_the_keys_are_kept_and_an_edit_changes_exactly_one_face(project, monkeypatch):
    from printer.sheets.cache import FaceIdentity

    assert len(_entries(project)) == 6  # one per card front (the back is no card's)
    hashed: list[str] = []
    key = FaceIdentity.key
    monkeypatch.setattr(FaceIdentity, "key", lambda self, html, *a: hashed.append(html) or key(self, html, *a))
    _edit(project, 3, "Edited once.")
    edited = _build(project)
    assert (edited.stats["faces laid out"], edited.stats["faces from cache"]) == (1, 6)
    # that front and the back, no other, and not the sheets' marks and labels (their HTML is not even made); the
    # sheet template itself is hashed once, into the job's context (CachedFaces._context)
    hashed = [html for html in hashed if not html.startswith(str(bundled_root() / "templates" / "sheet.html.j2"))]
    assert len(hashed) == 2 and sum("Edited once." in html for html in hashed) == 1, hashed
    full = _build(project, "full", cache=False)
    assert _pages(edited.target) == _pages(full.target)
    _pixels_equal(edited.target, full.target, project)


def _pixels_equal(a: Path, b: Path, folder: Path) -> None:
    """The first page of ``a`` and of ``b`` are the same pixels (pdftoppm at 50 dpi)."""
    from PIL import Image, ImageChops

    for pdf, name in ((a, "a"), (b, "b")):
        subprocess.run(["pdftoppm", "-r", "50", "-f", "1", "-l", "1", "-png", str(pdf), str(folder / name)], check=True)
    first, second = (Image.open(next(folder.glob(f"{name}-*.png"))).convert("RGB") for name in ("a", "b"))
    assert first.size == second.size and ImageChops.difference(first, second).getbbox() is None


@pytest.mark.slow
def test_a_changed_file_a_template_names_lays_out_every_face_naming_it(project):
    touch(project / "assets" / "logo.svg", LOGO.format("navy"))  # outside the template folders
    _edit(project, 0, "Edited too.")  # (the build's up-to-date check does not look outside its inputs' folders)
    changed = _build(project)
    assert changed.stats["faces laid out"] == 6  # every front names it; the back does not
    full = _build(project, "full", cache=False)
    assert _pages(changed.target) == _pages(full.target)


@pytest.mark.slow
def test_a_missing_file_a_template_names_is_not_hidden_by_a_kept_key(project):
    (project / "assets" / "logo.svg").unlink()
    _edit(project, 0, "Edited too.")
    result = api.build(api.load_project(project), api.BuildRequest(out_dir=project / "out", jobs=1))
    (outcome,) = result.games
    assert not result.ok and outcome.failure == "not printed"
    assert any(re.search("cannot read .*logo.svg", p.message) for p in outcome.problems)  # as a cold build says


@pytest.mark.slow
@pytest.mark.parametrize(
    ("change", "laid_out"),
    [
        ("icon", 2),  # the two cards that show it
        ("stylesheet", 7),
        ("template", 6),
        ("option", 7),
    ],
)
def test_templates_stylesheets_icons_and_options_are_not_hidden_by_kept_keys(project, change, laid_out):
    templates = project / "templates" / "t"
    request: dict[str, object] = {}
    if change == "icon":
        touch(templates / "icons" / "sun.svg", ICON.format("orange"))
    elif change == "stylesheet":
        touch(templates / "card.css", CSS + ".title { color: #333; }\n")
    elif change == "template":
        card = (templates / "card.html.j2").read_text(encoding="utf-8")
        touch(templates / "card.html.j2", card.replace('class="title"', 'class="title" data-x="1"'))
    else:
        request["options"] = {"bleed": 2.0}
    changed = _build(project, **request)
    assert changed.stats["faces laid out"] == laid_out
    full = _build(project, "full", cache=False, **request)
    assert _pages(changed.target) == _pages(full.target)


@pytest.mark.slow
def test_a_commands_edit_imports_neither_the_rules_book_nor_pdfium(project):  # a game without a rules folder
    import os
    import sys

    _edit(project, 2, "Edited by a command.")
    script = (
        "import sys\n"
        "from printer.cli import main\n"
        "try:\n"
        "    main(['build', 't', '--out', 'out', '--jobs', '2'])\n"
        "except SystemExit as exit:\n"
        "    print('exit', exit.code, *(name in sys.modules for name in ('printer.book.context', 'pypdfium2', 'weasyprint')))\n"
    )
    env = dict(os.environ, PYTHONPATH=str(Path(api.__file__).parents[2]))
    done = subprocess.run([sys.executable, "-c", script], cwd=project, env=env, capture_output=True, text=True)
    assert done.stdout.splitlines()[-1] == "exit 0 False False False", done.stdout + done.stderr
    full = _build(project, "full", cache=False)
    assert _pages(project / "out" / "t.pdf") == _pages(full.target)
