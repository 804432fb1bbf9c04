"""The Tabletop Simulator saved object (``--export tts-save``), read back: its structure as TTS writes it, cards and
their order against the sheets' grids, every CardID inside its sheet, every image present at the size its grid claims.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from urllib.parse import unquote, urlparse

import pytest
from PIL import Image

from tests.unit.sheets.test_cutting import write_project

TOP_LEVEL = {
    "SaveName",
    "GameMode",
    "Date",
    "Gravity",
    "PlayArea",
    "Table",
    "Sky",
    "Note",
    "Tags",
    "TabStates",
    "LuaScript",
    "LuaScriptState",
    "XmlUI",
    "ObjectStates",
}
PIECES = {"Custom_Token", "Custom_Tile", "Custom_Board"}
DECK_KEYS = {"FaceURL", "BackURL", "NumWidth", "NumHeight", "BackIsHidden", "UniqueBack", "Type"}


def add_cards(root: Path, cards: list[dict]) -> None:
    path = root / "cards" / "t" / "cards.json"
    data = json.loads(path.read_text())
    data["cards"] += cards
    path.write_text(json.dumps(data))


def local_file(url: str) -> Path:
    assert url.startswith("file:///"), url
    return Path(unquote(urlparse(url).path))


def check_saved_object(data: dict, folder: Path | None = None) -> list[dict]:
    """Assert the structure of a saved object and of every deck in it; returns every card object, in order.

    With ``folder``, image URLs are ``file:///`` URLs of files there, each of the pixel size its grid claims.
    """
    assert TOP_LEVEL <= set(data)
    assert isinstance(data["ObjectStates"], list) and data["ObjectStates"]
    cards = []
    for obj in data["ObjectStates"]:
        if obj["Name"] in PIECES:  # a component (check_components)
            continue
        assert obj["Name"] in ("DeckCustom", "CardCustom")
        assert set(obj["Transform"]) >= {"posX", "posY", "posZ", "rotX", "rotY", "rotZ", "scaleX", "scaleY", "scaleZ"}
        contained = obj["ContainedObjects"] if obj["Name"] == "DeckCustom" else [obj]
        if obj["Name"] == "DeckCustom":
            assert len(contained) >= 2
            assert obj["DeckIDs"] == [c["CardID"] for c in contained]  # same order as ContainedObjects
        for card in contained:
            assert card["Name"] in ("Card", "CardCustom")
            assert {"CardID", "Nickname", "Description", "Transform", "CustomDeck"} <= set(card)
            (key, entry), *more = card["CustomDeck"].items()
            assert not more and set(entry) == DECK_KEYS
            assert card["CardID"] // 100 == int(key)
            if obj["Name"] == "DeckCustom":
                assert obj["CustomDeck"][key] == entry  # the card's own copy of its deck's entry
            cols, rows = entry["NumWidth"], entry["NumHeight"]
            assert 1 <= cols <= 10 and 1 <= rows <= 7
            slot = card["CardID"] % 100
            hidden = 0 if entry["BackIsHidden"] else 1
            assert 0 <= slot < cols * rows - hidden  # inside the sheet, never the hidden face
            assert entry["Type"] in (0, 1, 2, 3, 4)
            if folder is not None:
                face, back = local_file(entry["FaceURL"]), local_file(entry["BackURL"])
                assert face.parent == folder and back.parent == folder
                with Image.open(face) as image:
                    assert image.mode == "RGB" and image.format == "PNG"
                    assert image.width <= 4096 and image.height <= 4096
                    assert image.width % cols == 0 and image.height % rows == 0  # each slot exactly one card
                    card_px = (image.width // cols, image.height // rows)
                with Image.open(back) as image:
                    assert image.mode == "RGB"
                    expected = (cols * card_px[0], rows * card_px[1]) if entry["UniqueBack"] else card_px
                    assert image.size == expected
            cards.append(card)
    return cards


def check_components(data: dict, folder: Path) -> dict[str, list[dict]]:
    """Assert every component object (token, tile, board) has its front and back images in ``folder``, face up;
    returns them by object name."""
    found: dict[str, list[dict]] = {}
    for obj in data["ObjectStates"]:
        if obj["Name"] not in PIECES:
            continue
        assert obj["Nickname"] and obj["Transform"]["rotZ"] == 0.0  # face up
        image = obj["CustomImage"]
        assert {"ImageURL", "ImageSecondaryURL", "ImageScalar", "WidthScale"} <= set(image)
        for url in (image["ImageURL"], image["ImageSecondaryURL"]):
            path = local_file(url)
            assert path.parent == folder and path.is_file(), url
        if obj["Name"] == "Custom_Token":
            assert set(image["CustomToken"]) == {"Thickness", "MergeDistancePixels", "StandUp", "Stackable"}
        if obj["Name"] == "Custom_Tile":
            assert set(image["CustomTile"]) == {"Type", "Thickness", "Stackable", "Stretch"}
        found.setdefault(obj["Name"], []).append(obj)
    return found


@pytest.mark.slow
def test_components_join_the_saved_object_as_custom_tokens_tiles_and_boards(tmp_path, run):
    """Every printed piece of the components (copies included) is a TTS object with its front and its back: round
    and square tokens are Custom_Tokens (a round one's image transparent outside its circle), hex tiles Custom_Tiles
    of Type 1, the mat a Custom_Board whose image is the whole board."""
    from tests.unit.sheets.test_components import COLOURS, make_project

    root = make_project(tmp_path / "p")
    result = run("--project", root, "build", "--out", tmp_path / "out", "--export", "tts-save")
    assert result.code == 0, result.err
    assert "and 21 components" in result.out
    folder = tmp_path / "out" / "t-tts"
    data = json.loads((folder / "t.json").read_text())
    assert len(check_saved_object(data, folder)) == 3  # the three cards stay a deck
    found = check_components(data, folder)
    assert {name: len(objs) for name, objs in found.items()} == {
        "Custom_Token": 17,  # 3 coins x count 4, 5 chits
        "Custom_Tile": 3,
        "Custom_Board": 1,
    }
    assert sorted(o["Nickname"] for o in found["Custom_Tile"]) == ["Hex 0", "Hex 1", "Hex 2"]
    assert {o["CustomImage"]["CustomTile"]["Type"] for o in found["Custom_Tile"]} == {1}

    def colour(url: str, at: tuple[float, float] = (0.5, 0.5)) -> tuple[int, ...]:
        with Image.open(local_file(url)) as image:
            return image.convert("RGBA").getpixel((int(at[0] * (image.width - 1)), int(at[1] * (image.height - 1))))

    def rgb(hex_colour: str) -> tuple[int, int, int]:
        return tuple(int(hex_colour[i : i + 2], 16) for i in (1, 3, 5))

    for name, kind in (("Custom_Token", "Coin"), ("Custom_Tile", "Hex"), ("Custom_Board", "Mat")):
        obj = next(o for o in found[name] if o["Nickname"].startswith(kind))
        assert colour(obj["CustomImage"]["ImageURL"])[:3] == pytest.approx(rgb(COLOURS[kind]), abs=8)
        assert colour(obj["CustomImage"]["ImageSecondaryURL"])[:3] == pytest.approx((0x33, 0x33, 0x33), abs=8)
    coin = next(o for o in found["Custom_Token"] if o["Nickname"].startswith("Coin"))
    chit = next(o for o in found["Custom_Token"] if o["Nickname"].startswith("Chit"))
    assert colour(coin["CustomImage"]["ImageURL"], (0, 0))[3] == 0  # cut out along the circle
    assert colour(chit["CustomImage"]["ImageURL"], (0, 0))[3] == 255  # a square token keeps its corners
    with Image.open(local_file(found["Custom_Board"][0]["CustomImage"]["ImageURL"])) as board:
        assert board.width / board.height == pytest.approx(400 / 250, rel=0.01)
    tile = found["Custom_Tile"][0]["Transform"]
    assert found["Custom_Board"][0]["Transform"]["scaleX"] > tile["scaleX"] > coin["Transform"]["scaleX"]


@pytest.fixture(scope="module")
def saved(tmp_path_factory):
    """75 plain cards (two face sheets: 69 + 6), 2 double-faced cards, one card with a back of its own design."""
    from printer.cli import main

    root = write_project(tmp_path_factory.mktemp("tts"), 75)
    add_cards(
        root,
        [
            {"id": "f1", "title": "Front1", "type": "A", "back_card": "b1", "text": "Draw **two** cards."},
            {"id": "b1", "title": "Back1", "type": "A"},
            {"id": "f2", "title": "Front2", "type": "A", "back_card": "b2"},
            {"id": "b2", "title": "Back2", "type": "A"},
            {"id": "lone", "title": "Lone", "type": "A", "back": "special"},
        ],
    )
    out = root / "out"
    with pytest.raises(SystemExit) as done:
        main(["--project", str(root), "build", "t", "--out", str(out), "--export", "tts-save", "--duplex", "none"])
    assert done.value.code == 0
    return out / "t-tts", json.loads((out / "t-tts" / "t.json").read_text())


@pytest.mark.slow
def test_saved_object_structure_and_images(saved):
    folder, data = saved
    cards = check_saved_object(data, folder)
    assert len(cards) == 75 + 2 + 1
    assert data["SaveName"] == "Test"
    with Image.open(folder / "t.png") as thumb:  # the thumbnail of the same name
        assert thumb.size == (256, 256)


@pytest.mark.slow
def test_one_deck_per_back_design_in_print_order(saved):
    _, data = saved
    by_name = {o["Nickname"]: o for o in data["ObjectStates"]}
    assert set(by_name) == {"Test (default)", "Test (double-faced)", "Lone"}
    plain = by_name["Test (default)"]
    assert [c["Nickname"] for c in plain["ContainedObjects"]] == [f"Card{i:02d}" for i in range(1, 76)]
    assert sorted(plain["CustomDeck"]) == ["1", "2"]
    assert plain["DeckIDs"][:69] == [100 + i for i in range(69)]  # 69 cards on the first sheet, row by row
    assert plain["DeckIDs"][69:] == [200 + i for i in range(6)]
    first, second = plain["CustomDeck"]["1"], plain["CustomDeck"]["2"]
    assert (first["NumWidth"], first["NumHeight"], first["BackIsHidden"], first["UniqueBack"]) == (10, 7, False, False)
    assert (second["NumWidth"], second["NumHeight"]) == (4, 2)  # 6 cards and the hidden face
    assert first["Type"] == 1  # square corners: a rectangle
    double = by_name["Test (double-faced)"]
    entry = double["CustomDeck"][str(double["DeckIDs"][0] // 100)]
    assert entry["UniqueBack"] is True and entry["BackURL"] != entry["FaceURL"]
    assert [c["Nickname"] for c in double["ContainedObjects"]] == ["Front1", "Front2"]
    assert double["ContainedObjects"][0]["Description"] == "Draw **two** cards."
    assert by_name["Lone"]["Name"] == "CardCustom"  # TTS has no one-card deck


@pytest.mark.slow
def test_each_card_id_shows_its_card(saved):
    """The slot a CardID names holds that card: red fronts in their slots, the blue back in the hidden slot."""
    folder, data = saved
    plain = next(o for o in data["ObjectStates"] if o["Nickname"] == "Test (default)")
    entry = plain["CustomDeck"]["2"]
    with Image.open(local_file(entry["FaceURL"])) as image:
        w, h = image.width // entry["NumWidth"], image.height // entry["NumHeight"]
        for card_id in plain["DeckIDs"][69:]:
            slot = card_id % 100
            x, y = (slot % entry["NumWidth"]) * w + w // 2, (slot // entry["NumWidth"]) * h + h // 2
            assert image.getpixel((x, y)) == (200, 0, 0)
        last = entry["NumWidth"] * entry["NumHeight"] - 1
        assert image.getpixel(((last % entry["NumWidth"]) * w + w // 2, (last // entry["NumWidth"]) * h + h // 2)) == (
            0,
            0,
            200,
        )


def test_hosted_images_rounded_cards_and_a_decklist(tmp_path, run):
    root = write_project(tmp_path, 5)
    deck = tmp_path / "mine.txt"
    deck.write_text("3 Card01\n2 Card04\n")
    result = run(
        "--project", root, "build", "t", "--deck", deck, "--out", tmp_path / "out", "--export", "tts-save",
        "--image-url-base", "https://example.org/pnp/", "--corner-radius", "3mm",
    )  # fmt: skip
    assert result.code == 0, result.err
    assert "Saves/Saved Objects" in result.out and "local play only" not in result.out
    data = json.loads((tmp_path / "out" / "t-mine-tts" / "t-mine.json").read_text())
    cards = check_saved_object(data)
    assert [c["Nickname"] for c in cards] == ["Card01"] * 3 + ["Card04"] * 2  # copies included, listed order
    (deck_obj,) = data["ObjectStates"]
    assert deck_obj["Nickname"] == "Test: mine"
    entry = deck_obj["CustomDeck"]["1"]
    assert re.fullmatch(r"https://example\.org/pnp/default-1-[0-9a-f]{10}\.png", entry["FaceURL"])  # named by digest
    assert entry["Type"] == 0  # rounded corners: a rounded rectangle
    assert (tmp_path / "out" / "t-mine-tts" / entry["FaceURL"].rsplit("/", 1)[1]).is_file()


def test_local_urls_are_said_to_be_for_local_play_and_a_bad_url_is_a_usage_error(tmp_path, run):
    root = write_project(tmp_path, 2)
    result = run("--project", root, "build", "t", "--out", tmp_path / "out", "--export", "tts-save")
    assert result.code == 0 and "file:/// URLs: local play only" in result.out and "--image-url-base" in result.out
    bad = run(
        "--project",
        root,
        "build",
        "t",
        "--out",
        tmp_path / "bad",
        "--export",
        "tts-save",
        "--image-url-base",
        "ftp://x",
    )
    assert bad.code == 2 and "is not an http:// or https:// URL" in bad.err and "Traceback" not in bad.err


def test_tarot_cards_stay_within_4096_px():
    from printer.sheets.export.tts import card_px

    for size in ((63, 88), (70, 120), (64, 80), (88, 63), (70, 70), (44, 67)):
        w, h = card_px(size)
        assert 10 * w <= 4096 and 7 * h <= 4096
        assert w / h == pytest.approx(size[0] / size[1], rel=0.01)


@pytest.mark.slow
@pytest.mark.parametrize("game", ["l5r", "res-arcana", "via-magica", "arcanductor", "edelweiss"])
def test_every_example_game_gives_a_saved_object(game, repo, tmp_path, run):
    result = run("--project", repo, "build", game, "--out", tmp_path, "--export", "tts-save")
    assert result.code == 0, result.err
    folder = tmp_path / f"{game}-tts"
    data = json.loads((folder / f"{game}.json").read_text())
    cards = check_saved_object(data, folder)
    assert cards
    pieces = check_components(data, folder)
    if game == "res-arcana":  # the Places of Power and Magic Items, the essence and First Player tokens
        assert {name: len(objs) for name, objs in pieces.items()} == {"Custom_Tile": 5, "Custom_Token": 53}
        reef = next(o for o in pieces["Custom_Tile"] if o["Nickname"] == "Ember Forge")
        assert "glass-reef" in reef["CustomImage"]["ImageSecondaryURL"]  # the tile's other side
        assert not any(c["Nickname"] == "Ember Forge" for c in cards)
