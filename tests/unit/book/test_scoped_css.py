"""A game's card stylesheets reach the cards a rules book embeds, never the book (printer.book.scoped)."""

from __future__ import annotations

from printer.book.scoped import scoped_css


def test_every_rule_is_put_inside_the_card_faces(tmp_path):
    css = tmp_path / "card.css"
    css.write_text(
        "body { background: #c00; font-size: 9pt }\n"
        "html > body .card, :root { color: red }\n"
        "section, p:not(.a, .b), .back { margin: 1mm }\n"
        "@page { size: A5; margin: 12mm }\n"
        "@media print { .card { color: blue } }\n"
        '@font-face { font-family: X; src: url("fonts/x.woff") }\n'
        ".art { background: url(art/a.png) }\n",
        encoding="utf-8",
    )
    scoped = scoped_css(css)
    assert ".rb-card-face { background: #c00; font-size: 9pt }" in scoped
    assert ".rb-card-face .card, .rb-card-face { color: red }" in scoped
    assert ".rb-card-face section, .rb-card-face p:not(.a, .b), .rb-card-face .back { margin: 1mm }" in scoped
    assert "@page" not in scoped and "A5" not in scoped
    assert "@media print {\n.rb-card-face .card { color: blue }\n}" in scoped
    assert f'url("{(tmp_path / "fonts/x.woff").as_uri()}")' in scoped
    assert f'url("{(tmp_path / "art/a.png").as_uri()}")' in scoped


def test_a_missing_stylesheet_gives_nothing(tmp_path):
    assert scoped_css(tmp_path / "missing.css") == ""
