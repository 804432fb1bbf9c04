"""printer's own printed words, per language: the sheet labels at the foot of each card sheet and a board's
pages (``sheet.html.j2``), the tuck box's back panel (``box.html.j2``) and a reprint's changelog page
(:mod:`printer.sheets.changelog`).

The words are those printer itself prints, never a game's (a game's words are its cards and templates). A build in
a language of :data:`WORDS` (``printer build GAME --lang ja``) prints them in that language; any other language, or
a build without ``--lang``, prints the English ones, unchanged. The element holding words of another language than
English carries its ``lang`` (:func:`words_lang`), so that WeasyPrint draws Japanese glyph forms.
"""

from __future__ import annotations

#: printer's printed words by language tag; a word missing from a language is the English one
WORDS: dict[str, dict[str, str]] = {
    "en": {
        "sheet": "sheet {number}",
        "front": "front",
        "board": "{label} · page {row}-{col} (row-column) of {rows} x {cols}",
        "back": "back",
        "cards": "{count} cards",
        "deep": "{depth} mm of cards",
        "reprint": "reprint",
        "version": "version {version}",
        "since": "changes since {since}",
        "to_cut_one": "1 card to cut and put in place of the old ones.",
        "to_cut": "{count} cards to cut and put in place of the old ones.",
        "card": "card",
        "what_changed": "what changed",
        "take_out": "Take out",
        "added": "added",
        "changed": "changed",
        "removed": "removed",
        "new_card": "new card",
        "gone": "no longer in the set",
        "more": "… and {count} more changes",
    },
    "ja": {
        "sheet": "シート{number}",
        "front": "表",
        "board": "{label} · {rows} x {cols}ページ中{row}-{col}（行-列）",
        "back": "裏",
        "cards": "カード{count}枚",
        "deep": "カードの厚さ{depth} mm",
        "reprint": "刷り直し",
        "version": "バージョン{version}",
        "since": "{since}からの変更",
        "to_cut_one": "切り出して古いカードと差し替えるカード：1枚",
        "to_cut": "切り出して古いカードと差し替えるカード：{count}枚",
        "card": "カード",
        "what_changed": "変更点",
        "take_out": "取り除くカード",
        "added": "追加",
        "changed": "変更",
        "removed": "削除",
        "new_card": "新しいカード",
        "gone": "セットから外れたカード",
        "more": "…ほか{count}件の変更",
    },
}


def words_lang(lang: str | None) -> str | None:
    """The language of :data:`WORDS` that a build in ``lang`` (a language tag, ``None`` without ``--lang``)
    prints printer's words in, when it is not English: ``ja`` for ``ja`` or ``ja-JP``; ``None`` for English and
    for any language :data:`WORDS` does not hold (their words are the English ones)."""
    if not lang:
        return None
    base = lang.split("-")[0].lower()
    return base if base != "en" and base in WORDS else None


def words(lang: str | None) -> dict[str, str]:
    """printer's printed words for a build in ``lang`` (see :func:`words_lang`): every key of ``WORDS["en"]``."""
    chosen = words_lang(lang)
    return {**WORDS["en"], **WORDS[chosen]} if chosen else dict(WORDS["en"])


def box_details(lang: str | None, count: int | None, depth: float, card: tuple[float, float]) -> str:
    """The tuck box's back panel line: ``count`` cards (or, ``None``, ``depth`` mm of cards) and the ``card`` size
    (width, height, mm), in the words of ``lang``."""
    w = words(lang)
    what = w["cards"].format(count=count) if count is not None else w["deep"].format(depth=f"{depth:g}")
    return f"{what} · {card[0]:g} x {card[1]:g} mm"


def board_caption(label: str, row: int, col: int, rows: int, cols: int, lang: str | None = None) -> str:
    """The label of one page of a board printed over ``rows`` x ``cols`` pages: the board's ``label`` and the page's
    ``row`` and ``col`` (from 1), in the words of ``lang``."""
    return words(lang)["board"].format(label=label, row=row, col=col, rows=rows, cols=cols)
