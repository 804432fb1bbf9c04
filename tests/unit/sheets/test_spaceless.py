"""The template filter ``spaceless`` drops the white space between two tags when one of them is a block-level tag,
and only there."""

from __future__ import annotations

import re

from hypothesis import given
from hypothesis import strategies as st

from printer.sheets.spaceless import _BLOCK_TAGS, spaceless

#: the rule as one pattern tried at every character: a block-level tag and the white space after it, before a tag;
#: or white space after a ``>``, before a block-level tag
RULE = re.compile(rf"(</?{_BLOCK_TAGS}\b[^>]*>)\s+(?=<)|(?<=>)\s+(?=</?{_BLOCK_TAGS}\b)", re.IGNORECASE)

#: pieces of a face's HTML: block-level and inline tags, tags that only start like a block-level one, white space of
#: every kind, a stray ``<`` or ``>``, text
_HTML = st.lists(
    st.sampled_from(
        ["<div>", "</div>", "<p class='x'>", "</p>", "<DIV>", "<span>", "</span>", "<strong>", "<pre>", "<h1>",
         "<hr/>", "<divx>", "<li data-a='<'>", "<div <b>", "<img src='a.svg'>", " ", "  ", "\n", "\t", "\u00a0",
         "\u3000", "a", "b c", "<", ">", "&gt;"]
    ),
    max_size=16,
).map("".join)  # fmt: skip


def test_white_space_beside_a_block_tag_goes_and_between_inline_tags_stays():
    html = '<div class="card">\n  <header>\n    <span class="a">A</span> <em>b</em>\n  </header>\n</div> text'
    assert spaceless(html) == '<div class="card"><header><span class="a">A</span> <em>b</em></header></div> text'


@given(_HTML)
def test_spaceless_drops_what_the_rule_drops(html: str):
    assert str(spaceless(html)) == RULE.sub(lambda m: m.group(1) or "", html)


#: pieces of a template inside ``{% filter spaceless %}``: its own text (tags, tags cut short, white space, text),
#: values it writes (markup: a value may hold tags too, or end a tag its text starts) and statements that may write
#: nothing
_TEMPLATE = st.lists(
    st.one_of(
        st.sampled_from(
            [
                "<div>",
                "</div>",
                "<p class='x'>",
                "<span>",
                "</span>",
                "<em>",
                "<divx>",
                "<header>",
                "<DIV>",
                "<li data-a='<'>",
                "<div <b>",
                "<p",
                "</li",
                "<div",
                " ",
                "  ",
                "\n",
                "\n    ",
                "\t",
                "a",
                "<",
                ">",
            ]
        ),
        st.integers(0, 3).map(lambda i: f"{{{{ v[{i}] }}}}"),
        st.integers(0, 3).map(lambda i: f"{{% if f[{i}] %}}"),
        st.just("{% endif %}"),
    ),
    max_size=24,
)


def _balanced(pieces: list[str]) -> str:
    """The pieces as a template whose ``if`` blocks are closed (an ``endif`` with none open is dropped)."""
    text, depth = "", 0
    for piece in pieces:
        if piece.startswith("{% if"):
            depth += 1
        elif piece == "{% endif %}":
            if not depth:
                continue
            depth -= 1
        text += piece
    return text + "{% endif %}" * depth


@given(_TEMPLATE, st.lists(_HTML, min_size=4, max_size=4), st.lists(st.booleans(), min_size=4, max_size=4))
def test_a_templates_own_white_space_dropped_when_compiled_gives_what_the_filter_gives(pieces, values, flags):
    """The white space a compiled template no longer holds (printer.sheets.spaceless.drop_static_gaps) is what
    the filter would have dropped at render time, whatever the template writes around it."""
    from markupsafe import Markup

    from printer.sheets.sandbox import TemplateSandbox

    source = "{% filter spaceless %}" + _balanced(pieces) + "{% endfilter %}"
    compiled = TemplateSandbox()
    compiled.filters["spaceless"] = spaceless
    at_render = TemplateSandbox()
    at_render.filters["spaceless"] = lambda html: spaceless(html)  # not printer's own: nothing dropped compiling
    context = {"v": [Markup(v) for v in values], "f": flags}
    expected = at_render.from_string(source).render(**context)
    assert compiled.from_string(source).render(**context) == expected


def test_the_template_text_around_block_tags_is_dropped_when_compiled():
    from printer.sheets.sandbox import TemplateSandbox

    env = TemplateSandbox()
    env.filters["spaceless"] = spaceless
    source = (
        '{% filter spaceless %}<div class="a">\n  <p>{{ x }}</p>\n  <span>b</span> <em>c</em>\n</div>{% endfilter %}'
    )
    tree = env.parse(source)
    from jinja2 import nodes

    texts = [node.data for node in tree.find_all(nodes.TemplateData)]
    assert texts == ['<div class="a"><p>', "</p><span>b</span> <em>c</em></div>"]
    assert env.from_string(source).render(x="y") == '<div class="a"><p>y</p><span>b</span> <em>c</em></div>'


def test_a_tag_the_template_text_leaves_unfinished_is_left_to_the_filter():
    """``<span> <div`` then a value ``x>``: the tag is ``<divx``, not a block-level one, so the space stays; and
    ``<span> <p`` then ``>``: a ``<p>``, so it goes."""
    from markupsafe import Markup

    from printer.sheets.sandbox import TemplateSandbox

    env = TemplateSandbox()
    env.filters["spaceless"] = spaceless
    source = "{% filter spaceless %}<span> <div{{ v }}<span> <p{{ w }}{% endfilter %}"
    assert env.from_string(source).render(v=Markup("x>"), w=Markup(">")) == "<span> <divx><span><p>"


def test_text_whose_output_goes_elsewhere_keeps_its_white_space():
    """A ``{% set %}`` block's text, a macro's and a ``{% block %}``'s may be written outside the filter, or through
    another filter first: compiling leaves them whole."""
    from printer.sheets.sandbox import TemplateSandbox

    env = TemplateSandbox()
    env.filters["spaceless"] = spaceless
    source = (
        "{% filter spaceless %}{% set x %}<div>  <div>{% endset %}{% macro m() %}<div>  <div>{% endmacro %}"
        "{% block b %}<div>  <div>{% endblock %}{{ x|length }}{{ m()|length }}{% endfilter %}{{ self.b()|length }}"
    )
    assert env.from_string(source).render() == "<div><div>121212"
