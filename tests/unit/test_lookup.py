"""``printer.problems.lookup``: a named entry of a table, or a usage error that says what was meant."""

from __future__ import annotations

import pytest

from printer.problems import UsageError, lookup
from printer.sheets.export.preflight import get_profile
from printer.sheets.export.presets import get_preset


def test_lookup_returns_the_entry():
    assert lookup({"mpc": 1, "mbprint": 2}, "mbprint", "unknown", "--x") == 2


def test_lookup_names_the_closest_key():
    with pytest.raises(UsageError) as caught:
        lookup({"mpc": 1, "mbprint": 2}, "mbprnt", "unknown thing 'mbprnt'", "--x")
    (problem,) = caught.value.problems
    assert (problem.where, problem.message, problem.code) == ("--x", "unknown thing 'mbprnt'", "usage")
    assert problem.hint == "did you mean 'mbprint'?"
    assert caught.value.exit_code == 2


def test_lookup_lists_every_key_when_none_is_close():
    with pytest.raises(UsageError) as caught:
        lookup({"mpc": 1, "mbprint": 2}, "zzzzzz", "unknown", "--x")
    assert caught.value.problems[0].hint == "one of mpc, mbprint"


@pytest.mark.parametrize(
    ("get", "wrong", "where", "message"),
    [
        (get_preset, "drivethrucard", "--preset", "unknown preset 'drivethrucard'"),
        (get_profile, "drivethrucard", "--vendor", "no preflight profile for vendor 'drivethrucard'"),
    ],
)
def test_presets_and_preflight_profiles_share_the_lookup(get, wrong, where, message):
    assert get("drivethrucards") is get("drivethrucards")
    with pytest.raises(UsageError) as caught:
        get(wrong)
    (problem,) = caught.value.problems
    assert (problem.where, problem.message) == (where, message)
    assert problem.hint == "did you mean 'drivethrucards'?"
