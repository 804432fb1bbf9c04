"""Acceptance on the real data: the 3,535 imported L5R cards through XLSX and CSV and back, unchanged.

Skipped when ../shared/data is absent.
"""

from __future__ import annotations

import pytest

from printer.cards.catalog import load_cards, schema_store
from printer.cards.export import export_cards
from printer.project import load_project

pytestmark = [pytest.mark.shared, pytest.mark.slow]


@pytest.fixture(scope="module")
def imported(oracle_cards, repo, tmp_path_factory):
    """The imported Oracle cards loaded; returns (project, schema store, cards, a folder for the exports)."""
    tmp = tmp_path_factory.mktemp("oracle-export")
    project = load_project(repo)
    store = schema_store(project)
    sets, problems = load_cards(project, [oracle_cards], "l5r", store=store)
    assert not [p for p in problems if p.is_error]
    return project, store, list(sets["l5r"]), tmp


def _data(cards, with_copies):
    return {
        c.id: {
            **{k: v for k, v in c.data.items() if k not in ("$schema", "game")},
            **({"copies": c.copies} if with_copies else {}),
        }
        for c in cards
    }


@pytest.mark.parametrize("suffix", [".xlsx", ".csv"])
def test_real_cards_round_trip(imported, suffix):
    project, store, cards, tmp = imported
    assert len(cards) == 3535
    out = tmp / f"export{suffix}"
    export_cards(cards, store, project.games["l5r"].schema, out)
    sets, problems = load_cards(project, [out], "l5r", store=store)
    assert [p for p in problems if p.is_error] == []
    with_copies = any("copies" in c.data for c in cards)
    assert _data(sets["l5r"], with_copies) == _data(cards, with_copies)
