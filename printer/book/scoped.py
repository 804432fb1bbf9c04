"""A game's card stylesheets scoped to the cards a rules book embeds, so that they style the cards and not the book.

On card sheets a game's ``card.css`` (and ``card-common.css``) reach only the faces (:mod:`printer.sheets.render`).
A rules book holds its cards in its own page flow (``.rb-card-face`` boxes: ``templates/rules/blocks``), so the
same rules, linked as they are, would style the book: a ``body``, ``p``, ``section`` or ``@page`` rule of the game
would change the book's pages and text. :func:`scoped_css` rewrites a stylesheet for the book: every selector is
put inside the scope (``.card`` becomes ``.rb-card-face .card``), the ``html``, ``:root`` and ``body`` at the start
of a selector become the scope itself (their inherited properties reach the card, as on a face page), ``@page``
rules are left out, and relative ``url()`` references are made absolute (the rules move from the file into the
book's ``<style>``). ``@media`` and ``@supports`` blocks are scoped inside; ``@font-face`` and the other at-rules
are kept as they are. The CSS is read with tinycss2 (WeasyPrint's own CSS reader).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import urljoin

import tinycss2

if TYPE_CHECKING:
    from tinycss2.ast import Node

#: the element each embedded card face sits in (templates/rules/blocks/cards.html.j2, book.html.j2's cover)
SCOPE = ".rb-card-face"
_ROOTS = re.compile(r"^(?:(?:html|:root)(?![\w-])[^\s>+~,]*\s*>?\s*)?(?:body(?![\w-])[^\s>+~,]*)?", re.IGNORECASE)
_URL = re.compile(r"""url\(\s*(["']?)([^"')]*)\1\s*\)""", re.IGNORECASE)
_NESTED = {"media", "supports", "layer", "container"}


def scoped_css(path: Path, scope: str = SCOPE) -> str:
    """The stylesheet at ``path`` with every rule scoped to ``scope`` (see the module's docstring); ``""`` when it
    cannot be read (the book's own layout reports a missing stylesheet)."""
    try:
        text = path.read_text(encoding="utf-8-sig", errors="replace")
    except OSError:
        return ""
    base = path.resolve().as_uri()
    rules = tinycss2.parse_stylesheet(text, skip_comments=True, skip_whitespace=True)
    return "\n".join(_rules(rules, scope, base))


def _rules(rules: Iterable[Node], scope: str, base: str) -> list[str]:
    out: list[str] = []
    for rule in rules:
        if rule.type == "qualified-rule":
            selectors = _selectors(tinycss2.serialize(rule.prelude), scope)
            body = _absolute(tinycss2.serialize(rule.content), base)
            out.append(f"{selectors} {{{body}}}")
        elif rule.type == "at-rule":
            name = rule.lower_at_keyword
            if name == "page":
                continue
            prelude = " " + tinycss2.serialize(rule.prelude).strip() if rule.prelude else ""
            if name in _NESTED and rule.content is not None:
                inner = tinycss2.parse_rule_list(rule.content, skip_comments=True, skip_whitespace=True)
                out.append(f"@{rule.at_keyword}{prelude} {{\n" + "\n".join(_rules(inner, scope, base)) + "\n}")
            elif rule.content is None:
                out.append(f"@{rule.at_keyword}{_absolute(prelude, base)};")
            else:
                out.append(f"@{rule.at_keyword}{prelude} {{{_absolute(tinycss2.serialize(rule.content), base)}}}")
    return out


def _selectors(prelude: str, scope: str) -> str:
    """Each selector of the comma-separated ``prelude`` put inside ``scope``."""
    return ", ".join(_one(selector.strip(), scope) for selector in _split(prelude) if selector.strip())


def _split(prelude: str) -> list[str]:
    """``prelude`` split at its top-level commas (not those inside ``:is(a, b)`` or ``[x="a,b"]``)."""
    parts, depth, quote, start = [], 0, "", 0
    for i, char in enumerate(prelude):
        if quote:
            quote = "" if char == quote else quote
        elif char in "\"'":
            quote = char
        elif char in "([":
            depth += 1
        elif char in ")]":
            depth -= 1
        elif char == "," and depth == 0:
            parts.append(prelude[start:i])
            start = i + 1
    parts.append(prelude[start:])
    return parts


def _one(selector: str, scope: str) -> str:
    roots = _ROOTS.match(selector)
    if roots is not None and roots.group(0).strip():
        rest = selector[roots.end() :].strip()
        if not rest:
            return scope
        return f"{scope} {rest}"
    return f"{scope} {selector}"


def _absolute(text: str, base: str) -> str:
    """``text`` with each relative ``url()`` made absolute against ``base`` (the stylesheet's own URL)."""

    def one(match: re.Match[str]) -> str:
        url = match.group(2).strip()
        if not url or url.startswith(("data:", "#")):
            return match.group(0)
        return f'url("{urljoin(base, url)}")'

    return _URL.sub(one, text)
