"""What a build is asked for (:class:`BuildRequest`): one field per option, each saying what it changes.

A field's metadata (:func:`option`) says whether it changes what the build writes (``affects``: part of the
up-to-date key, :meth:`BuildRequest.output_values`), which files or folders it names for the build to read
(``reads``: the up-to-date signature and the files a watch watches, :meth:`BuildRequest.read_paths`), and how the
command line gives it (``flag``: the option's name when it differs, ``negated`` for a ``--no-...`` flag, ``parse``
for a value the command line gives as text). So an option is one field here plus its use in a stage.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from printer.problems import Problem, UsageError
from printer.sheets.plan.names import SHEET_OPTIONS

if TYPE_CHECKING:
    from printer.project import Game, Project
    from printer.sheets.verify import Verify

#: what a field changes: ``output`` what the build writes (part of the up-to-date key); ``run`` only how it runs
#: or which games it builds (processes, cache); ``output when set`` part of the key when it is not ``None``
Affects = Literal["output", "run", "output when set"]
#: what a path field names for the build to read: ``cards`` a card folder in place of the game's, ``file`` a file
Reads = Literal["cards", "file"]


def option(
    affects: Affects,
    default: Any = None,
    *,
    factory: Callable[[], Any] | None = None,
    reads: Reads | None = None,
    flag: str | None = None,
    negated: bool = False,
    parse: Callable[[Any], Any] | None = None,
) -> Any:
    """A :class:`BuildRequest` field: its default (or ``factory``) and what it changes (see the module docstring)."""
    metadata = {"affects": affects, "reads": reads, "flag": flag, "negated": negated, "parse": parse}
    if factory is not None:
        return field(default_factory=factory, metadata=metadata)
    return field(default=default, metadata=metadata)


_BYTE_UNITS = {"": 1, "b": 1, "kb": 10**3, "mb": 10**6, "gb": 10**9, "kib": 2**10, "mib": 2**20, "gib": 2**30}


def parse_bytes(text: str, option: str) -> int:
    """``100MB`` -> 100,000,000 bytes (KB, MB, GB decimal; KiB, MiB, GiB binary); :class:`UsageError` otherwise."""
    found = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*([a-zA-Z]*)\s*", text)
    unit = found.group(2).lower() if found else ""
    if found is None or unit not in _BYTE_UNITS or float(found.group(1)) <= 0:
        message = f"{option} {text!r}: not a file size"
        raise UsageError(message, [Problem(option, message, "write it as 100MB, 200 MB or 1.5GB", code="usage")])
    return int(float(found.group(1)) * _BYTE_UNITS[unit])


def _max_size(text: str | None) -> int | None:
    return parse_bytes(text, "--max-size") if text else None


def sheet_values(values: Mapping[str, Any]) -> dict[str, Any]:
    """The sheet options among the command line's ``values`` (``None``: not given), ``--flip`` as ``duplex``.
    Raises :class:`UsageError` for a ``--flip`` and a ``--duplex`` that say different things."""
    found = {k: values.get(k) for k in SHEET_OPTIONS}
    flip, duplex = values.get("flip"), values.get("duplex")
    if flip and duplex and flip != duplex:
        message = f"--flip {flip} and --duplex {duplex} disagree"
        hint = f"--flip X is --duplex X: give one of them (--duplex {flip}, or --duplex {duplex})"
        raise UsageError(message, [Problem("--flip", message, hint, code="usage")])
    if flip and not duplex:
        found["duplex"] = flip
    return found


@dataclass
class BuildRequest:
    """What ``build`` prints.

    ``games``: game ids (default: every game of the project). ``cards_dir``,
    ``only`` and ``deck_file`` need exactly one game: print the cards in
    another folder, only the cards with these ids or names, or a decklist's
    cards as many times as listed (proxies). ``out_dir`` defaults to the
    project's ``build/``. ``options`` are the sheet options as given on the
    command line (``paper``, ``margin``, ``duplex``... as strings or None;
    see :func:`printer.sheets.options.resolve_options`). ``exports`` are
    names from :data:`printer.sheets.plan.names.EXPORTS`; ``dpi`` (px per inch)
    and ``png_bleed`` configure them. ``icc`` is a CMYK output profile for
    PDF/X-4. ``strict`` makes every warning an error (nothing is written).
    ``aids`` prints the player aids after a whole game's cards. ``preset``
    names a print-on-demand vendor (:data:`printer.sheets.plan.names.PRESETS`,
    :mod:`printer.sheets.export.presets`) whose files are written beside the PDF; with ``icc`` its
    CMYK files are converted through that profile. ``jobs`` is the number of
    processes that lay faces out (default: the cores this process may use;
    1 lays out in this process); ``scheduler`` the address of a Dask
    ``distributed`` scheduler (``tcp://HOST:PORT``) to send them to instead.
    ``cache`` keeps laid-out faces in the project's ``build/.cache/faces``
    and takes unchanged ones from there (:mod:`printer.sheets.cache`).
    ``cut_files`` are cut-file formats (``svg``, ``dxf``: one file per
    sheet, the ``cut-svg`` / ``cut-dxf`` exports); ``image_url_base`` is
    where the player hosts the Tabletop Simulator images (``tts-save``;
    default ``file:///`` URLs, for local play only). ``players`` (1 to
    :data:`printer.sheets.players.MAX_PLAYERS`) overrides printer.toml's ``players``: what the game
    marks per-player (cards, player aids, components) prints once per player
    (:mod:`printer.sheets.players`). ``verify`` checks the written sheets
    against the faces laid out alone (``True``: at 100 dpi, 2 % tolerance,
    as warnings; or a :class:`printer.sheets.verify.Verify`: dpi, tolerance,
    severity; ``build --verify``, :func:`printer.api.check_print`). ``max_size`` (bytes)
    and ``min_dpi`` are budgets: every file written larger, or any image in a
    PDF written printed below ``min_dpi`` at its size, is an error naming the
    file (and the page and image), the files staying written. ``since`` (a
    git revision or a manifest file) prints only the cards whose printed face
    changed since then, and a changelog page, to ``<game>-reprint.pdf``
    (:mod:`printer.api.versions`). Every PDF gets its manifest beside it
    (``<pdf stem>.manifest.json``, :mod:`printer.sheets.manifest`).
    ``lang`` prints the cards in one language the game declares (``ja``;
    ``"all"``: each of them, one build a language), their files named
    ``<game>-ja.pdf``... (:mod:`printer.api.languages`); ``None`` prints them
    as their files hold them, under today's names.

    Each field says what it changes (:func:`option`); a test holds every field to saying it.
    """

    games: Sequence[str] = option("run", ())
    cards_dir: Path | None = option("output", reads="cards")
    only: Sequence[str] = option("output", ())
    deck_file: Path | None = option("output", reads="file")
    out_dir: Path | None = option("output")
    options: dict[str, Any] = option("output", factory=dict, parse=sheet_values)
    exports: Sequence[str] = option("output", ())
    dpi: int = option("output", 300)
    png_bleed: bool = option("output", False)
    icc: Path | None = option("output", reads="file")
    strict: bool = option("output", False)
    aids: bool = option("output", True, flag="no_aids", negated=True)
    preset: str | None = option("output")
    jobs: int | None = option("run")
    scheduler: str | None = option("run")
    cache: bool = option("run", True, flag="no_cache", negated=True)
    cut_files: Sequence[str] = option("output", ())
    image_url_base: str | None = option("output")
    players: int | None = option("output")
    verify: bool | Verify = option("output", False)
    max_size: int | None = option("output", parse=_max_size)
    min_dpi: float | None = option("output")
    since: str | None = option("output")
    lang: str | None = option("output when set")

    @classmethod
    def from_options(cls, values: Mapping[str, Any]) -> BuildRequest:
        """The request the command line's option ``values`` ask for (click's names; an option not among them
        keeps the field's default). A field whose metadata has ``parse`` gets ``parse(value)``; ``options`` is
        parsed from every value (:func:`sheet_values`). Raises :class:`UsageError` for a value that does not parse.
        """
        given: dict[str, Any] = {}
        for f in fields(cls):
            parse, name = f.metadata["parse"], f.metadata["flag"] or f.name
            if parse is sheet_values:
                given[f.name] = sheet_values(values)
            elif name in values:
                value = values[name]
                value = parse(value) if parse is not None else value
                given[f.name] = not value if f.metadata["negated"] else value
        return cls(**given)

    def output_values(self) -> list[tuple[str, Any]]:
        """``(field, value)`` of every field that changes what the build writes, in field order (the up-to-date key:
        ``lang`` only when set, so that a build without ``--lang`` keeps its key)."""
        found = []
        for f in fields(self):
            affects, value = f.metadata["affects"], getattr(self, f.name)
            if affects == "output" or (affects == "output when set" and value is not None):
                found.append((f.name, value))
        return found

    def read_paths(self, *kinds: Reads) -> list[Path]:
        """The paths the request names for the build to read, of ``kinds`` (default: all), in field order."""
        return [
            getattr(self, f.name)
            for f in fields(self)
            if f.metadata["reads"] is not None
            and (not kinds or f.metadata["reads"] in kinds)
            and getattr(self, f.name) is not None
        ]

    def sheet_layout_file(self, project: Project, game: Game) -> Path | None:
        """The sheet layout file a build of ``game`` reads: the command line's, else ``[games.<id>]``'s, else
        ``[project]``'s ``sheet_layout`` (relative to the project), or ``None``."""
        named = self.options.get("sheet_layout") or game.settings.get("sheet_layout")
        named = named or project.settings.get("sheet_layout")
        return project.root / str(named) if named else None
