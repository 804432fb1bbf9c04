"""A small project in two languages (English cards, a Japanese overlay) for the tests of builds in one language."""

from __future__ import annotations

import json
from pathlib import Path

from printer.cards.translations import source_digest

CARDS = [
    {"id": "c1", "title": "Hold the Line", "type": "Action", "text": "Each defender gains +2 force."},
    {"id": "c2", "title": "Dawn Raid", "type": "Action", "text": "Bow a personality."},
    {"id": "c3", "title": "Quiet Hour", "type": "Action", "text": "Draw a card."},
]
JA = {
    "c1": {
        "title": "戦線を守れ",
        "text": "防御側の人物はそれぞれ兵力＋２を得る。「守りの構え」を取った人物は、このターンの終わりまで屈服しない。",
    },
    "c2": {"title": "夜明けの急襲", "text": "人物を１人屈服させる。"},
}
CSS = """
.card { position: absolute; inset: 0; font: 9pt "DejaVu Sans", sans-serif; }
.card:lang(ja) { font-family: "Noto Sans CJK JP", sans-serif; }
.title { font-weight: bold; }
.text { position: absolute; left: 3mm; right: 3mm; top: 12mm; height: 30mm; overflow: hidden; }
"""
CARD = (
    '<div class="card"><div class="title">{{ card.title }}</div>'
    '<div class="text" data-fit="text" data-fit-min="{{ card.get("fit_min", "6pt") }}">{{ text }}</div>'
    '<div class="lang">{{ lang }}</div></div>\n'
)


def entry(card_id: str, **fields) -> dict:
    """An overlay entry translating ``fields`` of card ``card_id``, made from its current source text."""
    source = next(c for c in CARDS if c["id"] == card_id)
    return {"id": card_id, **fields, "from": {k: source_digest(source[k]) for k in fields}}


def make_project(root: Path, ja: dict[str, dict] | None = None, languages: str = '["en", "ja"]') -> Path:
    """The project at ``root``: game ``t`` in ``languages``, title and text translatable, three cards; ``ja`` the
    Japanese translations by card id (default :data:`JA`: two of the three cards)."""
    root.mkdir(parents=True, exist_ok=True)
    toml = (
        '[project]\npaper = "A4"\n\n[games.t]\nname = "T"\ncard_size = "poker"\n'
        f'languages = {languages}\ntranslatable = ["title", "text"]\n'
    )
    (root / "printer.toml").write_text(toml, encoding="utf-8")
    templates = root / "templates" / "t"
    templates.mkdir(parents=True, exist_ok=True)
    (templates / "card.html.j2").write_text(CARD, encoding="utf-8")
    (templates / "back.html.j2").write_text('<div class="card back">{{ lang }}</div>', encoding="utf-8")
    (templates / "card.css").write_text(CSS, encoding="utf-8")
    (root / "schema" / "t").mkdir(parents=True, exist_ok=True)
    schema = {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "https://printer.invalid/schema/t/card.schema.json",
        "allOf": [{"$ref": "../card.schema.json"}],
    }
    (root / "schema" / "t" / "card.schema.json").write_text(json.dumps(schema), encoding="utf-8")
    (root / "cards" / "t").mkdir(parents=True, exist_ok=True)
    (root / "cards" / "t" / "cards.json").write_text(json.dumps({"game": "t", "cards": CARDS}), encoding="utf-8")
    write_overlay(root, JA if ja is None else ja)
    return root


def write_overlay(root: Path, ja: dict[str, dict]) -> Path:
    """``cards/t/ja/cards.json``: the Japanese translations ``ja`` (card id -> fields)."""
    folder = root / "cards" / "t" / "ja"
    folder.mkdir(parents=True, exist_ok=True)
    data = {"game": "t", "lang": "ja", "cards": [entry(card_id, **fields) for card_id, fields in ja.items()]}
    path = folder / "cards.json"
    path.write_text(json.dumps(data, ensure_ascii=False, indent=1), encoding="utf-8")
    return path
