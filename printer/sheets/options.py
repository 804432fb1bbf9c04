"""Print settings: from ``printer.toml`` and the command line to a :class:`PrintOptions` and a sheet layout.

Every setting can sit in ``[project]`` (all games), in ``[games.<id>]`` (one
game; it wins over ``[project]``) or on the command line (wins over both).
Lengths are mm, or a string with a unit (``"3mm"``, ``"0.125in"``):

=================  ===========================  =========================================
key                default                      meaning
=================  ===========================  =========================================
``paper``          ``"A4"``                     sheet size: A4, A3, A5, Letter, Legal, ``WxHmm``
``orientation``    ``"auto"``                   ``portrait``, ``landscape`` or ``auto`` (more cards)
``margin``         5                            least space between sheet edge and trim
``gutter``         0                            space between cards (0 = shared cut lines)
``bleed``          3                            art and background past the trim
``safe``           3                            safe area: text stays this far inside the trim
``marks``          ``"crop"``                   ``crop`` (per card), ``cut`` (full-length), ``none``
``mark_length``    5                            length of a crop mark
``mark_offset``    the bleed (at least 1)       gap between trim corner and crop mark
``duplex``         ``"long-edge"``              ``long-edge``, ``short-edge``, ``fold`` (fold-over), ``none``
``back_offset``    ``"0,0"``                    X,Y mm added to every back (printer correction)
``sort``           ``"listed"``                 ``listed``, or card fields, e.g. ``"set,type,title"``
``sheet_layout``   none                         a sheet layout file with explicit card slots
``corner_radius``  0                            rounded card corners (3 mm on poker cards): the
                                                cut line drawn, cut files, PNG exports
``registration``   ``"none"``                   print-then-cut marks: ``silhouette``, ``cricut``
``registration_    10 (Silhouette Studio's      each Silhouette mark's inset from the sheet edges
inset``            least)                       (``"0.625in"`` for the Auto Sheet Feeder)
``registration_    false                        leave the slot nearest the top-left mark empty
empty_slot``
``layout_version`` the latest (2)               the registration layout geometry a printed layout
                                                was made with (``printer.sheets.cutting``)
=================  ===========================  =========================================

With ``registration`` the grid keeps clear of the marks and may hold
fewer cards (:mod:`printer.sheets.cutting`); :func:`layout_report` says so.

A *sheet layout file* (TOML) lists explicit card slots, as print-shop
sheets and odd shapes need (Squib calls them sprues)::

    paper = "A4"              # optional: the sheet it is for
    card = "poker"            # optional: the trim size it is for (must match the game's)
    [[slot]]
    x = 10.5                  # trim box top-left, mm from the sheet's top-left
    y = 16.5
    rotate = 0                # 0, 90, 180 or 270 degrees clockwise (optional)

Problems in it are reported as ``file::$.slot[2].x``.
"""

from __future__ import annotations

import tomllib
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from printer.limits import DEFAULT as DEFAULT_LIMITS
from printer.limits import Limits
from printer.limits import over as limit_over
from printer.location import as_location, toml_error_place
from printer.problems import WARNING, Problem, UsageError, did_you_mean
from printer.sheets.cutting import (
    CLEARANCE,
    LAYOUT_VERSION,
    LAYOUT_VERSIONS,
    fit_registered,
    layout_clear,
    registration_marks,
    without_slot_by_mark,
)
from printer.sheets.layout import (
    CARD_SIZES,
    EPS,
    ORIENTATIONS,
    PAPER_SIZES,
    SheetLayout,
    Slot,
    fit_grid,
    fold_layout,
    orient,
    parse_length,
    parse_offset,
    parse_size,
)
from printer.sheets.plan.names import DUPLEX, MARKS, REGISTRATIONS, SHEET_OPTIONS

KEYS = SHEET_OPTIONS  # every sheet option (printer.sheets.plan.names)


@dataclass
class PrintOptions:
    """Resolved print settings; lengths in mm. See the module docstring for each one."""

    paper: tuple[float, float] = (210.0, 297.0)
    card: tuple[float, float] = (63.0, 88.0)
    orientation: str = "auto"
    margin: float = 5.0
    gutter: float = 0.0
    bleed: float = 3.0
    safe: float = 3.0
    marks: str = "crop"
    mark_length: float = 5.0
    mark_offset: float | None = None
    duplex: str = "long-edge"
    back_offset: tuple[float, float] = (0.0, 0.0)
    sort: list[str] = field(default_factory=list)
    sheet_layout: Path | None = None
    corner_radius: float = 0.0
    registration: str = "none"
    registration_inset: float | None = None
    layout_version: int = LAYOUT_VERSION
    registration_empty_slot: bool = False
    #: the project's limits (``size_mm`` for every length, ``layout_slots`` for a sheet layout file)
    limits: Limits = field(default=DEFAULT_LIMITS, repr=False)
    #: where each option given was given (``printer.toml [project]``, ``--paper``), and where the rest come from
    places: dict[str, str] = field(default_factory=dict, repr=False, compare=False)
    where: str = field(default="printer.toml", repr=False, compare=False)

    @property
    def flip(self) -> str:
        """The duplex flip used for back positions (``long-edge`` for fold-over and none)."""
        return self.duplex if self.duplex in ("long-edge", "short-edge") else "long-edge"

    def describe_backs(self) -> str:
        return {
            "long-edge": "backs for long-edge flip",
            "short-edge": "backs for short-edge flip",
            "fold": "fold-over backs",
            "none": "no backs",
        }[self.duplex]


def _choice(value: str, choices: tuple[str, ...], what: str, where: str) -> str:
    if value in choices:
        return value
    message = f"{what}: {value!r} is not one of {', '.join(choices)}"
    raise UsageError(message, [Problem(where, message, did_you_mean(str(value), list(choices)), code="usage")])


def resolve_options(
    project_settings: Mapping[str, Any],
    game_settings: Mapping[str, Any],
    card_size: str,
    cli: Mapping[str, Any],
    where: str = "printer.toml",
    limits: Limits = DEFAULT_LIMITS,
) -> PrintOptions:
    """Merge ``[project]``, ``[games.<id>]`` and command-line values (``None`` = not given) into options.

    ``limits`` are the project's (:attr:`printer.project.Project.limits`): no length may pass its ``size_mm``.
    Raises :class:`UsageError` naming the setting for a bad value.
    """
    merged = _merged_settings(project_settings, game_settings, cli, where)
    opts = PrintOptions(limits=limits, places={key: place for key, (_, place) in merged.items()}, where=where)
    opts.card = parse_size(card_size, CARD_SIZES, "card size", limits.size_mm)

    def get(key: str) -> tuple[Any, str]:
        return merged.get(key, (None, where))

    _set_sheet_values(opts, get)
    _set_registration_values(opts, get)
    if opts.corner_radius > min(opts.card) / 2 + EPS:
        _, place = get("corner_radius")
        message = (
            f"corner-radius: {opts.corner_radius:g} mm is more than half the "
            f"{opts.card[0]:g} x {opts.card[1]:g} mm card"
        )
        raise UsageError(message, [Problem(place, message, "3mm is usual on poker cards", code="usage")])
    return opts


def _merged_settings(
    project_settings: Mapping[str, Any], game_settings: Mapping[str, Any], cli: Mapping[str, Any], where: str
) -> dict[str, tuple[Any, str]]:
    """Each option given, as ``(value, where it was given)``: the command line (``--paper``) over ``[games]`` over
    ``[project]``."""
    merged: dict[str, tuple[Any, str]] = {}
    for source, place in ((project_settings, f"{where} [project]"), (game_settings, f"{where} [games]"), (cli, None)):
        for key in KEYS:
            if source.get(key) is not None:
                merged[key] = (source[key], place or "--" + key.replace("_", "-"))  # the command line's option
    return merged


def _set_sheet_values(opts: PrintOptions, get: Callable[[str], tuple[Any, str]]) -> None:
    """Set on ``opts`` the paper, lengths, marks, duplex, back offset, sort and layout file ``get`` gives."""
    max_mm = opts.limits.size_mm
    value, place = get("paper")
    if value is not None:
        opts.paper = parse_size(str(value), PAPER_SIZES, "paper size", max_mm)
    value, place = get("orientation")
    if value is not None:
        opts.orientation = _choice(value, ORIENTATIONS, "orientation", place)
    for key, minimum in (
        ("margin", 0.0),
        ("gutter", 0.0),
        ("bleed", 0.0),
        ("safe", 0.0),
        ("mark_length", 0.0),
        ("mark_offset", 0.0),
        ("corner_radius", 0.0),
    ):
        value, place = get(key)
        if value is not None:
            setattr(opts, key, parse_length(value, key.replace("_", "-"), place, minimum, max_mm))
    value, place = get("marks")
    if value is not None:
        opts.marks = _choice(value, MARKS, "marks", place)
    value, place = get("duplex")
    if value is not None:
        opts.duplex = _choice(value, DUPLEX, "duplex", place)
    value, place = get("back_offset")
    if value is not None:
        opts.back_offset = parse_offset(value, "back-offset", place, max_mm)
    value, place = get("sort")
    if value is not None:
        fields = [f.strip() for f in (value if isinstance(value, list) else str(value).split(",")) if f.strip()]
        if not fields:
            message = f"sort: {value!r} names no field"
            hint = "'listed' (the cards as listed) or card fields, e.g. set,type,title"
            raise UsageError(message, [Problem(place, message, hint, code="usage")])
        opts.sort = [] if fields == ["listed"] else fields
    value, place = get("sheet_layout")
    if value is not None:
        opts.sheet_layout = Path(value)


def _set_registration_values(opts: PrintOptions, get: Callable[[str], tuple[Any, str]]) -> None:
    """Set on ``opts`` the registration marks and the layout version ``get`` gives."""
    value, place = get("registration")
    if value is not None:
        opts.registration = _choice(value, REGISTRATIONS, "registration", place)
    value, place = get("registration_inset")
    if value is not None:
        opts.registration_inset = parse_length(value, "registration-inset", place, 0.0, opts.limits.size_mm)
    value, place = get("registration_empty_slot")
    if value is not None:
        opts.registration_empty_slot = value is True or str(value).lower() in ("true", "1", "yes")
    value, place = get("layout_version")
    if value is not None:
        version = str(value)
        opts.layout_version = int(_choice(version, tuple(map(str, LAYOUT_VERSIONS)), "layout-version", place))


def sheet_layout(opts: PrintOptions, root: Path | None = None) -> SheetLayout:
    """The layout the options ask for: a layout file's slots, a fold-over layout or a centred grid.

    With ``registration`` the grid keeps clear of the marks
    (:func:`printer.sheets.cutting.fit_registered`); a layout file's slots
    must, else :class:`UsageError`; fold-over sheets take no marks.
    """
    if opts.registration != "none" and opts.duplex == "fold":
        message = f"--registration {opts.registration} cannot be used with fold-over backs (--duplex fold)"
        raise UsageError(message, [Problem("command line", message, "print duplex, or --duplex none", code="usage")])
    if opts.sheet_layout is not None:
        path = opts.sheet_layout if opts.sheet_layout.is_absolute() or root is None else root / opts.sheet_layout
        layout = read_sheet_layout(path, opts)
        reg = registration_marks(opts.registration, layout.page, opts.registration_inset, opts.layout_version)
        if reg is not None and not layout_clear(layout, reg):
            message = f"a card of the sheet layout comes within {CLEARANCE:g} mm of the {opts.registration} registration marks"
            raise UsageError(
                message, [Problem(str(path), message, "move the slots away from the sheet corners", code="usage")]
            )
        return layout
    if opts.registration != "none":
        grid = fit_registered(
            opts.paper,
            opts.card,
            opts.registration,
            opts.gutter,
            opts.margin,
            opts.bleed,
            opts.orientation,
            opts.registration_inset,
            opts.layout_version,
        )
        if not opts.registration_empty_slot:
            return grid
        reg = registration_marks(opts.registration, grid.page, opts.registration_inset, opts.layout_version)
        return without_slot_by_mark(grid, reg) if reg is not None else grid
    if opts.duplex == "fold":
        with _at_the_sheet_options(opts):
            return fold_layout(opts.paper, opts.card, opts.gutter, opts.margin, opts.bleed, opts.orientation)
    with _at_the_sheet_options(opts):
        return fit_grid(opts.paper, opts.card, opts.gutter, opts.margin, opts.bleed, opts.orientation)


@contextmanager
def _at_the_sheet_options(opts: PrintOptions) -> Iterator[None]:
    """A card that does not fit the sheet, located where the paper (or margin, gutter, orientation) was given, or
    where the card size was (printer.toml), not at the command line."""
    try:
        yield
    except UsageError as exc:
        given = [opts.places[key] for key in ("paper", "margin", "gutter", "orientation") if key in opts.places]
        given.sort(key=lambda place: not place.startswith("--"))  # what the command line changed first
        place = given[0] if given else opts.where
        raise UsageError(str(exc), [replace(p, where=as_location(place)) for p in exc.problems]) from None


def read_sheet_layout(path: Path, opts: PrintOptions) -> SheetLayout:
    """A :class:`SheetLayout` of explicit slots from a sheet layout file (see the module docstring).

    Every problem (bad values, slots off the sheet or overlapping, a card
    size that is not the game's) is reported at once in a :class:`UsageError`.
    """
    where = str(path)
    data = _layout_toml(path)
    problems: list[Problem] = []
    page = _layout_page(data, opts, where, problems)
    unknown = set(data) - {"paper", "card", "orientation", "slot"}
    for key in sorted(unknown):
        problems.append(
            Problem(
                f"{where}::$.{key}",
                f"unknown key {key!r}",
                did_you_mean(key, ["paper", "card", "orientation", "slot"]),
                code="usage",
            )
        )
    raw = data.get("slot")
    if isinstance(raw, list) and len(raw) > opts.limits.layout_slots:
        problems.append(
            limit_over("layout_slots", len(raw), opts.limits.layout_slots, f"{where}::$.slot", "[[slot]] tables")
        )
        raw = []
    if not isinstance(raw, list) or not raw:
        problems.append(
            Problem(f"{where}::$.slot", "no [[slot]] tables", "add one [[slot]] with x and y per card", code="usage")
        )
        raw = []
    read = [_layout_slot(entry, i, where, opts, problems) for i, entry in enumerate(raw)]
    slots = [slot for slot in read if slot is not None]
    layout = SheetLayout(page, opts.card, len(slots), 1, opts.gutter, opts.margin, opts.bleed, explicit=tuple(slots))
    _check_slots(layout, slots, where, problems)
    if problems:
        raise UsageError(f"{path}: invalid sheet layout", problems)
    return layout


def _layout_toml(path: Path) -> dict[str, Any]:
    """The TOML of a sheet layout file; raises :class:`UsageError` if it is missing or not TOML."""
    where = str(path)
    try:
        return tomllib.loads(path.read_text(encoding="utf-8-sig"))
    except RecursionError:
        raise UsageError(
            f"{path}: nested too deeply", [Problem(where, "not valid TOML: nested too deeply", code="usage")]
        ) from None
    except FileNotFoundError:
        raise UsageError(f"{path} not found", [Problem(where, "sheet layout file not found", code="usage")]) from None
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        place, reason = toml_error_place(path, exc)
        raise UsageError(f"{path}: {exc}", [Problem(place, f"not valid TOML: {reason}", code="usage")]) from None


def _layout_page(data: dict[str, Any], opts: PrintOptions, where: str, problems: list[Problem]) -> tuple[float, float]:
    """The sheet size (mm, oriented) a layout file names; a bad size or a card not the game's goes to ``problems``."""
    page = opts.paper
    try:
        if "paper" in data:
            page = parse_size(str(data["paper"]), PAPER_SIZES, "paper size", opts.limits.size_mm)
        page = orient(page, data.get("orientation", "portrait" if opts.orientation == "auto" else opts.orientation))
        if "card" in data:
            size = parse_size(str(data["card"]), CARD_SIZES, "card size", opts.limits.size_mm)
            if abs(size[0] - opts.card[0]) > 0.05 or abs(size[1] - opts.card[1]) > 0.05:
                problems.append(
                    Problem(
                        f"{where}::$.card",
                        f"the layout is for {size[0]:g} x {size[1]:g} mm cards, "
                        f"the game's are {opts.card[0]:g} x {opts.card[1]:g} mm",
                        code="usage",
                    )
                )
    except UsageError as exc:
        problems += [Problem(f"{where}::$", p.message, p.hint, code="usage") for p in exc.problems]
    return page


def _layout_slot(entry: object, i: int, where: str, opts: PrintOptions, problems: list[Problem]) -> Slot | None:
    """The ``i``-th ``[[slot]]`` of a layout file, or ``None`` with what is wrong with it added to ``problems``."""
    here = f"{where}::$.slot[{i}]"
    if not isinstance(entry, dict):
        problems.append(Problem(here, "a slot must be a table with x and y", code="usage"))
        return None
    try:
        x = parse_length(entry["x"], "x", f"{here}.x", None, opts.limits.size_mm) if "x" in entry else None
        y = parse_length(entry["y"], "y", f"{here}.y", None, opts.limits.size_mm) if "y" in entry else None
    except UsageError as exc:
        problems += exc.problems
        return None
    rotate = entry.get("rotate", 0)
    for key in sorted(set(entry) - {"x", "y", "rotate"}):
        problems.append(
            Problem(f"{here}.{key}", f"unknown key {key!r}", did_you_mean(key, ["x", "y", "rotate"]), code="usage")
        )
    if x is None or y is None:
        problems.append(Problem(here, f"missing {'x' if x is None else 'y'}", code="usage"))
        return None
    if rotate not in (0, 90, 180, 270):
        problems.append(Problem(f"{here}.rotate", f"rotate must be 0, 90, 180 or 270, not {rotate!r}", code="usage"))
        return None
    return Slot(x, y, i, 0, rotate)


def _check_slots(layout: SheetLayout, slots: list[Slot], where: str, problems: list[Problem]) -> None:
    """Add to ``problems`` each slot of ``layout`` that runs off the sheet or overlaps an earlier one."""
    page = layout.page
    for i, slot in enumerate(slots):
        box = layout.trim_box(slot)
        if box.x0 < -EPS or box.y0 < -EPS or box.x1 > page[0] + EPS or box.y1 > page[1] + EPS:
            problems.append(
                Problem(
                    f"{where}::$.slot[{slot.row}]",
                    f"the card ({box.x0:g}, {box.y0:g})-({box.x1:g}, {box.y1:g}) mm "
                    f"runs off the {page[0]:g} x {page[1]:g} mm sheet",
                    code="usage",
                )
            )
        for other in slots[:i]:  # each slot reported once, at the first slot it overlaps (not N x N problems)
            o = layout.trim_box(other)
            if box.x0 < o.x1 - EPS and o.x0 < box.x1 - EPS and box.y0 < o.y1 - EPS and o.y0 < box.y1 - EPS:
                problems.append(Problem(f"{where}::$.slot[{slot.row}]", f"overlaps slot[{other.row}]", code="usage"))
                break


def layout_report(opts: PrintOptions, layout: SheetLayout, where: str = "build") -> tuple[list[Problem], list[str]]:
    """What a build should say about its layout: ``(warnings, notes)``.

    With registration marks: a warning when the marks cost cards per sheet
    (the same options without marks fit more), and a note to print at
    100 % scale. A safe area that leaves no room inside the trim (``safe`` at least half the card's narrower
    side), and a back offset that moves every back off the sheet, are warnings too, where the option was given
    (``opts.places``).
    """
    problems: list[Problem] = []
    notes: list[str] = []
    narrow = min(opts.card)
    if opts.safe * 2 >= narrow:
        problems.append(
            Problem(
                opts.places.get("safe", where),
                f"safe {opts.safe:g} mm leaves no room inside the {opts.card[0]:g} x {opts.card[1]:g} mm trim",
                f"the safe area is the margin text keeps inside the trim: under {narrow / 2:g} mm (3 mm is usual)",
                WARNING,
                "safe-area",
            )
        )
    dx, dy = opts.back_offset
    if abs(dx) >= layout.page[0] or abs(dy) >= layout.page[1]:
        problems.append(
            Problem(
                opts.places.get("back_offset", where),
                f"back offset {dx:g},{dy:g} mm moves every back off the {layout.page[0]:g} x {layout.page[1]:g} mm "
                "sheet",
                "the offset is the alignment page's reading, a few mm at most (printer align)",
                WARNING,
                "back-offset",
            )
        )
    if opts.registration != "none":
        plain = sheet_layout(replace(opts, registration="none", sheet_layout=None))
        if opts.sheet_layout is None and plain.per_sheet > layout.per_sheet:
            problems.append(
                Problem(
                    where,
                    f"the {opts.registration} registration marks need room: {layout.per_sheet} cards per sheet "
                    f"({layout.cols}x{layout.rows}) instead of {plain.per_sheet} ({plain.cols}x{plain.rows})",
                    "cards are kept clear of the marks so the machine's sensor does not misread them",
                    WARNING,
                    "registration-grid",
                )
            )
        if opts.registration == "cricut" and opts.layout_version >= 2:
            notes.append(
                "cricut: the cards lie in the 6.75 x 9.25 in Print Then Cut area and the PDF has no marks: give "
                "Design Space each sheet's image and cut file (the -cricut folder); it prints its own marks"
            )
        else:
            notes.append(
                f"{opts.registration} registration marks on every front sheet: print at 100 % scale (actual size, "
                "no 'fit to page'), or the cut will miss the cards"
            )
    return problems, notes
