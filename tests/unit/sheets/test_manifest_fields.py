"""A manifest's field digests: the JSON a field is hashed as is ``json.dumps``' own, whatever the value."""

from __future__ import annotations

import json

from hypothesis import given
from hypothesis import strategies as st

from printer.sheets.manifest import field_digest, field_json

values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4),
    max_leaves=12,
)


@given(values)
def test_a_field_s_json_is_what_json_dumps_writes(value):
    assert field_json(value) == json.dumps(value, sort_keys=True, ensure_ascii=False, default=str)


@given(st.lists(st.text(alphabet='a"\\\n\u2028\u00e9\u5149 ', max_size=5), max_size=4))
def test_lists_of_strings_with_quotes_escapes_and_line_breaks_are_written_as_json_dumps_does(value):
    assert field_json(value) == json.dumps(value, ensure_ascii=False)


def test_the_memo_gives_the_digest_without_it_and_keeps_one_entry_a_value():
    memo: dict[str, str] = {}
    fields = ["Crab", "Crab", 3, [], ["Samurai", "Crab"], True, 1, "1"]
    assert [field_digest(v, memo) for v in fields] == [field_digest(v) for v in fields]
    assert len(memo) == len({field_json(v) for v in fields}) == 7
    assert field_digest(True, memo) != field_digest(1, memo) != field_digest("1", memo)


def test_a_card_s_field_digests_come_back_from_the_last_build_by_its_key_and_a_damaged_entry_is_worked_out(tmp_path):
    from printer.sheets.manifest import FileDigests

    data = {"name": "Hida Kisada", "force": 4, "keywords": ["Samurai", "Champion"]}
    expected = {name: field_digest(value) for name, value in data.items()}
    first = FileDigests(tmp_path)
    assert first.fields("k1", data, {}) == expected and first.fields(None, data, {}) == expected
    first.save()
    again = FileDigests(tmp_path)
    assert again.fields("k1", {**data, "force": 9}, {}) == expected  # the key stands for the data: its digests
    assert again.fields("k2", data, {}) == expected  # an unknown key: worked out
    (tmp_path / "digests.json").write_text('{"cards": {"k1": "short"}}')
    assert FileDigests(tmp_path).fields("k1", data, {}) == expected
