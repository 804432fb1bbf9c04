"""problems.closest gives difflib's answer, also when rapidfuzz sets most candidates aside first."""

from __future__ import annotations

import difflib

from hypothesis import given
from hypothesis import strategies as st

from printer.problems import Candidates, closest

WORDS = st.text(alphabet="abcdeéfgh •'-", min_size=0, max_size=14)


def _difflib(word: str, candidates: list[str], n: int = 3, cutoff: float = 0.6) -> list[str]:
    lowered = {c.lower(): c for c in candidates}
    return [lowered[f] for f in difflib.get_close_matches(word.lower(), list(lowered), n=n, cutoff=cutoff)]


@given(WORDS, st.lists(WORDS, min_size=201, max_size=400), st.integers(1, 4))
def test_same_names_as_difflib_among_many(word, candidates, n):
    assert closest(word, candidates, n=n) == _difflib(word, candidates, n=n)
    assert closest(word, Candidates(candidates), n=n) == _difflib(word, candidates, n=n)


@given(WORDS, st.lists(WORDS, max_size=30))
def test_same_names_as_difflib_among_few(word, candidates):
    assert closest(word, candidates) == _difflib(word, candidates)


def test_card_names():
    names = [f"Card {i}" for i in range(300)] + ["Akodo Kano", "Akodo Kage", "Kitsu Suki", "Fall Back!"]
    assert closest("akodo kan", names) == _difflib("akodo kan", names)
    assert closest("fall back", names) == ["Fall Back!"]
