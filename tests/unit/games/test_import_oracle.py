"""``printer import oracle``: the Oracle of the Void L5R export to printer cards.

The fixture ``tests/fixtures/oracle/cards.json`` is hand-written in the
Oracle's shape with invented cards; the acceptance test at the end imports
the real export from ``../shared/data`` when it is there.
"""

from __future__ import annotations

import json
from html.parser import HTMLParser
from unittest.mock import ANY

import pytest
from helpers import REPO, load_game, write_json

from printer.cards.markup import RenderEnv, to_html
from printer.cli.output import relative
from printer.games.l5r import oracle, oracle_text
from printer.games.l5r.oracle import html_to_markup, import_oracle

FIXTURES = REPO / "tests" / "fixtures" / "oracle"
CARDS = FIXTURES / "cards.json"
BAD = FIXTURES / "bad.json"
SHARED_ORACLE = REPO.parent / "shared" / "data" / "l5r" / "oracle"


@pytest.fixture(scope="module")
def imported() -> oracle.OracleImport:
    return import_oracle([CARDS])


@pytest.fixture(scope="module")
def cards(imported) -> dict[str, dict]:
    return {card["id"]: card for card in imported.cards}


# --- field mapping -----------------------------------------------------------------


def test_every_card_type_is_imported_into_its_own_file(imported):
    files = imported.by_file()
    assert set(files) == set(oracle.TYPE_FILES.values())
    for name, group in files.items():
        assert {c["type"] for c in group} == {t for t, f in oracle.TYPE_FILES.items() if f == name}


def test_experienced_personality_has_every_field_mapped(cards):
    assert cards["kuroda-tetsuo-exp2"] == {
        "id": "kuroda-tetsuo-exp2",
        "title": "Kuroda Tetsuo",
        "type": "Personality",
        "deck": "Dynasty",
        "experienced": "Experienced 2",
        "unique": True,
        "clan": "Crab",
        "cost": 9,
        "force": 5,
        "chi": 3,
        "honor_requirement": 4,
        "personal_honor": 2,
        "keywords": ["Tactician", "Samurai", "Crab Clan"],
        "text": "**Battle, {bow}:** Give a target enemy Personality -2F.\n"
        "**Open:** Pay {gold:2} to gain 1 Honor. *(This is a made-up ability.)*",
        "flavor": '"Stones remember." - Kuroda Tetsuo',  # the primary printing's, its italics dropped
        "legality": ["A Brother's Destiny (Ivory Edition)", "Modern"],  # each arc once
        "set": "Promotional\u2013Invented",
        "number": "P3",
        "rarity": "Promo",
        "artist": "B. Somebody",
        "sets": ["Invented Starter", "Promotional\u2013Invented"],
        "oracle_id": 9001,
    }


def test_the_same_title_at_another_level_is_another_card(cards):
    base = cards["kuroda-tetsuo"]
    assert base["title"] == "Kuroda Tetsuo" and "experienced" not in base
    assert base["honor_requirement"] == "-" and base["personal_honor"] == "-"


def test_inexperienced_several_clans_and_string_stats(cards):
    card = cards["hollow-reed-spirit-inexp"]
    assert card["experienced"] == "Inexperienced"
    assert card["clan"] == ["Spirit", "Unaligned"]
    assert (card["cost"], card["force"], card["chi"]) == ("*", "+0", 1)
    assert card["keywords"] == ["Spirit", "Captain of The Paper Boat", "Gaijin \u2022 Wanderer"]
    assert "text" not in card and "flavor" not in card and "number" not in card


def test_celestial_level_is_taken_out_of_keywords(cards):
    card = cards["guidance-of-the-silent-heron-exp"]
    assert card["experienced"] == "Experienced" and card["unique"] is True and card["keywords"] == ["Kami"]


def test_stronghold_and_sensei_stats(cards):
    stronghold = cards["tower-of-folded-paper"]
    assert (
        stronghold["clan"],
        stronghold["province_strength"],
        stronghold["gold_production"],
        stronghold["starting_honor"],
    ) == ("Crane", 8, 5, 7)
    sensei = cards["aki-sensei"]
    assert (sensei["province_strength"], sensei["gold_production"], sensei["starting_honor"]) == ("+1", "-1", "+0")


def test_sensei_clans_come_from_keywords(cards):
    assert cards["aki-sensei"]["clan"] == ["Crane", "Lion"]
    assert "clan" not in cards["wandering-sensei"]  # "All Clans": clanless, usable with any Stronghold


def test_ring_element_and_fate_card_fields(cards):
    ring = cards["ring-of-quiet-water"]
    assert (ring["element"], ring["focus"], ring["deck"], ring["unique"]) == ("Water", 4, "Fate", True)
    assert "keywords" not in ring
    spell = cards["whisper-of-ash"]
    assert spell["singular"] is True and spell["keywords"] == ["Fire", "Thunder"]
    follower = cards["lantern-bearers"]
    assert (follower["cost"], follower["force"], follower["chi"], follower["focus"]) == (2, "+1", "+0", 1)


def test_banned_errata_and_repaired_flavor(cards):
    assert cards["sudden-downpour"]["banned"] == "Banned from invented tournaments, effective never."
    item = cards["moonlit-tanto"]
    assert item["errata"] == "Errata'd to cost 1 Gold.\nIs now an Engage action."
    assert item["flavor"] == "\u201cSharp enough.\u201d"  # mis-encoded UTF-8 in the export, repaired


def test_every_imported_fixture_card_is_valid(tmp_path, run_cli):
    code, out, err = run_cli("import", "oracle", str(CARDS), "--out", str(tmp_path))
    assert code == 0, err
    assert len(load_game("l5r", tmp_path)) == 15


def test_duplicate_titles_get_deterministic_ids():
    cards = [
        {"id": "twin", "title": "Twin", "oracle_id": 7},
        {"id": "twin", "title": "Twin", "oracle_id": 3},
        {"id": "twin", "title": "Twin"},
    ]
    problems = oracle.assign_ids(cards, ["a::$[0]", "a::$[1]", "a::$[2]"])
    assert [c["id"] for c in cards] == ["twin-7", "twin", "twin-3"]
    assert [p.code for p in problems] == ["duplicate-title"] and problems[0].where == "a::$[1].title"


@pytest.mark.parametrize(
    "formatted, level, slug",
    [
        ("Keppo &#149; Experienced", "Experienced", "keppo-exp"),
        ("Hida Kisada &#149; Experienced 2", "Experienced 2", "hida-kisada-exp2"),
        ("Toturi, Seven Thunder &#149; Experienced 2CW", "Experienced 2CW", "toturi-seven-thunder-exp2cw"),
        ("Isawa Tsuke &#149; ExperiencedCoM", "ExperiencedCoM", "isawa-tsuke-expcom"),
        ("Shiba Tsukimi &#149; Experienced 3.5", "Experienced 3.5", "shiba-tsukimi-exp3.5"),
        ("Doji Hoturi &#149; Inexperienced", "Inexperienced", "doji-hoturi-inexp"),
        ("Akodo's Guidance", None, "akodos-guidance"),
        ("Rank & File", None, "rank-file"),
    ],
)
def test_titles_levels_and_slugs(formatted, level, slug):
    title, found = oracle.split_title(formatted, None)
    assert found == level
    assert oracle.card_slug(title, found) == slug


# --- HTML to markup ----------------------------------------------------------------

BOW = '<img class="icon icon-bow" src="bow.svg" alt="bow">'


def gold(label: str) -> str:
    wide = " icon-label-wide" if len(label) > 1 else ""  # two characters are set smaller (templates/card-common.css)
    return (
        f'<span class="icon-labelled icon-gold"><img class="icon icon-gold" src="gold.svg" alt="gold">'
        f'<span class="icon-label{wide}">{label}</span></span>'
    )


ICONS = RenderEnv(icon_url=lambda name: f"{name}.svg")


@pytest.mark.parametrize(
    "source, markup, rendered",
    [
        ("<b>Battle:</b> Move home.", "**Battle:** Move home.", "<p><strong>Battle:</strong> Move home.</p>"),
        (
            "<b>Open, :bow::</b> Pay :g2: or :gstar:.",
            "**Open, {bow}:** Pay {gold:2} or {gold:*}.",
            f"<p><strong>Open, {BOW}:</strong> Pay {gold('2')} or {gold('*')}.</p>",
        ),
        (":g*: and :g10:", "{gold:*} and {gold:10}", f"<p>{gold('*')} and {gold('10')}</p>"),
        ("one<br>two<br><br>three", "one\ntwo\n\nthree", "<p>one<br>\ntwo</p><p>three</p>"),
        (
            "Hand &#149; Jade &amp; more &#8230;",
            "Hand \u2022 Jade & more \u2026",
            "<p>Hand \u2022 Jade &amp; more \u2026</p>",
        ),
        ("+2F* [x] _y_ {z}", "+2F\\* [x] \\_y\\_ \\{z\\}", "<p>+2F* [x] _y_ {z}</p>"),
        (
            "give <b>Elite </b>and <i> (a note)</i>.",
            "give **Elite** and *(a note)*.",
            "<p>give <strong>Elite</strong> and <em>(a note)</em>.</p>",
        ),
        ("<b>Battle:</b>Discard.", "**Battle**:Discard.", "<p><strong>Battle</strong>:Discard.</p>"),
        (
            "<i><b>(Limited, :g2:: </b>Draw.)</i>",
            "***(Limited, {gold:2}:** Draw.)*",
            f"<p><em><strong>(Limited, {gold('2')}:</strong> Draw.)</em></p>",
        ),
        (
            "<i>a</i><i>b</i> <b>x<i>y</i></b><i>z</i>",
            "*ab* **x*y***_z_",
            "<p><em>ab</em> <strong>x<em>y</em></strong><em>z</em></p>",
        ),
        ("<i>unclosed</b> and on", "*unclosed and on*", "<p><em>unclosed and on</em></p>"),
        ("<B>Kharmic", "**Kharmic**", "<p><strong>Kharmic</strong></p>"),
        ("  spaced\n  out  <br> ", "spaced out", "<p>spaced out</p>"),
    ],
)
def test_html_to_markup_round_trips_through_to_html(source, markup, rendered):
    assert html_to_markup(source) == markup
    assert str(to_html(markup, ICONS)) == rendered


def test_flavor_drops_only_whole_text_italics():
    assert html_to_markup('<i>"Go." - Someone</i>', italic=True) == '"Go." - Someone'
    assert html_to_markup("<i>Go.</i><br>- Someone", italic=True) == "*Go.*\n- Someone"


def test_unknown_tags_are_dropped_and_reported(tmp_path):
    source = write_json(
        tmp_path / "tags.json",
        [
            {
                "title": ["Tagged"],
                "type": ["Event"],
                "deck": ["Dynasty"],
                "text": ['<span class="x">Plain</span> <u>text</u>'],
            }
        ],
    )
    result = import_oracle([source])
    assert result.cards[0]["text"] == "Plain text"
    assert sorted(p.message for p in result.problems) == [
        "HTML tag <span> has no card-text markup; it is dropped",
        "HTML tag <u> has no card-text markup; it is dropped",
    ]


class _Styled(HTMLParser):
    """HTML to ``[(character, bold, italic)]`` for the word characters (icons as name and label)."""

    TAGS = {"b": "b", "strong": "b", "i": "i", "em": "i"}

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.open: list[str] = []
        self.chars: list[tuple[str, bool, bool]] = []

    def handle_starttag(self, tag, attrs):
        if tag in self.TAGS:
            self.open.append(self.TAGS[tag])
        elif tag == "img":
            self.handle_data(dict(attrs)["alt"])

    def handle_endtag(self, tag):
        if self.TAGS.get(tag) in self.open:
            self.open.reverse()
            self.open.remove(self.TAGS[tag])
            self.open.reverse()

    def handle_data(self, data):
        # the source's icon codes as the rendered icons: name (the alt text) and label
        data = oracle_text._ICON.sub(
            lambda m: "bow" if m[1] == "bow" else "gold" + m[2].strip("*").replace("star", ""), data
        )
        self.chars += [(ch, "b" in self.open, "i" in self.open) for ch in data if ch.isalnum()]


def styled(html: str) -> list[tuple[str, bool, bool]]:
    parser = _Styled()
    parser.feed(html)
    return parser.chars


def assert_text_round_trips(source: str, italic: bool = False) -> None:
    """The markup renders the source's words, each as bold and italic as in the source."""
    expected = styled(source)
    if italic and all(i for _, _, i in expected):
        expected = [(ch, b, False) for ch, b, _ in expected]
    assert styled(str(to_html(html_to_markup(source, italic=italic), ICONS))) == expected, source


def test_every_fixture_text_round_trips():
    for record in json.loads(CARDS.read_text(encoding="utf-8")):
        for text in record.get("text", []):
            assert_text_round_trips(text)
        for printing in record["printing"]:
            for flavor in printing.get("flavor", []):
                assert_text_round_trips(oracle.fix_mojibake(flavor), italic=True)


# --- problems ----------------------------------------------------------------------


def test_fields_not_imported_and_repairs_are_warned_once_each(imported):
    warnings = {p.message: p.where for p in imported.problems if not p.is_error}
    assert not [p for p in imported.problems if p.is_error]
    where = f"{CARDS}::$[0]"
    assert warnings == {
        "unknown field 'gloriousfield' is not imported (1 card)": f"{where}.gloriousfield",
        "field 'imagehash' is not imported: an image-file hash of the Oracle site (1 card)": f"{where}.imagehash",
        "field 'playtestname' is not imported: the name used in playtesting (1 card)": f"{where}.playtestname",
        "field 'printing.designer' is not imported: design credits (1 card)": f"{where}.printing[1].designer",
        "field 'printing.printimagehash' is not imported: an image-file hash of the Oracle site (1 card)": f"{where}.printing[0].printimagehash",
        "field 'puretexttitle' is not imported: the title in ASCII, same as formattedtitle (1 card)": f"{where}.puretexttitle",
        "text was mis-encoded (UTF-8 read as Windows-1252); repaired": f"{CARDS}::$[9].printing[0].flavor",
    }


def test_not_imported_fields_are_counted_per_card(tmp_path):
    source = write_json(
        tmp_path / "many.json",
        [
            {
                "title": [f"Card {n}"],
                "type": ["Event"],
                "deck": ["Dynasty"],
                "imagehash": "x",
                "printing": [{"printingid": "1", "artnumber": ["1"]}, {"printingid": "2", "artnumber": ["2"]}],
            }
            for n in range(3)
        ],
    )
    messages = sorted(p.message for p in import_oracle([source]).problems)
    assert messages == [
        "field 'imagehash' is not imported: an image-file hash of the Oracle site (3 cards)",
        "field 'printing.artnumber' is not imported: an internal art number (3 cards)",
    ]


def test_bad_records_are_located_errors_and_the_rest_imports():
    result = import_oracle([BAD, CARDS])
    errors = [(p.where, p.message) for p in result.problems if p.is_error]
    assert errors == [
        (f"{BAD}::$[0]", "a card is an object, not str"),
        (f"{BAD}::$[1].title", "card has no title"),
        (f"{BAD}::$[2].type", "card has no type"),
        (f"{BAD}::$[3].cost", "'cost' should be a list of strings, not dict"),
    ]
    ids = [c["id"] for c in result.cards]
    assert ids[:2] == ["broken-cost", "good-card"] and len(ids) == 17
    assert "cost" not in result.cards[0]


def test_a_card_type_l5r_has_not_is_an_error_with_the_closest_and_the_card_left_out(tmp_path):
    source = tmp_path / "types.json"
    source.write_text(
        json.dumps(
            [{"title": ["Star Ship"], "type": ["Spaceship"]}, {"title": ["Hida Tsuru"], "type": ["Personalty"]}]
        ),
        encoding="utf-8",
    )
    result = import_oracle([source])
    assert result.cards == [] and [(p.where, p.message, p.hint) for p in result.problems] == [
        (f"{source}::$[0].type", "unknown card type 'Spaceship': the card is left out", ANY),
        (f"{source}::$[1].type", "unknown card type 'Personalty': the card is left out", "did you mean 'Personality'?"),
    ]


def test_a_file_that_is_not_json_or_not_a_list_is_an_error(tmp_path):
    broken = tmp_path / "broken.json"
    broken.write_text('[{"title": ["A"],\n  oops}]', encoding="utf-8")
    shaped = tmp_path / "object.json"
    shaped.write_text('{"cards": []}', encoding="utf-8")
    result = import_oracle([broken, shaped, CARDS])
    errors = [p.where for p in result.problems if p.is_error]
    assert errors == [f"{broken}:2:3", f"{shaped}::$"]
    assert len(result.cards) == 15


# --- the command -------------------------------------------------------------------


def test_import_writes_one_schema_file_per_type(tmp_path, run_cli):
    code, out, err = run_cli("import", "oracle", str(CARDS), "--out", str(tmp_path))
    assert code == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(oracle.TYPE_FILES.values())
    text = (tmp_path / "personalities.json").read_text(encoding="utf-8")
    data = json.loads(text)
    assert data["game"] == "l5r" and len(data["cards"]) == 3
    assert data["$schema"] == (REPO / "schema" / "l5r" / "card.schema.json").resolve().as_uri()
    assert text.startswith('{\n  "$schema": ') and text.endswith("\n") and "\u2013" in text  # 2 spaces, UTF-8
    assert out.splitlines()[-1] == (
        "15 cards imported (Personality 3, Holding 1, Event 1, Region 1, Celestial 1, Strategy 1, Follower 1, "
        f"Item 1, Spell 1, Ring 1, Stronghold 1, Sensei 2); wrote 12 files to {tmp_path}"
    )
    assert relative(f"{tmp_path / 'senseis.json'}: new, 2 cards") in out
    assert "unknown field 'gloriousfield'" in err and "0 errors, 7 warnings" in err


def test_existing_files_need_force(tmp_path, run_cli):
    assert run_cli("import", "oracle", str(CARDS), "--out", str(tmp_path))[0] == 0
    # the same import again changes nothing: fine without --force
    code, out, _ = run_cli("import", "oracle", str(CARDS), "--out", str(tmp_path))
    assert code == 0 and "wrote 0 files" in out and "12 unchanged" in out
    rings = tmp_path / "rings.json"
    rings.write_text("edited by hand\n", encoding="utf-8")
    code, out, err = run_cli("import", "oracle", str(CARDS), "--out", str(tmp_path))
    assert code == 2
    assert "would be overwritten: rings.json" in err and "--force" in err
    assert rings.read_text(encoding="utf-8") == "edited by hand\n"
    code, out, _ = run_cli("import", "oracle", str(CARDS), "--out", str(tmp_path), "--force")
    assert code == 0 and f"{rings}: changed, 1 card" in out and "wrote 1 file to" in out
    assert json.loads(rings.read_text(encoding="utf-8"))["cards"][0]["id"] == "ring-of-quiet-water"


def test_dry_run_writes_nothing_and_says_what_would_change(tmp_path, run_cli):
    out_dir = tmp_path / "out"
    code, out, _ = run_cli("import", "oracle", str(CARDS), "--out", str(out_dir), "--dry-run")
    assert code == 0 and not out_dir.exists()
    assert relative(f"{out_dir / 'personalities.json'}: new, 3 cards") in out and "would write 12 files" in out
    run_cli("import", "oracle", str(CARDS), "--out", str(out_dir))
    (out_dir / "events.json").write_text("{}", encoding="utf-8")
    code, out, _ = run_cli("import", "oracle", str(CARDS), "--out", str(out_dir), "--dry-run")
    assert code == 2
    assert relative(f"{out_dir / 'events.json'}: changed, 1 card (needs --force)") in out
    assert relative(f"{out_dir / 'rings.json'}: unchanged, 1 card") in out
    assert (out_dir / "events.json").read_text(encoding="utf-8") == "{}"
    code, out, _ = run_cli("import", "oracle", str(CARDS), "--out", str(out_dir), "--dry-run", "--force")
    assert code == 0 and "would write 1 file" in out
    assert (out_dir / "events.json").read_text(encoding="utf-8") == "{}"


def test_invalid_input_exits_1_and_still_writes_the_good_cards(tmp_path, run_cli):
    code, out, err = run_cli("import", "oracle", str(BAD), "--out", str(tmp_path))
    assert code == 1
    assert relative(f"{BAD}::$[1].title: error: card has no title") in err and "4 errors" in err
    assert [c["id"] for c in json.loads((tmp_path / "strategies.json").read_text(encoding="utf-8"))["cards"]] == [
        "broken-cost",
        "good-card",
    ]


@pytest.mark.parametrize(
    "args",
    [
        ["import", "oracle", str(CARDS)],  # no --out
        ["import", "oracle", "--out", "x"],  # no paths
        ["import", "oracle", "no-such-file.json", "--out", "x"],
    ],
)
def test_usage_errors_exit_2(args, run_cli):
    assert run_cli(*args)[0] == 2


def test_out_must_be_a_folder(tmp_path, run_cli):
    target = tmp_path / "file.json"
    target.write_text("", encoding="utf-8")
    code, _, err = run_cli("import", "oracle", str(CARDS), "--out", str(target))
    assert code == 2 and "is a file, not a folder" in err


# --- acceptance on the real export -------------------------------------------------


@pytest.mark.shared
def test_real_export_imports_and_validates(tmp_path, run_cli):
    if not SHARED_ORACLE.is_dir():
        pytest.skip(f"{SHARED_ORACLE} is absent")
    paths = sorted(SHARED_ORACLE.glob("*.json"))
    code, out, err = run_cli("import", "oracle", *map(str, paths), "--out", str(tmp_path))
    assert code == 0, err
    assert "0 errors" in err and out.splitlines()[-1].startswith("3535 cards imported (Personality 1354,")
    code, out, err = run_cli("validate", str(tmp_path))
    assert code == 0, err
    assert out.strip() == "3535 valid cards (l5r: 3535)"
    for path in paths:  # every text keeps its words and their bold and italics
        for record in json.loads(path.read_text(encoding="utf-8")):
            for text in record.get("text", []):
                assert_text_round_trips(text)
