"""The Oracle of the Void L5R CCG export to printer's L5R cards.

The export (the card database of the Oracle of the Void, the L5R CCG community card search) is a JSON list of card objects per
file. Nearly every field is a list of strings; ``formattedtitle``,
``printingprimary``, ``imagehash`` and ``puretexttitle`` are strings,
``cardid`` an integer, ``printing`` a list of printing objects. Text fields
carry HTML (``<b>``, ``<i>``, ``<br>``, entities such as ``&#149;``, the
Windows-1252 bullet) and icon codes (``:bow:``, ``:g2:``, ``:gstar:``,
``:g*:``).

Each Oracle card becomes one card of ``schema/l5r/card.schema.json``:

=====================  ==============================================
Oracle                 printer
=====================  ==============================================
formattedtitle         ``id`` (slug, e.g. ``hida-kisada-exp2``) and
                       ``experienced`` (the part after the bullet)
title                  ``title`` (no Experienced level)
type, deck             ``type``, ``deck``
keywords               ``keywords`` (HTML stripped; ``Unique`` and
                       ``Singular`` become booleans, the card's own
                       Experienced level is dropped)
clan                   ``clan`` (a list when several); a Sensei has no
                       clan field, its keywords name its clans
cost force chi focus   same names (integers when plain digits)
honor, ph              ``honor_requirement``, ``personal_honor``
strength, production,  ``province_strength``, ``gold_production``,
startinghonor          ``starting_honor``
text                   ``text`` in printer's card-text markup
legality               ``legality`` (each arc once)
banned                 ``banned``
erratum, mrp           ``errata`` (plain text, one line each)
cardid                 ``oracle_id``
printing[*].set        ``sets`` (every printing, each once)
primary printing       ``set``, ``number``, ``rarity``, ``artist``,
                       ``flavor`` (markup)
Ring title/keywords    ``element``
=====================  ==============================================

Fields listed in :data:`NOT_IMPORTED` are deliberately left out; every
field left out, known or not, is reported once with the number of cards
that had it.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from pathlib import Path

from printer.cards import importing as common
from printer.cards.importing import convert_each, convert_files, count_skipped, skipped_warnings, type_counts
from printer.games.l5r.clans import clan_names
from printer.games.l5r.oracle_text import fix_mojibake, html_to_markup, html_to_plain, unknown_tags
from printer.jsonvalue import JSONObject
from printer.problems import WARNING, Problem, counted, did_you_mean

GAME = "l5r"

#: Output file per card type (``schema/l5r/card.schema.json`` lists the types).
TYPE_FILES = {
    "Personality": "personalities.json",
    "Holding": "holdings.json",
    "Event": "events.json",
    "Region": "regions.json",
    "Celestial": "celestials.json",
    "Strategy": "strategies.json",
    "Follower": "followers.json",
    "Item": "items.json",
    "Spell": "spells.json",
    "Ring": "rings.json",
    "Stronghold": "strongholds.json",
    "Sensei": "senseis.json",
}

#: Oracle stat field -> printer field.
STATS = {
    "cost": "cost",
    "force": "force",
    "chi": "chi",
    "honor": "honor_requirement",
    "ph": "personal_honor",
    "strength": "province_strength",
    "production": "gold_production",
    "startinghonor": "starting_honor",
    "focus": "focus",
}

#: The order of fields in an imported card.
FIELD_ORDER = (
    "id",
    "title",
    "type",
    "deck",
    "experienced",
    "unique",
    "singular",
    "clan",
    "element",
    "cost",
    "force",
    "chi",
    "honor_requirement",
    "personal_honor",
    "province_strength",
    "gold_production",
    "starting_honor",
    "focus",
    "keywords",
    "text",
    "flavor",
    "legality",
    "banned",
    "errata",
    "set",
    "number",
    "rarity",
    "artist",
    "sets",
    "oracle_id",
)

#: Card fields the importer reads.
MAPPED = {
    "title",
    "formattedtitle",
    "type",
    "deck",
    "keywords",
    "clan",
    "text",
    "legality",
    "banned",
    "erratum",
    "mrp",
    "cardid",
    "printing",
    "printingprimary",
    *STATS,
}
#: Printing fields the importer reads (from the primary printing; ``set`` from every printing).
PRINTING_MAPPED = {"printingid", "set", "number", "rarity", "artist", "flavor"}

#: Fields deliberately not carried: database bookkeeping, image hashes, design history,
#: and per-printing variants of card fields (the card-level values are imported).
NOT_IMPORTED = {
    "imagehash": "an image-file hash of the Oracle site",
    "puretexttitle": "the title in ASCII, same as formattedtitle",
    "playtestname": "the name used in playtesting",
    "story": "story credits (prize winners)",
    "notes": "release notes",
    "updatelog": "the Oracle's edit history",
    "printing.printimagehash": "an image-file hash of the Oracle site",
    "printing.artnumber": "an internal art number",
    "printing.designer": "design credits",
    "printing.designernotes": "design notes",
    "printing.use": "a design note",
    "printing.printedwithset": "a release note",
    "printing.promoquantity": "a release note",
    "printing.legaldate": "a release note",
    "printing.story": "story credits",
    "printing.notes": "release notes",
    "printing.images": "image-file names of the Oracle site",
    **{
        f"printing.{name}": "a printing's own variant of a card field; the card's current value is imported"
        for name in (
            "text",
            "title",
            "type",
            "cost",
            "keywords",
            "focus",
            "force",
            "chi",
            "clan",
            "personalhonor",
            "honor",
        )
    },
}

ELEMENTS = ("Earth", "Water", "Fire", "Air", "Void")

_LEVEL = re.compile(r"(Inexperienced|Experienced(\s?\d+(\.\d+)?)?([A-Za-z]{1,3})?)")
_DIGITS = re.compile(r"\d+")


class OracleImport(common.ImportResult):
    """What :func:`import_oracle` found.

    ``cards`` are printer L5R cards (dicts in schema field order), in input
    order; ``problems`` are errors (bad input: the card or field is left
    out) and warnings (fields not imported, repaired text, duplicates);
    ``origins`` where each card was read (``file::$[index]``). Output files
    in :data:`TYPE_FILES` order, then other types (:func:`type_file`).
    """

    type_files = TYPE_FILES

    def file_of(self, card_type: str) -> str:
        """The output file of a card type (:func:`type_file`, defined below)."""
        return type_file(card_type)


# --- fields ------------------------------------------------------------------------


def slugify(text: str) -> str:
    """A lower-case ASCII slug: accents folded, apostrophes dropped, other runs of non-alphanumerics ``-``."""
    text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii").lower()
    text = re.sub(r"['\u2019]", "", text)
    return re.sub(r"[^a-z0-9.]+", "-", re.sub(r"\.(?!\d)|(?<!\d)\.", "-", text)).strip("-.")[:120] or "card"


def card_slug(title: str, level: str | None) -> str:
    """The id slug of a title and Experienced level: ``Hida Kisada``, ``Experienced 2`` -> ``hida-kisada-exp2``.

    The level is written as decklists write it (``- exp2``, ``- expCW``):
    ``Experienced`` -> ``exp``, ``Inexperienced`` -> ``inexp``.
    """
    if not level:
        return slugify(title)
    short = re.sub(r"^Inexperienced", "inexp", re.sub(r"^Experienced\s?", "exp", level))
    return slugify(f"{title} {re.sub(r'[^A-Za-z0-9.]', '', short)}")


def parse_stat(value: str) -> int | str:
    """A printed number: plain digits give an integer, anything else (``+2``, ``-``, ``*``, ``1*``) stays a string."""
    value = value.strip()
    return int(value) if _DIGITS.fullmatch(value) else value


def split_title(formatted: str, title: str | None) -> tuple[str, str | None]:
    """``(title, level)`` from ``formattedtitle``: ``"Keppo &#149; Experienced 2"`` -> ``("Keppo", "Experienced 2")``.

    The level is the part after the last bullet when it looks like an
    Experienced level (README: ``formattedtitle`` carries it; the Oracle also
    writes ``Inexperienced``, ``Experienced 2CW``, ``ExperiencedCoM``,
    ``Experienced 3.5``). ``title``, when given, wins as the title.
    """
    full = html_to_plain(formatted)
    base, bullet, level = full.rpartition(" \u2022 ")
    if bullet and _LEVEL.fullmatch(level):
        return (title or base), level
    return (title or full), None


def _strings(value: object) -> list[str] | None:
    """The strings of an Oracle field (a list of strings; a lone string or number is taken as one), or ``None``."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, int) and not isinstance(value, bool):
        return [str(value)]
    if isinstance(value, list) and all(isinstance(v, (str, int)) and not isinstance(v, bool) for v in value):
        return [str(v) for v in value]
    return None


def type_file(card_type: str) -> str:
    """The output file of a card type: :data:`TYPE_FILES`, else the type's slug plus ``s.json``."""
    return TYPE_FILES.get(card_type) or f"{slugify(card_type)}s.json"


def _unique(values: Iterable[str]) -> list[str]:
    return list(dict.fromkeys(v for v in values if v))


# --- cards -------------------------------------------------------------------------


class _Card:
    """Converts one Oracle record; collects problems and the fields it did not import."""

    def __init__(self, data: JSONObject, where: str, skipped: dict[str, tuple[int, str]]):
        self.data, self.where, self.skipped = data, where, skipped
        self.problems: list[Problem] = []
        self.skipped_here: set[str] = set()
        self.repaired: set[tuple[str, str]] = set()

    def error(self, path: str, message: str, hint: str | None = None) -> None:
        self.problems.append(Problem(f"{self.where}{path}", message, hint, code="oracle-input"))

    def warn(self, path: str, message: str, hint: str | None = None, code: str = "oracle-input") -> None:
        self.problems.append(Problem(f"{self.where}{path}", message, hint, WARNING, code))

    def strings(self, name: str, source: JSONObject | None = None, path: str = "") -> list[str]:
        source = self.data if source is None else source
        if name not in source:
            return []
        found = _strings(source[name])
        if found is None:
            self.error(
                f"{path}.{name}",
                f"{name!r} should be a list of strings, not {type(source[name]).__name__}",
                "the field is left out",
            )
            return []
        for value in found:
            if fix_mojibake(value) != value and (path, name) not in self.repaired:
                self.repaired.add((path, name))
                self.warn(
                    f"{path}.{name}",
                    "text was mis-encoded (UTF-8 read as Windows-1252); repaired",
                    code="oracle-encoding",
                )
        return [v for v in found if v.strip()]

    def one(self, name: str, source: JSONObject | None = None, path: str = "") -> str | None:
        found = self.strings(name, source, path)
        if len(found) > 1:
            self.warn(f"{path}.{name}", f"{name!r} has {len(found)} values; the first, {found[0]!r}, is imported")
        return found[0] if found else None

    def skip(self, name: str, path: str) -> None:
        """Count a field not imported, once per card, remembering where it was first seen."""
        if name not in self.skipped_here:
            self.skipped_here.add(name)
            count_skipped(self.skipped, name, f"{self.where}{path}")

    def convert(self) -> JSONObject | None:
        data = self.data
        title, card_type = self.one("title"), self.one("type")
        if title is None:
            self.error(".title", "card has no title", "the card is left out")
        if card_type is None:
            self.error(".type", "card has no type", "the card is left out")
        elif card_type not in TYPE_FILES:  # a type the L5R card schema has not: the card could not be validated
            known = did_you_mean(card_type, list(TYPE_FILES)) or "L5R card types: " + ", ".join(TYPE_FILES)
            self.error(".type", f"unknown card type {card_type!r}: the card is left out", known)
            return None
        if title is None or card_type is None:
            return None
        formatted = self.one("formattedtitle")
        title, level = split_title(formatted or title, html_to_plain(title))
        keywords, unique, singular, kw_level = self.keywords(level)
        level = level or kw_level
        card: JSONObject = {"id": card_slug(title, level), "title": title, "type": card_type}
        if deck := self.one("deck"):
            card["deck"] = deck
        if level:
            card["experienced"] = level
        if unique:
            card["unique"] = True
        if singular:
            card["singular"] = True
        if clan := self.clan(card_type, keywords):
            card["clan"] = clan
        for source, target in STATS.items():
            if (value := self.one(source)) is not None:
                card[target] = parse_stat(value)
        if card_type == "Ring" and (element := self.element(title, keywords)):
            card["element"] = element
        if keywords:
            card["keywords"] = keywords
        texts = self.strings("text")
        if text := "\n\n".join(html_to_markup(t) for t in texts):
            card["text"] = text
        for tag in _unique(tag for t in texts for tag in unknown_tags(t)):
            self.warn(".text", f"HTML tag <{tag}> has no card-text markup; it is dropped")
        self.printings(card)
        if legality := _unique(html_to_plain(v) for v in self.strings("legality")):
            card["legality"] = legality
        if banned := " ".join(html_to_plain(v) for v in self.strings("banned")):
            card["banned"] = banned
        if errata := "\n".join(html_to_plain(v) for v in self.strings("erratum") + self.strings("mrp")):
            card["errata"] = errata
        if "cardid" in data:
            if isinstance(data["cardid"], int) or (isinstance(data["cardid"], str) and data["cardid"].isdigit()):
                card["oracle_id"] = int(data["cardid"])
            else:
                self.error(".cardid", f"'cardid' should be an integer, not {data['cardid']!r}", "the field is left out")
        for name in data:
            if name not in MAPPED:
                self.skip(name, f".{name}")
        return {key: card[key] for key in FIELD_ORDER if key in card}

    def keywords(self, level: str | None) -> tuple[list[str], bool, bool, str | None]:
        """``(keywords, unique, singular, level)``: HTML stripped, markers taken out."""
        keywords, unique, singular, found_level = [], False, False, None
        for value in self.strings("keywords"):
            keyword = html_to_plain(value)
            if keyword == "Unique":
                unique = True
            elif keyword == "Singular":
                singular = True
            elif keyword == level:
                continue
            elif level is None and found_level is None and _LEVEL.fullmatch(keyword):
                found_level = keyword
            elif keyword:
                keywords.append(keyword)
        return _unique(keywords), unique, singular, found_level

    def clan(self, card_type: str, keywords: list[str]) -> str | list[str] | None:
        """The clan field; a Sensei's clans come from keywords such as ``Lion Clan`` or ``Crane`` (``All Clans``: none)."""
        clans = _unique(html_to_plain(v) for v in self.strings("clan"))
        if not clans and card_type == "Sensei" and "clan" not in self.data:
            clans = _unique(k.removesuffix(" Clan") for k in keywords if k.removesuffix(" Clan") in clan_names())
        return (clans[0] if len(clans) == 1 else clans) or None

    def element(self, title: str, keywords: list[str]) -> str | None:
        found = _unique(k for k in keywords if k in ELEMENTS) or _unique(
            w for w in re.findall(r"[A-Z][a-z]+", title) if w in ELEMENTS
        )
        if len(found) == 1:
            return found[0]
        self.warn(
            ".keywords",
            f"cannot tell this Ring's element (found {found or 'none'})",
            'add "element" to the imported card',
            code="oracle-element",
        )
        return None

    def printings(self, card: JSONObject) -> None:
        """``sets`` from every printing; ``set``, ``number``, ``rarity``, ``artist``, ``flavor`` from the primary one."""
        printings = self.data.get("printing", [])
        if not isinstance(printings, list) or not all(isinstance(p, dict) for p in printings):
            self.error(
                ".printing", "'printing' should be a list of printing objects", "the card's printings are left out"
            )
            return
        primary_id = self.data.get("printingprimary")
        primary = next(
            (i for i, p in enumerate(printings) if p.get("printingid") == primary_id), 0 if printings else None
        )
        if primary is not None and primary_id is not None and printings[primary].get("printingid") != primary_id:
            self.warn(".printingprimary", f"no printing has id {primary_id!r}; the first printing is used")
        sets: list[str] = []
        for i, printing in enumerate(printings):
            path = f".printing[{i}]"
            sets += [html_to_plain(s) for s in self.strings("set", printing, path)]
            for name in printing:
                if name not in PRINTING_MAPPED:
                    self.skip(f"printing.{name}", f"{path}.{name}")
        if sets := _unique(sets):
            card["sets"] = sets
        if primary is None:
            return
        printing, path = printings[primary], f".printing[{primary}]"
        if flavor := "\n\n".join(html_to_markup(f, italic=True) for f in self.strings("flavor", printing, path)):
            card["flavor"] = flavor
        if artist := ", ".join(_unique(html_to_plain(a) for a in self.strings("artist", printing, path))):
            card["artist"] = artist
        if rarity := self.one("rarity", printing, path):
            card["rarity"] = html_to_plain(rarity)
        if (card_set := self.one("set", printing, path)) is not None:
            card["set"] = html_to_plain(card_set)
        if number := ", ".join(self.strings("number", printing, path)):
            card["number"] = number


def convert_records(
    items: object, file: str, skipped: dict[str, tuple[int, str]] | None = None
) -> tuple[list[tuple[str, JSONObject]], list[Problem]]:
    """Convert one parsed Oracle file (a list of card objects) to printer cards.

    Returns ``([(where, card)], problems)``, ``where`` being
    ``file::$[index]``; problems are located as ``file::$[index].field``. A record that is not
    an object or has no title or type is an error and left out; a field of
    the wrong shape is an error and left out of its card. Fields not
    imported are counted into ``skipped`` (``name -> (count, first where)``)
    for :func:`import_oracle` to report once each. Ids are not yet unique
    across files (:func:`assign_ids`).
    """
    skipped = {} if skipped is None else skipped
    if not isinstance(items, list):
        return [], [
            Problem(
                f"{file}::$", f"an Oracle export is a list of cards, not {type(items).__name__}", code="oracle-input"
            )
        ]
    return convert_each(
        items, f"{file}::$", _Card, skipped, record="a card", hint="the card is left out", code="oracle-input"
    )


def assign_ids(cards: list[JSONObject], origins: list[str] | None = None) -> list[Problem]:
    """Make ids unique, in place: when several cards share a slug, the lowest ``oracle_id`` keeps it
    and the others get ``-<oracle_id>`` (or ``-2``, ``-3``... without one). Returns a warning per clash,
    located at the first card's ``origins`` entry (where it was read).
    """
    origins = origins or [f"$[{i}]" for i in range(len(cards))]
    groups: dict[str, list[int]] = {}
    for i, card in enumerate(cards):
        groups.setdefault(card["id"], []).append(i)
    taken = set(groups)
    problems = []
    for slug, members in groups.items():
        if len(members) < 2:
            continue
        members.sort(key=lambda i: (cards[i].get("oracle_id", float("inf")), i))
        for n, i in enumerate(members[1:], start=2):
            suffix = cards[i].get("oracle_id", n)
            new = f"{slug}-{suffix}"
            while new in taken:
                new += "x"
            taken.add(new)
            cards[i]["id"] = new
        ids = ", ".join(cards[i]["id"] for i in members)
        problems.append(
            Problem(
                f"{origins[members[0]]}.title",
                f"{len(members)} cards share the title {cards[members[0]]['title']!r} (ids {ids})",
                "decklists cannot tell them apart",
                WARNING,
                "duplicate-title",
            )
        )
    return problems


def import_oracle(paths: Iterable[Path]) -> OracleImport:
    """Read Oracle export files and convert every card (:func:`convert_records`, :func:`assign_ids`).

    Files that cannot be read or parsed are errors located as
    ``file:line:col`` (:func:`printer.cards.load.read_json`); the other files
    still import. Ends with one warning per field not imported, naming the
    number of cards that had it and located at its first occurrence.
    """
    result = OracleImport()
    skipped = convert_files(paths, convert_records, result)
    result.problems += assign_ids(result.cards, result.origins)
    result.problems += skipped_warnings(skipped, NOT_IMPORTED, "card", "cards")
    return result


def summary(cards: list[JSONObject]) -> str:
    """The import's one-line count: ``15 cards imported (Personality 3, Holding 1, ...)``, types in file order."""
    return f"{counted(len(cards), 'card')} imported ({type_counts(cards, TYPE_FILES, type_file) or 'none'})"
