"""The template sandbox's cheap paths keep its bounds: what skips a check is shown here to make nothing a bound
would have refused (the bombs themselves are in test_resource_limits.py)."""

from __future__ import annotations

import jinja2
import jinja2.filters
import pytest

from printer.sheets import sizes
from printer.sheets.sandbox import _DICT_READS, _KEEPS_VALUE, TemplateSandbox

LONG = "y" * 1_000_000


@pytest.mark.parametrize("name", sorted(_KEEPS_VALUE))
def test_a_filter_whose_result_is_not_counted_makes_no_string(name: str) -> None:
    """Each filter that skips the count is Jinja2's own, and gives an argument back or a number."""
    env = TemplateSandbox()
    assert env.filters[name] is jinja2.filters.FILTERS[name]
    items = [LONG, "z" + LONG]
    taken = 0
    for value, arguments in ((LONG, ()), (items, ()), (LONG, (items,)), ([3, 1, 2], ()), (2.5, ()), (-3, ())):
        try:
            result = env.filters[name](*_passed(env, name), value, *arguments)
        except (TypeError, ValueError):
            continue  # not a value this filter takes
        taken += 1
        if isinstance(result, (int, float)):
            continue
        assert any(result is given for given in (value, *arguments)), (name, type(result))
    assert taken >= 2, name


def _passed(env: TemplateSandbox, name: str) -> tuple:
    """What Jinja2 passes a filter first (the environment or evaluation context), as the template would."""
    from jinja2.nodes import EvalContext
    from jinja2.utils import _PassArg

    kind = _PassArg.from_obj(env.filters[name])
    if kind is _PassArg.environment:
        return (env,)
    if kind is _PassArg.eval_context:
        return (EvalContext(env),)
    return ()


def test_a_filter_that_copies_a_string_is_still_counted(monkeypatch) -> None:
    """``lower``, ``trim``, ``safe``, ``e``: a copy, even no longer than its argument, is charged to the render.
    The budget is lowered to 20 copies of the string: what is shown is that each copy is charged, and the
    default budget (200 million characters) would make 200 copies a filter, 1.8 GB of string work."""
    monkeypatch.setattr(sizes, "MAX_PRODUCED", 20 * len(LONG))
    env = TemplateSandbox()
    for name in ("lower", "upper", "trim", "safe", "e", "escape", "reverse", "string", "capitalize"):
        assert name not in _KEEPS_VALUE
        template = env.from_string(
            "{% set l = [] %}{% for i in range(1000) %}{% if l.append(s|" + name + ") %}{% endif %}{% endfor %}"
        )
        with pytest.raises(sizes.RenderLimit, match="characters in all"):
            template.render(s=" " + LONG + " ")


def test_reads_of_a_dict_are_plain_calls_in_loops_and_macros() -> None:
    """A dict read (``card.get(...)``) is called at once; inside a loop or a macro Jinja2's own arguments are not
    passed to it."""
    env = TemplateSandbox()
    source = (
        "{% macro m(d) %}{{ d.get('a') }}{% for k, v in d.items() %}[{{ k }}={{ d.get(k, 0) }}]{% endfor %}"
        "{% endmacro %}{% for i in [1] %}{{ d.get('b', 'none') }}{{ d.keys()|list|length }}"
        "{{ d.values()|list|length }}{% endfor %}|{{ m(d) }}"
    )
    assert env.from_string(source).render(d={"a": 1}) == "none11|1[a=1]"
    assert _DICT_READS <= {"get", "keys", "values", "items"}


def test_reading_a_long_value_many_times_makes_nothing() -> None:
    """A read gives the value already there, so reading it often is not charged as if it were a new string."""
    source = "{% set n = namespace(c=0) %}{% for i in range(1000) %}{% set n.c = n.c + d.get('a')|length %}"
    assert TemplateSandbox().from_string(source + "{% endfor %}{{ n.c }}").render(d={"a": LONG}) == str(10**9)


def test_a_block_of_many_outputs_is_counted_at_once() -> None:
    """A block's outputs, appended together (``extend``), are counted before they are kept."""
    buffer = sizes.BoundedBuffer()
    buffer.extend(("a", "bc"))
    buffer.extend(iter(["d"]))
    assert buffer.size == 4 and "".join(buffer) == "abcd"
    with pytest.raises(sizes.RenderLimit, match="over 10,000,000 characters"):
        buffer.extend((LONG,) * 11)
    assert buffer.size == 4 and len(buffer) == 3  # nothing of the refused outputs kept
    with pytest.raises(sizes.RenderLimit):
        buffer.extend(iter([LONG] * 11))


def test_a_few_strings_are_weighed_as_the_general_count_weighs_them() -> None:
    for value in (["ab", "c"], ("", "x" * 40), [], ["a", 1], ["a", ["b"]], ["q"] * 40):
        general = 2 + sum(sizes.text_size(item) if isinstance(item, str) else 0 for item in value)
        if all(isinstance(item, str) for item in value):
            assert sizes.text_size(value) == general
    assert sizes.text_size(["a", 1]) == 2 + 1 + 24
    assert sizes.text_size(["a", ["b"]]) == 2 + 1 + 2 + 1


def test_a_template_that_is_not_there_is_refused_as_jinja_refuses_it_looking_once(tmp_path, monkeypatch) -> None:
    """``select_template(["card-personality.html.j2", "card.html.j2"])`` asks for a type's own template at every card;
    the contained loader answers a missing one as FileSystemLoader does, with one look into each folder, not two."""
    import os

    from printer.sheets.sandbox import ContainedLoader

    (tmp_path / "a").mkdir()
    (tmp_path / "a" / "card.html.j2").write_text("card", encoding="utf-8")
    folders = [str(tmp_path / "a"), str(tmp_path / "b")]
    contained = jinja2.Environment(loader=ContainedLoader(folders, [tmp_path]))
    plain = jinja2.Environment(loader=jinja2.FileSystemLoader(folders))
    for name in ("card-personality.html.j2", "../card.html.j2", "x/../../card.html.j2"):
        with pytest.raises(jinja2.TemplateNotFound) as ours:
            contained.get_template(name)
        with pytest.raises(jinja2.TemplateNotFound) as theirs:
            plain.get_template(name)
        assert (ours.value.name, ours.value.message) == (theirs.value.name, theirs.value.message)
    looked: list[str] = []
    stat = os.stat
    monkeypatch.setattr(os, "stat", lambda path, *a, **k: looked.append(os.fspath(path)) or stat(path, *a, **k))
    assert contained.select_template(["card-personality.html.j2", "card.html.j2"]).render() == "card"
    assert sum(path.endswith("card-personality.html.j2") for path in looked) == len(folders)


@pytest.mark.parametrize(
    "expression",
    ["d.title", "d.missing is undefined", "d.get('title')", "d.items()|list|length", "d.keys", "d.update",
     "d.pop", "d.__class__", "d.copy", "d['items']", "d.values()|list|first", "n.title", "s.upper()"],
)  # fmt: skip
def test_a_plain_dicts_attributes_are_what_jinjas_sandbox_gives(expression: str) -> None:
    """``card.title`` and ``card.get`` on a plain dict, found without the sandbox's checks, are what the sandbox
    gives; every other attribute of a dict (``update``, ``__class__``) is left to the sandbox."""
    from jinja2.sandbox import SandboxedEnvironment

    source = "{{ " + expression + " }}"
    values = {"d": {"title": "Hida", "items": "a key named as a method"}, "n": {"title": "x"}, "s": "abc"}

    def rendered(env: SandboxedEnvironment) -> str:
        try:
            return env.from_string(source).render(**values)
        except Exception as exc:  # noqa: BLE001 (the same refusal from both is what is compared)
            return f"{type(exc).__name__}: {exc}"

    ours = TemplateSandbox(undefined=jinja2.Undefined)
    assert rendered(ours) == rendered(SandboxedEnvironment(autoescape=True))
