"""printer serve shows what a build prints: the cards as the build reads them, each face's HTML as the build's faces
stage renders it (its back card on its back, a double-sided card's other side), in a language as ``build --lang``,
at the print options a build without command-line options takes."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from printer.api.pipeline import faces_job
from printer.api.plan import print_options
from printer.cards.catalog import load_cards
from printer.sheets.faces.items import PrintItem, items_for_cards
from printer.sheets.job import SheetJob
from printer.sheets.plan import BuildRequest

REPO = Path(__file__).resolve().parents[3]


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    """The repository's example project (five games, translations, back cards, double-sided cards), served."""
    from printer.serve.workspace import Workspace

    root = tmp_path_factory.mktemp("shared") / "proj"
    root.mkdir()
    shutil.copy(REPO / "printer.toml", root / "printer.toml")
    for folder in ("cards", "templates", "schema", "rules"):
        shutil.copytree(REPO / folder, root / folder)
    return Workspace(root)


def _build_job(served, game_id: str, lang: str | None = None) -> SheetJob:
    """The job a build of ``game_id`` renders its faces with (no command-line options)."""
    project, game = served.project, served.project.games[game_id]
    request = BuildRequest(lang=lang)
    return faces_job(project, game, request, print_options(project, game, request))


def test_the_gallery_holds_the_cards_a_build_reads(served):
    sets, problems = load_cards(served.project, served.targets())
    assert {game: [c.id for c in cards] for game, cards in sets.items()} == {
        game: [c.id for c in cards] for game, cards in served.cards.items()
    }
    shown = [p.as_dict() for p in served.problems]
    assert all(p.as_dict() in shown for p in problems)


def _printed(served, game_id: str) -> list[tuple[SheetJob, PrintItem]]:
    """Each item a build of ``game_id`` prints with the job whose faces stage renders it: the card sheets' job, a
    component's piece its component's (:func:`printer.api.pipeline._component_jobs`)."""
    from printer.api.pipeline import _component_jobs
    from printer.api.plan import make_plan

    project, game = served.project, served.project.games[game_id]
    plan = make_plan(project, game, BuildRequest(aids=False))
    job = _build_job(served, game_id)
    job_for, _ = _component_jobs(project, game, plan.opts, plan.layout.page, plan.extra_roots)
    printed = [(job, item) for item in plan.items]
    for component, items in plan.components:
        component_job = job_for(component)
        printed += [(component_job, item) for item in items]
    return printed


def test_each_face_is_the_html_the_builds_faces_stage_renders(served):
    compared = {"back card": 0, "double-sided": 0, "named back": 0}
    for game_id in ("l5r", "res-arcana"):
        for job, item in _printed(served, game_id):
            assert item.card is not None
            entry = served.entries[f"{game_id}/{item.card.id}"]
            assert served.html.get(entry.front) == str(job.faces.front(item)[0]), item.card.id
            assert served.html.get(entry.back) == str(job.faces.back(item)[0]), item.card.id
            kind = job.faces.back_ident(item)[0]
            compared[{"card": "back card", "self": "double-sided"}.get(kind, "named back")] += 1
    assert all(compared.values()), compared


def test_a_cards_face_in_a_language_is_the_html_of_build_lang(served):
    from printer.cards.translations import translate
    from printer.serve.langs import Languages

    languages = Languages(served)
    entries = {e["uid"]: e for e in languages.entries("ja") if e.get("translation") == "translated"}
    assert entries
    found = languages.translations("l5r")
    in_ja, _ = translate(served.cards["l5r"], found.book, "ja", found.fields)
    job = _build_job(served, "l5r", "ja")
    for item in items_for_cards(in_ja, in_ja):
        entry = entries.get(f"l5r/{item.card.id}") if item.card is not None else None
        if entry is not None:
            assert served.html.get(entry["front"]) == str(job.faces.front(item)[0])
            assert 'lang="ja"' in str(job.faces.front(item)[0])


def test_a_drafts_back_is_its_back_card_as_it_prints(served):
    cards = served.cards["res-arcana"]
    card = next(c for c in cards if c.get("back_card"))
    preview = served.preview(
        "res-arcana", card.record.file, card.record.pointer, dict(card.data), f"res-arcana/{card.id}"
    )
    assert preview["error"] is None
    back_card = cards.by_id(card["back_card"])
    assert served.html.get(preview["back"]) == str(_build_job(served, "res-arcana").renderer.front(back_card))


def test_the_gallery_shows_the_print_options_a_build_takes(served):
    for game_id, game in served.project.games.items():
        assert served._game(game_id).job.opts == print_options(served.project, game, BuildRequest())
