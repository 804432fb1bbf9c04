"""The play-table exports (tabletopia, tabletop-playground, playingcards-io, screentop, cgs), each read back: the
cards with their counts, every image of a card face the same pixel size, every file a document names present, and
image names that change with the picture.
"""

from __future__ import annotations

import csv
import hashlib
import io
import json
import re
import zipfile
from pathlib import Path

import pytest
from PIL import Image

from tests.unit.sheets.test_print_production import double_faced, simple_cards, write_project

TABLES = ("tabletopia", "tabletop-playground", "playingcards-io", "screentop", "cgs")
DPI = 60
POKER_PX = (round(63 / 25.4 * DPI), round(88 / 25.4 * DPI))
DIGEST = re.compile(r".+-([0-9a-f]{10})\.png$")


def size(path: Path) -> tuple[int, int]:
    with Image.open(path) as image:
        return image.size


def digest_ok(path: Path) -> bool:
    """The file is named ``<name>-<digest>.png``, the digest the start of the SHA-256 of its bytes."""
    found = DIGEST.fullmatch(path.name)
    return bool(found) and hashlib.sha256(path.read_bytes()).hexdigest()[:10] == found.group(1)


def export_all(root: Path, out: Path, run, *args) -> str:
    exports = [a for t in TABLES for a in ("--export", t)]
    result = run("--project", root, "build", "--out", out, "--dpi", DPI, *exports, *args)
    assert result.code == 0, result.err
    return result.out


def read_tabletopia(folder: Path) -> dict[str, int]:
    """{card id: copies} of a Tabletopia export, asserting its images: fronts and backs apart, one size, digests."""
    manifest = json.loads((folder / "manifest.json").read_text())
    sizes = set()
    counts: dict[str, int] = {}
    for deck in manifest["decks"]:
        assert deck["size"] == sum(c["count"] for c in deck["cards"])
        for card in deck["cards"]:
            front, back = folder / card["front"], folder / card["back"]
            assert front.parent.name == "fronts" and back.parent.name == "backs"
            assert digest_ok(front) and digest_ok(back)
            sizes |= {size(front), size(back)}
            counts[card["id"]] = counts.get(card["id"], 0) + card["count"]
    assert sizes == {tuple(manifest["card_px"])}  # every card face the same pixel size
    for group in manifest["components"]:
        px = {size(folder / p[side]) for p in group["pieces"] for side in ("front", "back")}
        assert px == {tuple(group["px"])}
    return counts


def read_ttpg(folder: Path) -> dict[str, int]:
    """{card name: copies} of the card templates of a Tabletop Playground export, asserting the schema's fields."""
    required = {"Type", "GUID", "Name", "Metadata", "CollisionType", "SurfaceType", "Models", "Tags", "FrontTexture"}
    required |= {"BackIndex", "HiddenIndex", "Indices", "CardNames", "CardMetadata", "CardTags"}
    counts: dict[str, int] = {}
    for path in sorted((folder / "Templates").glob("*.json")):
        data = json.loads(path.read_text())
        assert required <= set(data) and data["Type"] == "Card" and re.fullmatch(r"[0-9A-F]{32}", data["GUID"])
        face = folder / "Textures" / data["FrontTexture"]
        w, h = size(face)
        cols, rows = data["NumHorizontal"], data["NumVertical"]
        assert w % cols == 0 and h % rows == 0 and max(w, h) <= 4096 and digest_ok(face)
        back = folder / "Textures" / data["BackTexture"]
        assert size(back) == ((w, h) if data["BackIndex"] == -3 else (w // cols, h // rows))
        assert all(0 <= i < cols * rows - 1 for i in data["Indices"])  # the last slot is TTS's hidden card
        for index in data["Indices"]:
            name = data["CardNames"][str(index)]
            counts[name] = counts.get(name, 0) + 1
    for path in (folder / "Templates" / "components").glob("*.json"):
        data = json.loads(path.read_text())
        assert (folder / "Textures" / data["FrontTexture"]).is_file() and data["Model"] in (
            "Round",
            "Hexagonal",
            "Square",
        )
    return counts


def read_pcio(archive: Path) -> tuple[dict[str, int], set[tuple[int, int]]]:
    """{card name: copies} of a playingcards.io file's card decks, and the pixel sizes of their images."""
    with zipfile.ZipFile(archive) as z:
        widgets = json.loads(z.read("widgets.json"))
        names = set(z.namelist())
        by_id = {w["id"]: w for w in widgets}
        counts: dict[str, int] = {}
        sizes = set()
        for widget in widgets:
            if widget["type"] != "card" or not widget["deck"].startswith("deck"):
                continue
            deck = by_id[widget["deck"]]
            assert deck["type"] == "cardDeck" and by_id[widget["parent"]]["type"] == "cardPile"
            kind = deck["cardTypes"][widget["cardType"]]
            for url in (kind["image"], kind["back"]):
                assert url.startswith("package://userassets/") and url.removeprefix("package://") in names
                sizes.add(Image.open(io.BytesIO(z.read(url.removeprefix("package://")))).size)
            counts[kind["name"]] = counts.get(kind["name"], 0) + 1
        for widget in widgets:  # components' images are in the archive too
            for url in [widget.get("boardImage", "")] + [
                v for t in widget.get("cardTypes", {}).values() for v in (t["image"], t["back"])
            ]:
                assert not url or url.removeprefix("package://") in names
    return counts, sizes


def read_screentop(folder: Path) -> dict[str, int]:
    rows = list(csv.DictReader((folder / "cards.csv").read_text(encoding="utf-8").splitlines()))
    assert {size(folder / "images" / r[side]) for r in rows for side in ("front", "back")} == {POKER_PX}
    return {r["id"]: int(r["count"]) for r in rows}


def read_cgs(parent: Path) -> tuple[dict[str, int], dict]:
    """{card id: copies} from a CGS game folder's decks, asserting every card has its data and image."""
    (folder,) = [p for p in parent.iterdir() if p.is_dir()]
    game = json.loads((folder / "cgs.json").read_text())
    cards = {c["id"]: c for c in json.loads((folder / "AllCards.json").read_text())}
    (card_set,) = json.loads((folder / "AllSets.json").read_text())
    counts: dict[str, int] = {}
    for deck in (folder / "decks").glob("*.txt"):
        for line in deck.read_text(encoding="utf-8").splitlines():
            n, card_id, name = re.fullmatch(r"(\d+) \[(.+?)\] (.*)", line).groups()
            assert cards[card_id]["name"] == name and cards[card_id]["set"] == card_set["code"]
            assert (folder / "sets" / card_set["code"] / f"{card_id}.png").is_file()
            counts[card_id] = counts.get(card_id, 0) + int(n)
    assert (folder / "CardBack.png").is_file()
    for back in game["cardBackFaceImageUrls"]:
        assert (folder / "backs" / f"{back['id']}.png").is_file()
    return counts, game


@pytest.fixture(scope="module")
def tables(tmp_path_factory):
    from printer.cli import main

    root = write_project(tmp_path_factory.mktemp("tables"), simple_cards(10) + double_faced(2))
    out = root / "out"
    exports = [a for t in TABLES for a in ("--export", t)]
    with pytest.raises(SystemExit) as done:
        main(["--project", str(root), "build", "--out", str(out), "--dpi", str(DPI), *exports])
    assert done.value.code in (0, None)
    return root, out


EXPECTED = {"c01": 3, **{f"c{i:02d}": 1 for i in range(2, 11)}, "f01": 1, "f02": 1}  # c01 has 3 copies


@pytest.mark.slow
def test_tabletopia_one_image_per_face_same_size_backs_apart(tables):
    _, out = tables
    assert read_tabletopia(out / "t-tabletopia") == EXPECTED
    manifest = json.loads((out / "t-tabletopia" / "manifest.json").read_text())
    assert manifest["card_px"] == list(POKER_PX)
    decks = {d["name"]: d for d in manifest["decks"]}
    assert decks["default"]["back"].startswith("backs/back-default-") and decks["double-faced"]["back"] is None


@pytest.mark.slow
def test_tabletop_playground_templates_on_card_sheets(tables):
    _, out = tables
    counts = read_ttpg(out / "t-tabletop-playground")
    assert counts == {"Card01": 3, **{f"Card{i:02d}": 1 for i in range(2, 11)}, "Front01": 1, "Front02": 1}
    template = json.loads((out / "t-tabletop-playground" / "Templates" / "default-1.json").read_text())
    assert (template["Width"], template["Height"]) == (6.3, 8.8)  # cm
    assert template["BackIndex"] == -2 and template["CardMetadata"]["0"] == "c01"


@pytest.mark.slow
def test_playingcards_io_zip_with_widgets_json(tables):
    _, out = tables
    counts, sizes = read_pcio(out / "t-playingcards-io.pcio")
    assert counts == {"Card01": 3, **{f"Card{i:02d}": 1 for i in range(2, 11)}, "Front01": 1, "Front02": 1}
    assert sizes == {POKER_PX}
    with zipfile.ZipFile(out / "t-playingcards-io.pcio") as z:
        deck = next(w for w in json.loads(z.read("widgets.json")) if w["type"] == "cardDeck")
    assert (deck["cardWidth"], deck["cardHeight"]) == (round(160 * 63 / 88), 160)


@pytest.mark.slow
def test_screentop_images_and_card_list(tables):
    _, out = tables
    assert read_screentop(out / "t-screentop") == EXPECTED
    rows = list(csv.DictReader((out / "t-screentop" / "cards.csv").read_text().splitlines()))
    assert rows[0]["text"] == "Text of card 1." and rows[0]["deck"] == "default"


@pytest.mark.slow
def test_cgs_game_folder(tables):
    _, out = tables
    counts, game = read_cgs(out / "t-cgs")
    assert counts == EXPECTED
    assert game["name"] == "Test" and game["cardSize"] == {"x": 2.4803, "y": 3.4646}  # 63 x 88 mm in inches
    assert {"name": "text", "type": "string"} in game["cardProperties"] and game["deckFileTxtId"] == "id"


@pytest.mark.slow
def test_a_changed_card_gets_a_new_image_name_and_the_others_keep_theirs(tables, tmp_path, run):
    root, out = tables
    before = sorted(p.name for p in (out / "t-tabletopia" / "fronts").iterdir())
    data = json.loads((root / "cards" / "t" / "cards.json").read_text())
    data["cards"][1]["title"] = "Renamed"
    (root / "cards" / "t" / "cards.json").write_text(json.dumps(data))
    result = run(
        "--project", root, "build", "--out", tmp_path, "--dpi", DPI, "--export", "tabletopia", "--export", "tts"
    )
    assert result.code == 0, result.err
    after = sorted(p.name for p in (tmp_path / "t-tabletopia" / "fronts").iterdir())
    changed = set(before) ^ set(after)
    assert {n.rsplit("-", 1)[0] for n in changed} == {"c02"} and len(changed) == 2
    sheets = {d["face"] for d in json.loads((tmp_path / "t-tts" / "tts.json").read_text())["decks"]}
    assert all(digest_ok(tmp_path / "t-tts" / s) for s in sheets)
    old = {p.name for p in (out / "t-tabletop-playground" / "Textures").glob("*.png")}  # the same sheets, before
    assert {s.rsplit("-", 1)[0] for s in sheets - old} == {"default-1"}  # the changed card's sheet, and only it


GAMES = ["l5r", "res-arcana", "via-magica", "arcanductor", "edelweiss"]


@pytest.mark.slow
@pytest.mark.parametrize("game", GAMES)
def test_every_example_game_on_every_play_table(game, repo, tmp_path, run):
    """The five bundled games, exported for every table: each export holds every printed card (copies included),
    its card images at the game's card size."""
    out = export_all(repo, tmp_path, run, game)
    printed = int(re.search(rf"{re.escape(str(tmp_path / game))}\.pdf: (\d+) cards", out).group(1))
    card = json.loads((tmp_path / f"{game}-tabletopia" / "manifest.json").read_text())["card_px"]
    counts = read_tabletopia(tmp_path / f"{game}-tabletopia")
    assert sum(counts.values()) == printed
    assert sum(read_ttpg(tmp_path / f"{game}-tabletop-playground").values()) == printed
    pcio, sizes = read_pcio(tmp_path / f"{game}-playingcards-io.pcio")
    assert sum(pcio.values()) == printed and sizes == {tuple(card)}
    rows = list(csv.DictReader((tmp_path / f"{game}-screentop" / "cards.csv").read_text(encoding="utf-8").splitlines()))
    assert sum(int(r["count"]) for r in rows) == printed
    assert sum(read_cgs(tmp_path / f"{game}-cgs")[0].values()) == printed
