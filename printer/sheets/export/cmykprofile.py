"""The CMYK output profiles of the print-on-demand presets, built on first use from free measurement data.

No vendor's own ICC profile can be shipped or fetched freely, but the
characterization data they are made from can: the Debian package
``icc-profiles-free`` installs FOGRA39 (``FOGRA39L.ti3``, offset on coated
paper, ISO 12647-2 paper type 1/2) and CGATS TR 006 (``TR006.ti3``, GRACoL
on grade 1 coated paper) among others in ``/usr/share/color/icc``. ArgyllCMS's
``colprof`` (Debian package ``argyll``) turns such data into an ICC output
profile whose separation keeps under a total ink limit (``-l``, percent of
one colorant, C+M+Y+K), with a ramp of black generation (``-k r``).

What each vendor gets is data: a ``[<vendor>.cmyk_profile]`` table in
``vendors.toml`` (``data``: the ``.ti3`` file, ``condition``: the printing
condition's registered name written as the PDF's output condition, ``max_ink``:
the total ink the profile is built for). :func:`built_profile` makes the
profile once and keeps it in the user's cache folder
(``$XDG_CACHE_HOME/printer/icc``, else ``~/.cache/printer/icc``), named by the
digest of the data file and the parameters, written atomically; a later build
reads it from there. One process builds a profile at a time: another that needs it meanwhile (a second build,
a test process beside it) waits on a lock file beside the profile and reads what the first one kept, instead of
running ``colprof`` again. ``colprof`` runs with a time limit
(:data:`BUILD_TIMEOUT`); a missing program or data file is a
:class:`ProfileUnavailable` holding a located problem that names the Debian
package to install.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import shutil
import subprocess
import tempfile
import time
import tomllib
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from printer.fsutil import atomic_write_bytes
from printer.problems import WARNING, Problem

#: the longest ``colprof`` may take to build one profile, seconds (about 30 s on one core at medium quality)
BUILD_TIMEOUT = 600.0
#: ``colprof -q``: ``l`` low, ``m`` medium (ArgyllCMS's default), ``h`` high, ``u`` ultra
QUALITY = "m"
#: the largest measurement file read, bytes (FOGRA39L.ti3 is 127 kB)
MAX_DATA_BYTES = 5_000_000
#: changes when the way a profile is built changes, so that profiles built before are not reused
RECIPE_VERSION = 1
#: where characterization data is looked for (``icc-profiles-free`` installs into the first)
DATA_FOLDERS = (Path("/usr/share/color/icc"), Path("/usr/local/share/color/icc"))
DATA_PACKAGE = "icc-profiles-free"
ARGYLL_PACKAGE = "argyll"


@dataclass(frozen=True)
class Recipe:
    """How one vendor's profile is built: the ``data`` file (``FOGRA39L.ti3``), the printing ``condition``'s
    registered name (``FOGRA39``) and the total ink ``max_ink`` (%) the separation keeps under."""

    vendor: str
    data: str
    condition: str
    max_ink: float

    @property
    def description(self) -> str:
        """The profile's description, which the PDF's output intent repeats."""
        return f"{self.condition} (built from {DATA_PACKAGE} {self.data}, TAC {self.max_ink:g}%)"


@dataclass(frozen=True)
class BuiltProfile:
    """A profile ready to convert with: its ``path`` in the cache, the ``recipe``, and ``seconds`` it took to build
    now (``None`` when it was already in the cache)."""

    path: Path
    recipe: Recipe
    seconds: float | None = None


class ProfileUnavailable(Exception):
    """The profile cannot be built here; ``problem`` says why, where and what to install."""

    def __init__(self, problem: Problem) -> None:
        super().__init__(problem.message)
        self.problem = problem


@cache
def recipes() -> dict[str, Recipe]:
    """Every ``[<vendor>.cmyk_profile]`` table of ``vendors.toml``, by vendor id."""
    data = tomllib.loads((Path(__file__).parent / "vendors.toml").read_text(encoding="utf-8"))
    found = {}
    for vendor, entry in data.items():
        table = entry.get("cmyk_profile") if isinstance(entry, dict) else None
        if isinstance(table, dict):
            found[vendor] = Recipe(vendor, table["data"], table["condition"], float(table["max_ink"]))
    return found


def cache_folder(environ: Mapping[str, str] | None = None) -> Path:
    """``$XDG_CACHE_HOME/printer/icc`` (an absolute ``XDG_CACHE_HOME`` only, as the XDG spec asks), else
    ``~/.cache/printer/icc`` (:func:`printer.paths.user_cache_folder`)."""
    from printer.paths import user_cache_folder

    return user_cache_folder("icc", environ)


def find_data(name: str, folders: tuple[Path, ...] = DATA_FOLDERS) -> Path | None:
    """The characterization data file ``name`` in the first of ``folders`` that has it, else ``None``."""
    return next((folder / name for folder in folders if (folder / name).is_file()), None)


def colprof() -> str | None:
    """ArgyllCMS's ``colprof`` command, or ``None`` when it is not installed."""
    return shutil.which("colprof")


def _key(recipe: Recipe, data: bytes, quality: str) -> str:
    parameters = {"v": RECIPE_VERSION, "ink": recipe.max_ink, "k": "r", "q": quality, "d": recipe.description}
    digest = hashlib.sha256(data)
    digest.update(json.dumps(parameters, sort_keys=True).encode())
    return digest.hexdigest()[:20]


def _unavailable(where: str, message: str, hint: str) -> ProfileUnavailable:
    return ProfileUnavailable(Problem(where, message, hint, WARNING, "cmyk-profile"))


def _usable(path: Path) -> bool:
    """``path`` opens as a CMYK ICC profile (a damaged cache file is built again)."""
    from PIL import ImageCms

    try:
        profile = ImageCms.getOpenProfile(str(path))
        return bool(profile.profile.xcolor_space.strip() == "CMYK")
    except (ImageCms.PyCMSError, OSError, AttributeError):
        return False


def built_profile(
    recipe: Recipe,
    *,
    timeout: float = BUILD_TIMEOUT,
    quality: str | None = None,
    folder: Path | None = None,
    data_folders: tuple[Path, ...] = DATA_FOLDERS,
) -> BuiltProfile:
    """The CMYK output profile of ``recipe``: from the cache ``folder`` (default :func:`cache_folder`), else
    built now by ``colprof`` and kept there.

    Raises :class:`ProfileUnavailable` when the data file or ``colprof`` is
    missing, ``colprof`` fails or takes longer than ``timeout`` seconds, or
    the cache folder cannot be written.
    """
    quality = quality or QUALITY
    where = f"--preset {recipe.vendor}"
    source = find_data(recipe.data, data_folders)
    if source is None:
        raise _unavailable(
            where,
            f"the {recipe.condition} measurement data ({recipe.data}) is not in "
            + ", ".join(str(f) for f in data_folders),
            f"install the Debian package {DATA_PACKAGE} (sudo apt-get install {DATA_PACKAGE}), or give --icc",
        )
    if source.stat().st_size > MAX_DATA_BYTES:
        raise _unavailable(str(source), f"larger than {MAX_DATA_BYTES:,} bytes: not read", "reinstall " + DATA_PACKAGE)
    data = source.read_bytes()
    folder = folder or cache_folder()
    stem = recipe.condition.lower().replace(" ", "-")
    target = folder / f"{stem}-tac{recipe.max_ink:g}-{_key(recipe, data, quality)}.icc"
    if target.is_file() and _usable(target):
        return BuiltProfile(target, recipe)
    with _building(target):
        if target.is_file() and _usable(target):  # built by another process while this one waited
            return BuiltProfile(target, recipe)
        return _build(recipe, data, quality, target, timeout, where)


@contextlib.contextmanager
def _building(target: Path) -> Iterator[None]:
    """Held while ``target`` is built: an exclusive lock on ``<target>.lock``, which a process waits for while
    another builds it (released by the system if that process dies). Where no lock can be taken (no ``fcntl``, a
    folder that cannot be written), nothing is waited for and the build goes on."""
    try:
        import fcntl

        target.parent.mkdir(parents=True, exist_ok=True)
        lock = open(target.with_name(target.name + ".lock"), "a+b")  # noqa: SIM115 (closed below)
    except (ImportError, OSError):
        yield
        return
    with lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        yield


def _build(recipe: Recipe, data: bytes, quality: str, target: Path, timeout: float, where: str) -> BuiltProfile:
    """``recipe``'s profile built by ``colprof`` from ``data`` and written to ``target`` (see :func:`built_profile`)."""
    folder = target.parent
    command = colprof()
    if command is None:
        raise _unavailable(
            where,
            f"ArgyllCMS (colprof) is not installed: the {recipe.condition} profile cannot be built",
            f"install the Debian package {ARGYLL_PACKAGE} (sudo apt-get install {ARGYLL_PACKAGE}), or give --icc",
        )
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="printer-icc-") as work:
        (Path(work) / "data.ti3").write_bytes(data)
        out = Path(work) / "out.icc"
        try:
            done = subprocess.run(
                _colprof_args(command, recipe, quality, out),
                cwd=work,
                capture_output=True,
                timeout=timeout,
                check=False,
            )
        except subprocess.TimeoutExpired:
            raise _unavailable(
                where, f"building the {recipe.condition} profile took longer than {timeout:g} s", "give --icc"
            ) from None
        if done.returncode != 0 or not out.is_file() or not _usable(out):
            lines = (done.stderr or done.stdout).decode("utf-8", "replace").strip().splitlines()
            raise _unavailable(
                where,
                f"colprof could not build the {recipe.condition} profile: "
                + (lines[-1] if lines else f"exit {done.returncode}"),
                f"reinstall {ARGYLL_PACKAGE} and {DATA_PACKAGE}, or give --icc",
            )
        try:
            atomic_write_bytes(target, out.read_bytes())
        except OSError as exc:
            raise _unavailable(str(folder), f"the profile cannot be kept: {exc}", "set XDG_CACHE_HOME") from None
    return BuiltProfile(target, recipe, time.monotonic() - started)


def _colprof_args(command: str, recipe: Recipe, quality: str, out: Path) -> list[str]:
    """The ``colprof`` command line that builds ``recipe``'s profile into ``out`` from ``data.ti3`` (the folder's)."""
    return [
        command,
        "-q" + quality,
        "-k" + "r",
        f"-l{recipe.max_ink:g}",
        "-nc",
        "-D",
        recipe.description,
        "-C",
        f"Built by printer with ArgyllCMS from {recipe.data} ({DATA_PACKAGE})",
        "-O",
        str(out),
        "data",
    ]


def profile_for(vendor: str) -> tuple[BuiltProfile | None, list[Problem]]:
    """The profile built for ``vendor`` (``None`` when it has no ``cmyk_profile`` table), or ``None`` and the
    warning that says why it cannot be built here."""
    recipe = recipes().get(vendor)
    if recipe is None:
        return None, []
    try:
        return built_profile(recipe), []
    except ProfileUnavailable as exc:
        return None, [exc.problem]


__all__ = ["BuiltProfile", "ProfileUnavailable", "Recipe", "built_profile", "cache_folder", "profile_for", "recipes"]
