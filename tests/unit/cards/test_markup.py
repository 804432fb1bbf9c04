"""Card-text markup: emphasis, breaks, paragraphs, icons, escaping, no HTML injection."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from printer.cards.markup import RenderEnv, escape_text, icons_in, plain_text, to_html


def env(*known):
    return RenderEnv(icon_url=lambda name: f"file:///icons/{name}.svg" if name in known else None)


def test_emphasis_breaks_and_paragraphs():
    html = to_html("**Battle:** bow *him*.\nNext line\n\nNew paragraph")
    assert html == ("<p><strong>Battle:</strong> bow <em>him</em>.<br>\nNext line</p><p>New paragraph</p>")


def test_icons_with_and_without_label():
    e = env("bow", "gold")
    html = to_html("{bow}: Produce {gold:2}.", e)
    assert '<img class="icon icon-bow" src="file:///icons/bow.svg" alt="bow">' in html
    assert (
        '<span class="icon-labelled icon-gold"><img class="icon icon-gold" src="file:///icons/gold.svg" alt="gold">'
        '<span class="icon-label">2</span></span>'
    ) in html
    assert e.unknown_icons == []
    # a label of two characters or more is marked, to be set smaller on the same icon (templates/card-common.css)
    assert '<span class="icon-label icon-label-wide">10</span>' in to_html("{gold:10}", e)


def test_unknown_icon_is_collected_and_printed_visibly():
    e = env()
    html = to_html("pay {gold}", e)
    assert e.unknown_icons == ["gold"]
    assert "icon-missing" in html and "{gold}" in html


def test_html_in_card_text_prints_as_text():
    html = to_html('<script>alert(1)</script> <b>x</b> & "q"')
    assert "<script>" not in html and "<b>" not in html
    assert "&lt;script&gt;" in html and "&amp;" in html


def test_escaped_markup_is_literal():
    assert to_html(r"2 \* 3 \{bow\}") == "<p>2 * 3 {bow}</p>"
    assert icons_in(r"\{bow} {gold:*}")[0].name == "gold"


def test_escape_text_round_trips_plain_text():
    text = "a*b_c {x} <i>&#149; [y] #1 `z` ~w~ |p| !"
    assert plain_text(escape_text(text)) == text


def test_japanese_text_passes_through():
    assert to_html("**戦闘:** {bow}サヨ:対象の従者を破壊する。", env("bow")).count("<img") == 1


@pytest.mark.parametrize(
    ("text", "bold"),
    [
        ("クラスのカードは**スモールサイズ(59 × 86 mm)**で印刷する", "スモールサイズ(59 × 86 mm)"),
        ("これは**「重要」**です", "「重要」"),
        ("**攻撃側**{x}、", "攻撃側"),
        ("a**b**c", "b"),
    ],
)
def test_bold_next_to_japanese_punctuation_is_bold_not_asterisks(text, bold):
    html = to_html(text)
    assert f"<strong>{bold}</strong>" in html
    assert "**" not in html


def test_asterisks_between_spaces_stay_asterisks():
    assert str(to_html("2 * 3 * 4")) == "<p>2 * 3 * 4</p>"
    assert "<em>" in to_html("an *italic* word")


#: characters of every kind card text has: letters (Latin, Japanese, Arabic), spaces, HTML's special characters,
#: CommonMark punctuation, and each character a markup rule acts on
_CARD_TEXT = st.text(
    alphabet=st.sampled_from(list("aZ9 \t\n\r\0.,:;!?#-+~`[]()<>&\"'/*_\\{}|=家臣黄金ع") + ["\u2028", "\u00a0"]),
    max_size=40,
)


@given(_CARD_TEXT)
def test_plain_paragraphs_skip_the_parser_and_print_what_the_parser_prints(text):
    from printer.cards import markup

    env = RenderEnv(icon_url=lambda name: f"icons/{name}.svg")
    parsed = RenderEnv(icon_url=env.icon_url)
    assert markup._inline_html(text, env) == markup._card_md().renderInline(text, {"printer": parsed})
    assert env.unknown_icons == parsed.unknown_icons


#: card text made of what the parser-free path reads (emphasis runs, icons, line breaks, spaces) and what sends a
#: paragraph to the parser after all (``_``, ``\\``, a run of three, an icon's label with a ``*``)
_EMPHASIS_TEXT = st.lists(
    st.sampled_from(
        ["*", "**", "***", "Open:", "a", "(b)", " ", "  ", "\n", " \n ", "\t", "{gold}", "{gold:3}", "{gold:*}",
         "{nope}", "{Bad}", "家臣", "「", "、", "é", "&", "<", '"', "'", ".", ",", ")", "(", "!", "_", "\\*", "\u00a0",
         "\u3000", "\x0b"]
    ),
    max_size=14,
).map("".join)  # fmt: skip


@given(_EMPHASIS_TEXT)
def test_emphasis_icons_and_breaks_without_the_parser_print_what_the_parser_prints(text):
    from printer.cards import markup

    env = RenderEnv(icon_url=lambda name: f"icons/{name}.svg" if name == "gold" else None)
    parsed = RenderEnv(icon_url=env.icon_url)
    assert markup._inline_html(text, env) == markup._card_md().renderInline(text, {"printer": parsed})
    assert env.unknown_icons == parsed.unknown_icons


def test_the_usual_card_text_skips_the_parser(monkeypatch):
    from printer.cards import markup

    monkeypatch.setattr(markup, "_card_md", lambda: pytest.fail("parsed"))
    text = "**Limited, {gold:3}:** Draw a card.  \n  *(Then discard one.)*\n**Battle:** Bow a target."
    html = to_html(text, RenderEnv(icon_url=lambda name: f"icons/{name}.svg"))
    assert html.count("<strong>") == 2 and html.count("<em>") == 1 and html.count("<br>\n") == 2
    assert "icon-label" in html
