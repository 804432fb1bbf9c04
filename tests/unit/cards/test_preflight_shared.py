"""printer validate shares the cards it renders with forked processes and reports what one process would."""

from __future__ import annotations

import os
import shutil

import pytest
from hypothesis import given
from hypothesis import strategies as st

from printer import api
from printer.sheets import forked, preflight


@pytest.fixture
def troubled(tmp_path, run):
    """``printer init``'s project with problems on cards of every part: a template error on the Drift cards, an
    icon_url() of no icon on the Events, and an unknown icon in two cards' text."""
    root = tmp_path / "p"
    assert run("init", root).code == 0
    template = root / "templates/p/card.html.j2"
    text = template.read_text(encoding="utf-8")
    text = text.replace(
        '<div class="safe">',
        '<div class="safe">{% if card.get("faction") == "Drift" %}{{ card.nope }}{% endif %}'
        '{% if card.type == "Event" %}<img src="{{ icon_url("nope") }}">{% endif %}',
    )
    template.write_text(text, encoding="utf-8")
    for name in ("crew.csv", "ships.json"):
        cards = root / "cards/p" / name
        cards.write_text(cards.read_text(encoding="utf-8").replace("{shield}", "{sheild}"), encoding="utf-8")
    return root


def _preflight(root, jobs):
    shutil.rmtree(root / "build", ignore_errors=True)  # no card remembered clean
    project = api.load_project(root)
    targets = [root / "cards/p"]
    sets, known = api.load_cards(project, targets, None)
    return [(p.where, p.message, p.hint, p.severity) for p in preflight.preflight(project, sets, targets, known, jobs)]


def test_forked_processes_report_what_one_process_reports_in_its_order(troubled, monkeypatch):
    alone = _preflight(troubled, 1)
    monkeypatch.setattr(forked, "can_fork", lambda: True)  # pytest-xdist runs a thread of its own
    assert {"template", "icon_url", "sheild"} <= {
        w for p in alone for w in ("template", "icon_url", "sheild") if w in p[1]
    }
    monkeypatch.setattr(preflight, "FORK_FROM", 2)
    for jobs in (2, 3, 6):
        assert _preflight(troubled, jobs) == alone
    remembered = (troubled / "build/.cache/preflight/p.json").read_text(encoding="utf-8")
    _preflight(troubled, 1)
    assert (troubled / "build/.cache/preflight/p.json").read_text(encoding="utf-8") == remembered  # the same clean


def test_the_cards_of_a_process_that_died_are_rendered_here(troubled, monkeypatch):
    alone = _preflight(troubled, 1)
    monkeypatch.setattr(preflight, "FORK_FROM", 2)
    monkeypatch.setattr(forked, "can_fork", lambda: True)
    main = os.getpid()
    probe = preflight._Shared._probe

    def dies(self, part):
        if os.getpid() != main:
            os._exit(3)
        return probe(self, part)

    monkeypatch.setattr(preflight._Shared, "_probe", dies)
    assert _preflight(troubled, 3) == alone


def test_a_clean_project_renders_in_forked_processes_too(tmp_path, run, monkeypatch):
    root = tmp_path / "p"
    assert run("init", root).code == 0
    monkeypatch.setattr(preflight, "FORK_FROM", 2)
    monkeypatch.setattr(forked, "can_fork", lambda: True)
    started = []
    monkeypatch.setattr(
        forked, "in_forks", lambda work, chunks: started.append(chunks) or (lambda: [[] for _ in chunks])
    )
    assert _preflight(root, 2) == []
    assert len(started) == 1 and len(started[0]) == 1


def test_no_fork_below_fork_from_or_with_one_job(tmp_path, run, monkeypatch):
    root = tmp_path / "p"
    assert run("init", root).code == 0
    monkeypatch.setattr(forked, "in_forks", lambda *_: pytest.fail("forked"))
    assert _preflight(root, 2) == []  # 6 cards, under FORK_FROM
    monkeypatch.setattr(preflight, "FORK_FROM", 2)
    assert _preflight(root, 1) == []


@given(st.lists(st.integers(), max_size=40), st.integers(min_value=1, max_value=9))
def test_chunks_are_runs_of_the_items_as_even_as_can_be(items, parts):
    cut = forked.chunks(items, parts)
    assert [item for chunk in cut for item in chunk] == items
    assert len(cut) == max(1, min(parts, len(items)))
    sizes = [len(chunk) for chunk in cut]
    assert max(sizes) - min(sizes) <= 1


def test_validate_takes_jobs(tmp_path, run):
    root = tmp_path / "p"
    assert run("init", root).code == 0
    result = run("--project", root, "validate", "--jobs", "2")
    assert result.code == 0 and "6 valid cards" in result.out
    assert run("--project", root, "validate", "--jobs", "0").code == 2
