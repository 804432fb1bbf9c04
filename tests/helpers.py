"""Helpers the test modules share: card and deck files, loading and checking them, the examples' PDF.

Plain functions, imported as ``from helpers import ...`` (pytest puts
``tests/`` on the import path); the fixtures are in ``conftest.py``, which
registers this module for assertion rewriting so that its asserts report
like a test's own. Lengths on a PDF page are PDF points (1/72 in):
``MM`` points make one millimetre.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from printer.cards.catalog import load_cards
from printer.cli import main
from printer.decks import check_file, load_format
from printer.project import load_project

REPO = Path(__file__).resolve().parents[1]
#: a valid L5R Personality card
PERSONALITY = {
    "id": "p1",
    "title": "Test Samurai",
    "type": "Personality",
    "deck": "Dynasty",
    "clan": "Crab",
    "cost": 5,
    "force": 3,
    "chi": 2,
    "honor_requirement": 2,
    "personal_honor": 1,
}
MM = 72 / 25.4


# --- card files -------------------------------------------------------------------------------------


def address_space_limit(limit: int = 2 * 2**30):
    """A ``preexec_fn`` for :func:`subprocess.run` that caps the child's address space at ``limit`` bytes (default
    2 GiB): a test of a memory bound runs its command in such a child, so that a regression fails that test (a
    ``MemoryError`` or an abort) instead of taking the machine's memory."""

    def limit_child() -> None:
        import resource

        resource.setrlimit(resource.RLIMIT_AS, (limit, resource.getrlimit(resource.RLIMIT_AS)[1]))

    return limit_child


def limit_address_space(limit: int = 3 * 2**29) -> None:
    """Cap this process's address space at ``limit`` bytes (default 1.5 GiB): the initializer of a child process
    that runs a memory bomb, so that one that escaped its bound fails there."""
    import resource

    resource.setrlimit(resource.RLIMIT_AS, (limit, resource.getrlimit(resource.RLIMIT_AS)[1]))


def template_refusal(source: str) -> str | None:
    """Render the template ``source`` (no data) in printer's sandbox: the message of the problem it raised, or
    ``None`` when it rendered. Run in a child capped by :func:`limit_address_space`."""
    from printer.sheets.sandbox import TemplateSandbox, template_problem

    try:
        TemplateSandbox().from_string(source).render()
    except Exception as exc:
        return template_problem(exc, "<template>").message
    return None


def write_json(path: Path, data, raw: str | None = None) -> Path:
    """Write ``data`` as 2-space indented UTF-8 JSON (or the text ``raw`` as it is) to ``path``, making its folder."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(raw if raw is not None else json.dumps(data, indent=2, ensure_ascii=False), encoding="utf-8")
    return path


def write_cards(path: Path, game: str, cards: list[dict]) -> Path:
    """Write ``cards`` as one card file of ``game`` (``{"game", "cards"}``) to ``path``."""
    return write_json(path, {"game": game, "cards": list(cards)})


def touch(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` as an editor saves it, with a modification time later than the last one even on a
    coarse clock."""
    path.write_text(text, encoding="utf-8")
    stat = path.stat()
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns + 10_000_000))


def write_game_schema(root: Path, game: str) -> Path:
    """Write ``schema/<game>/card.schema.json`` in the project ``root``: the shared card schema and nothing more."""
    schema = {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": f"https://printer.invalid/schema/{game}/card.schema.json",
        "allOf": [{"$ref": "../card.schema.json"}],
    }
    return write_json(root / "schema" / game / "card.schema.json", schema)


def write_project(root: Path, game: str, templates: dict[str, str], cards: list[dict]) -> Path:
    """Write a one-game project in ``root``: printer.toml (``game`` of poker-size cards), ``templates`` (file name
    -> source) in ``templates/<game>/``, the schema stub (:func:`write_game_schema`) and ``cards`` as
    ``cards/<game>/cards.json``. Returns ``root``."""
    root.mkdir(parents=True, exist_ok=True)
    toml = f'[games.{game}]\nname = "{game.upper()}"\ncard_size = "poker"\n'
    (root / "printer.toml").write_text(toml, encoding="utf-8")
    for name, source in templates.items():
        write_json(root / "templates" / game / name, None, raw=source)
    write_game_schema(root, game)
    write_cards(root / "cards" / game / "cards.json", game, cards)
    return root


def load_game(game: str, *paths: Path):
    """The :class:`~printer.cards.model.CardSet` of ``game`` read from ``paths`` (the repository's project); asserts no problem."""
    sets, problems = load_cards(load_project(REPO), list(paths))
    assert problems == []
    return sets[game]


def validate(tmp_path: Path, game: str, *cards: dict):
    """Validate ``cards`` as one card file of ``game``; returns ``(valid cards, problems)``."""
    path = write_cards(tmp_path / "cards" / game / "cards.json", game, list(cards))
    sets, problems = load_cards(load_project(REPO), [path])
    return (list(sets[game]) if game in sets else []), problems


# --- decks --------------------------------------------------------------------------------------------


def write_deck(tmp_path: Path, text: str) -> Path:
    """Write the decklist ``text`` to ``tmp_path/deck.txt``."""
    path = tmp_path / "deck.txt"
    path.write_text(text, encoding="utf-8")
    return path


def card_lines(names) -> str:
    """Decklist lines, one copy of each name: ``1 <name>``."""
    return "".join(f"1 {n}\n" for n in names)


def check_deck(tmp_path: Path, text: str, cards, format_name: str):
    """Check the decklist ``text`` against the format ``format_name`` with ``cards``; the report."""
    return check_file(write_deck(tmp_path, text), cards, load_format(format_name))


def assert_verdict(report, status: str, rules: list[str] | None = None) -> None:
    """The report's status is ``status`` and (when given) its violations break exactly ``rules`` (sorted)."""
    assert report.status == status, [v.message for v in report.violations]
    if rules is not None:
        assert sorted({v.rule for v in report.violations}) == rules


# --- the PDF ------------------------------------------------------------------------------------------


_EXAMPLES: dict[str, Path] = {}


def build_examples(tmp_path_factory, game: str) -> Path:
    """Print the repository's example cards of ``game`` (no player aids) once in a test run (once per pytest-xdist
    worker): every module that reads that PDF gets the same file, which it must not change; the PDF's path."""
    if game in _EXAMPLES and _EXAMPLES[game].is_file():
        return _EXAMPLES[game]
    out = tmp_path_factory.mktemp("build")
    try:
        main(["--project", str(REPO), "build", game, "--no-aids", "--out", str(out)])
    except SystemExit as exc:
        assert exc.code == 0
    _EXAMPLES[game] = out / f"{game}.pdf"
    return _EXAMPLES[game]


def card_boxes(page, width_mm: float, height_mm: float, tolerance_pt: float = 0.5) -> list[tuple[float, float]]:
    """The top-left corners (mm, to 0.1) of the page's ``width_mm`` x ``height_mm`` rectangles, sorted.

    A pdfplumber page; a rectangle matches when both sides are within ``tolerance_pt`` points.
    """
    return sorted(
        {
            (round(r["x0"] / MM, 1), round(r["top"] / MM, 1))
            for r in page.rects
            if abs(r["width"] - width_mm * MM) < tolerance_pt and abs(r["height"] - height_mm * MM) < tolerance_pt
        }
    )


# --- printer serve --------------------------------------------------------------------------------------------------


def sign_in(client, token: str, origin: str = "http://testserver"):
    """Sign Starlette's TestClient ``client`` in to a ``printer serve`` app as a browser does: visit the address with
    the run's access ``token`` (which answers with the session cookie), then send ``origin`` and the page's CSRF token
    with every request. Returns ``client``."""
    entry = client.get(f"/?token={token}")
    assert entry.status_code == 200 and "set-cookie" in entry.headers, entry.text
    page = client.get("/")
    assert page.status_code == 200, page.text
    csrf = page.text.split('name="csrf-token" content="')[1].split('"')[0]
    client.headers.update({"origin": origin, "x-csrf-token": csrf})
    return client
