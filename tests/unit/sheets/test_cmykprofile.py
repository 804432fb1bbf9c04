"""The presets' CMYK profiles, built by ArgyllCMS from the free characterization data of icc-profiles-free: made once
and kept in the user's cache by digest and parameters, their separations under the ink limit, used by Ghostscript's
conversion, and a located hint (never a traceback) when ArgyllCMS or the data is missing.

The figures (DriveThruCards at most 240 % ink, MB Print on FOGRA39) are the vendors' (docs/print-on-demand.md).
"""

from __future__ import annotations

import io
import re
import shutil
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pikepdf
import pytest
from PIL import Image, ImageCms

from printer.sheets.export import cmykprofile
from printer.sheets.export.cmykprofile import ProfileUnavailable, Recipe, built_profile, cache_folder, recipes

DATA = Path("/usr/share/color/icc")
needs_argyll = pytest.mark.skipif(
    shutil.which("colprof") is None or not (DATA / "FOGRA39L.ti3").is_file() or not (DATA / "TR006.ti3").is_file(),
    reason="needs ArgyllCMS (argyll) and icc-profiles-free",
)
SWOP = DATA / "ghostscript" / "default_cmyk.icc"


@pytest.fixture(scope="module")
def built():
    """Both presets' profiles, as a build makes them (in the test session's cache: built once per checkout)."""
    return {vendor: built_profile(recipe) for vendor, recipe in recipes().items()}


def srgb_grid(step: int = 15) -> Image.Image:
    values = range(0, 256, step)
    colours = [(r, g, b) for r in values for g in values for b in values]
    image = Image.new("RGB", (len(colours), 1))
    image.putdata(colours)
    return image


def test_each_cmyk_vendor_has_a_recipe_from_free_data():
    assert recipes() == {
        "drivethrucards": Recipe("drivethrucards", "TR006.ti3", "CGATS TR 006", 236),
        "mbprint": Recipe("mbprint", "FOGRA39L.ti3", "FOGRA39", 300),
    }
    assert recipes()["mbprint"].description == "FOGRA39 (built from icc-profiles-free FOGRA39L.ti3, TAC 300%)"


def test_the_cache_folder_honours_an_absolute_xdg_cache_home(tmp_path):
    assert cache_folder({"XDG_CACHE_HOME": str(tmp_path)}) == tmp_path / "printer" / "icc"
    assert cache_folder({"XDG_CACHE_HOME": "relative/cache"}) == Path.home() / ".cache" / "printer" / "icc"
    assert cache_folder({}) == Path.home() / ".cache" / "printer" / "icc"


@pytest.mark.slow
@needs_argyll
def test_a_profile_is_built_once_and_kept_by_the_datas_digest_and_the_parameters(tmp_path):
    recipe = Recipe("mbprint", "FOGRA39L.ti3", "FOGRA39", 300)
    first = built_profile(recipe, quality="l", folder=tmp_path)
    assert first.seconds is not None and first.path.parent == tmp_path
    again = built_profile(recipe, quality="l", folder=tmp_path)
    assert again.seconds is None and again.path == first.path  # read from the cache
    profile = ImageCms.getOpenProfile(str(first.path))
    assert profile.profile.xcolor_space.strip() == "CMYK"
    assert ImageCms.getProfileDescription(profile).strip() == recipe.description
    kept = sorted(p.name for p in tmp_path.iterdir())
    assert kept == [first.path.name, first.path.name + ".lock"]  # the profile and its lock: no temporary file left
    first.path.write_bytes(b"not a profile")  # a damaged cache file is built again
    assert built_profile(recipe, quality="l", folder=tmp_path).seconds is not None
    data = (DATA / recipe.data).read_bytes()
    keys = {
        cmykprofile._key(recipe, data, "l"),
        cmykprofile._key(recipe, data, "m"),
        cmykprofile._key(Recipe("mbprint", "FOGRA39L.ti3", "FOGRA39", 280), data, "l"),
        cmykprofile._key(recipe, data + b"\n", "l"),
    }
    assert len(keys) == 4 and cmykprofile._key(recipe, data, "l") in first.path.name


def test_missing_argyll_or_data_is_a_located_hint_naming_the_debian_package(tmp_path, monkeypatch):
    recipe = recipes()["mbprint"]
    with pytest.raises(ProfileUnavailable) as missing:
        built_profile(recipe, folder=tmp_path, data_folders=(tmp_path,))
    assert missing.value.problem.where == "--preset mbprint"
    assert "FOGRA39L.ti3" in missing.value.problem.message and "icc-profiles-free" in (missing.value.problem.hint or "")
    if (DATA / recipe.data).is_file():
        monkeypatch.setattr(cmykprofile, "colprof", lambda: None)
        with pytest.raises(ProfileUnavailable) as no_argyll:
            built_profile(recipe, folder=tmp_path)
        assert "ArgyllCMS (colprof) is not installed" in no_argyll.value.problem.message
        assert "apt-get install argyll" in (no_argyll.value.problem.hint or "")


@pytest.mark.skipif(not SWOP.is_file(), reason="needs Ghostscript's CMYK profile")
def test_processes_that_need_a_profile_at_once_build_it_once(tmp_path, monkeypatch):
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "FOGRA39L.ti3").write_text("CTI3\n", encoding="utf-8")
    runs = tmp_path / "runs"
    fake = tmp_path / "colprof"  # writes a real CMYK profile where -O says, a second after it starts
    fake.write_text(
        f"#!{sys.executable}\nimport shutil, sys, time\nopen({str(runs)!r}, 'a').write('run\\n')\ntime.sleep(1)\n"
        f"shutil.copy({str(SWOP)!r}, sys.argv[sys.argv.index('-O') + 1])\n",
        encoding="utf-8",
    )
    fake.chmod(0o755)
    monkeypatch.setattr(cmykprofile, "colprof", lambda: str(fake))
    recipe, folder = recipes()["mbprint"], tmp_path / "cache"
    with ThreadPoolExecutor(3) as pool:  # each thread opens the lock file anew, as a process would
        data = (tmp_path / "data",)
        built = list(pool.map(lambda _: built_profile(recipe, folder=folder, data_folders=data), range(3)))
    assert runs.read_text(encoding="utf-8") == "run\n"  # colprof ran once
    assert len({b.path for b in built}) == 1 and sorted(b.seconds is None for b in built) == [False, True, True]


def test_colprof_has_a_time_limit(tmp_path, monkeypatch):
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "FOGRA39L.ti3").write_text("CTI3\n", encoding="utf-8")
    slow = tmp_path / "colprof"
    slow.write_text("#!/bin/sh\nsleep 30\n", encoding="utf-8")
    slow.chmod(0o755)
    monkeypatch.setattr(cmykprofile, "colprof", lambda: str(slow))
    with pytest.raises(ProfileUnavailable, match="took longer than 0.5 s"):
        built_profile(recipes()["mbprint"], timeout=0.5, folder=tmp_path / "cache", data_folders=(tmp_path / "data",))


@pytest.mark.slow
@needs_argyll
def test_every_srgb_colour_separates_under_the_vendors_ink(built):
    for vendor, limit in (("drivethrucards", 240), ("mbprint", 300)):
        transform = ImageCms.buildTransform(
            ImageCms.createProfile("sRGB"), ImageCms.getOpenProfile(str(built[vendor].path)), "RGB", "CMYK", 1
        )
        cmyk = ImageCms.applyTransform(srgb_grid(), transform)
        assert cmyk is not None
        data = cmyk.tobytes()
        worst = max(sum(data[i : i + 4]) for i in range(0, len(data), 4)) / 2.55
        assert limit - 15 < worst <= limit, (vendor, worst)  # the darkest colours use what the limit allows


def _ghostscript_cmyk(profile: Path) -> list[list[float]]:
    """The CMYK (%) Ghostscript writes for a black and a sky blue fill, converted through ``profile``."""
    from printer.sheets.export.pdfx import convert_to_cmyk

    pdf = pikepdf.new()
    page = pdf.add_blank_page(page_size=(100, 100))
    page.obj.Contents = pdf.make_stream(b"0 0 0 rg 0 0 50 100 re f 0.2 0.6 0.9 rg 50 0 50 100 re f\n")
    source = io.BytesIO()
    pdf.save(source)
    with pikepdf.open(io.BytesIO(convert_to_cmyk(source.getvalue(), profile))) as out:
        found = re.findall(rb"([0-9. ]+) k", out.pages[0].Contents.read_bytes())
    return [[float(v) * 100 for v in f.split()] for f in found]


def _littlecms_cmyk(profile: Path) -> list[list[float]]:
    transform = ImageCms.buildTransform(
        ImageCms.createProfile("sRGB"), ImageCms.getOpenProfile(str(profile)), "RGB", "CMYK", 1
    )
    out = []
    for rgb in ((0, 0, 0), (51, 153, 230)):
        converted = ImageCms.applyTransform(Image.new("RGB", (1, 1), rgb), transform)
        assert converted is not None
        out.append([v / 2.55 for v in converted.getpixel((0, 0))])  # type: ignore[union-attr]
    return out


@pytest.mark.slow
@needs_argyll
@pytest.mark.skipif(shutil.which("gs") is None or not SWOP.is_file(), reason="needs Ghostscript and its profiles")
def test_ghostscript_converts_through_the_profile_it_is_given(built):
    tac236 = built["drivethrucards"].path
    for profile in (SWOP, tac236):
        ghostscript, littlecms = _ghostscript_cmyk(profile), _littlecms_cmyk(profile)
        for ours, theirs in zip(ghostscript, littlecms, strict=True):
            assert ours == pytest.approx(theirs, abs=6), profile  # the same separation, give or take the sRGB
    assert sum(_ghostscript_cmyk(tac236)[0]) <= 237 < sum(_ghostscript_cmyk(SWOP)[0])  # black: 233 % and 295 %
