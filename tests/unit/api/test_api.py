"""The library API: each job is one call returning its problems as data; nothing printed, nothing exits."""

from __future__ import annotations

from pathlib import Path

import pytest
from pypdf import PdfReader

from printer import api
from printer.problems import Severity, UsageError

REPO = Path(__file__).resolve().parents[3]
FIXTURES = REPO / "tests" / "fixtures" / "decks"


@pytest.mark.slow
def test_validate_returns_cards_and_problems(tmp_path: Path) -> None:
    project = api.load_project(REPO)
    report = api.validate(project)
    assert report.ok and report.cards > 0 and set(report.sets) == set(project.games)
    bad = tmp_path / "bad.json"
    bad.write_text('{"game": "l5r", "id": "x", "title": 3}', encoding="utf-8")
    report = api.validate(project, [bad])
    assert not report.ok
    assert all(p.severity is Severity.ERROR for p in report.problems)
    assert any(str(p.where).startswith(str(bad)) for p in report.problems)


def test_build_one_card_writes_the_pdf_and_reports_it(tmp_path: Path) -> None:
    project = api.load_project(REPO)
    seen = []
    first = next(iter(project.games["l5r"].cards.glob("*.json")))
    request = api.BuildRequest(games=["l5r"], only=[_first_id(first)], out_dir=tmp_path, aids=False)
    result = api.build(project, request, on_game=seen.append)
    assert result.ok and seen == result.games
    (game,) = result.games
    assert game.target == tmp_path / "l5r.pdf" and game.cards == 1 and game.sheets == 1
    assert game.paths[0] == game.target
    assert len(PdfReader(game.target).pages) == 2  # the front sheet and its backs


def test_build_refuses_an_unknown_game_with_a_hint() -> None:
    project = api.load_project(REPO)
    with pytest.raises(UsageError) as exc:
        api.build(project, api.BuildRequest(games=["l5rr"]))
    assert "l5r" in str(exc.value.problems[0].hint)


def test_check_decks_many_decklists_in_one_call() -> None:
    decks = sorted((FIXTURES / "ivory").glob("*.txt"))[:3]
    results = api.check_decks(None, decks, "l5r-ivory-extended", [FIXTURES / "cards"])
    assert [r.deck for r in results] == decks
    assert all(r.readable and r.report is not None for r in results)
    assert any(not r.legal for r in results)


def _first_id(file: Path) -> str:
    import json

    data = json.loads(file.read_text(encoding="utf-8"))
    cards = data["cards"] if isinstance(data, dict) and "cards" in data else data
    return (cards[0] if isinstance(cards, list) else cards)["id"]


def test_a_template_error_is_a_games_problem_not_an_exception_and_the_other_games_print(tmp_path: Path) -> None:
    """A library caller gets every problem as data (check-jsonschema's way): a game whose template fails is not
    printed and says where, and the build goes on with the next game."""
    import json

    from helpers import write_game_schema

    root = tmp_path / "p"
    (root / "printer.toml").parent.mkdir(parents=True)
    toml = "".join(f'[games.{g}]\nname = "{g.upper()}"\ncard_size = "poker"\n' for g in ("a", "b"))
    (root / "printer.toml").write_text(toml, encoding="utf-8")
    for game, body in (("a", "<div>{{ card.title }} {{ card.nosuch.x }}</div>"), ("b", "<div>{{ card.title }}</div>")):
        (root / "templates" / game).mkdir(parents=True)
        (root / "templates" / game / "card.html.j2").write_text(body, encoding="utf-8")
        (root / "templates" / game / "back.html.j2").write_text("<div>BACK</div>", encoding="utf-8")
        write_game_schema(root, game)
        (root / "cards" / game).mkdir(parents=True)
        cards = {"game": game, "cards": [{"id": f"{game}1", "title": "One", "type": "A"}]}
        (root / "cards" / game / "cards.json").write_text(json.dumps(cards), encoding="utf-8")
    result = api.build(api.load_project(root), api.BuildRequest(out_dir=root / "out", jobs=1))
    broken, printed = result.games
    assert not result.ok and (broken.game, broken.failure, broken.target) == ("a", "not printed", None)
    (problem,) = broken.problems
    assert problem.severity is Severity.ERROR and str(problem.where).endswith("card.html.j2:1")
    assert "nosuch" in problem.message and "cards.json" in str(problem.hint)
    assert printed.ok and printed.target == root / "out" / "b.pdf" and printed.target.is_file()
    assert not (root / "out" / "a.pdf").exists()
