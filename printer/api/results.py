"""The results the API's jobs return: plain dataclasses, each with its problems as data."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from printer.problems import Problem, errors

if TYPE_CHECKING:
    from printer.api.translations import TranslationReport
    from printer.cards.model import CardSet
    from printer.decks.report import DeckReport


@dataclass
class ValidationReport:
    """Every card read, by game (``sets``), and every problem found (``problems``)."""

    sets: dict[str, CardSet]
    problems: list[Problem]
    #: the translation state of each game with more than one language (:mod:`printer.api.translations`)
    translations: TranslationReport | None = None

    @property
    def cards(self) -> int:
        return sum(len(s) for s in self.sets.values())

    @property
    def ok(self) -> bool:
        return not errors(self.problems)


@dataclass
class GameBuild:
    """The outcome for one game: ``target`` (the PDF, ``None`` when nothing was printed), counts, problems.

    ``cards`` is the number of printed faces (fronts), ``sheets`` the number
    of sheets, ``grid`` the slots per sheet (``3x3`` or ``7 slots``),
    ``backs`` how backs print; ``exports`` one line per export written, with
    ``paths`` every file and folder written; ``failure`` says why nothing
    was printed (``None`` when printed); ``notes`` what the user must know
    to use the output (print at 100 % scale for registration marks).
    ``stats`` counts the work done, for display (``faces laid out``, ``faces from cache``,
    WeasyPrint ``layouts`` and ``pages``, seconds); ``up_to_date`` is true
    when nothing changed since the last build and nothing was done. A build told to leave tidying for later
    (``tidy="later"``, :func:`printer.api.build.build_game`) says what it left: ``untidy_faces`` to lay out again
    together and ``write_whole``, a PDF to write whole again (:class:`printer.sheets.output.outcome.SheetsOutcome`).
    A build with ``verify`` says how many faces and sheets it checked (``faces_checked``, ``sheets_checked``). ``lang`` is the language printed
    (``None``: the build without ``--lang``).
    """

    game: str
    target: Path | None = None
    cards: int = 0
    sheets: int = 0
    grid: str = ""
    backs: str = ""
    problems: list[Problem] = field(default_factory=list)
    exports: list[str] = field(default_factory=list)
    paths: list[Path] = field(default_factory=list)
    failure: str | None = None
    notes: list[str] = field(default_factory=list)
    stats: dict[str, float] = field(default_factory=dict)
    up_to_date: bool = False
    lang: str | None = None
    untidy_faces: int = 0
    write_whole: bool = False
    faces_checked: int = 0
    sheets_checked: int = 0
    #: the files the printed faces show from anywhere (a card's art, an image a template names), for the
    #: up-to-date check (:func:`printer.sheets.output.cached.named_files`; found when the build uses the face cache)
    named_files: list[Path] = field(default_factory=list, repr=False)

    @property
    def ok(self) -> bool:
        return self.failure is None

    @property
    def untidy(self) -> bool:
        """Whether a tidy build would do more than this one did (``untidy_faces``, ``write_whole``)."""
        return self.untidy_faces > 0 or self.write_whole


@dataclass
class BuildResult:
    """Every game's :class:`GameBuild`, in the order built."""

    games: list[GameBuild] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return all(g.ok for g in self.games)

    @property
    def problems(self) -> list[Problem]:
        return [p for g in self.games for p in g.problems]


@dataclass
class PrintCheck:
    """One game's :func:`check_print`: ``problems`` (the build's, and each face that does not print as it looks
    alone, as errors), ``faces`` placed faces and ``sheets`` sheets compared, at ``dpi`` with ``tolerance``."""

    game: str
    problems: list[Problem] = field(default_factory=list)
    faces: int = 0
    sheets: int = 0
    dpi: float = 0.0
    tolerance: float = 0.0
    failure: str | None = None

    @property
    def ok(self) -> bool:
        return self.failure is None and not errors(self.problems)


@dataclass
class AlignResult:
    """The alignment page written: ``target``, how backs print (``backs``), the ``back_offset`` (x, y mm) used."""

    target: Path
    backs: str
    back_offset: tuple[float, float]
    problems: list[Problem] = field(default_factory=list)


@dataclass
class ImportOutcome:
    """An import written (or, ``dry_run``, not): ``files`` maps each file name to ``(status, card count)``.

    A status is ``new``, ``changed`` or ``unchanged``; ``needs_force`` lists
    the changed files left alone for want of ``force``; ``summary`` is the
    importer's one-line account of what it read.
    """

    out: Path
    files: dict[str, tuple[str, int]]
    needs_force: list[str]
    summary: str
    problems: list[Problem]
    dry_run: bool = False

    @property
    def written(self) -> int:
        return sum(status != "unchanged" for status, _ in self.files.values())


@dataclass
class CardsExport:
    """What :func:`export_cards` did: ``count`` cards written to ``path`` (none when ``problems`` hold an error)."""

    path: Path
    count: int = 0
    problems: list[Problem] = field(default_factory=list)


@dataclass
class BookBuild:
    """One rules reference: ``game``, ``edition`` (``None`` for the main one), ``target`` PDF and ``pages``.

    ``target`` is ``None`` when nothing was printed; ``problems`` says why.
    """

    game: str
    edition: str | None
    target: Path | None
    pages: int = 0
    problems: list[Problem] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return self.target is not None


@dataclass
class DeckCheck:
    """One decklist checked against its format.

    ``report`` is the verdict (for an unreadable decklist, a report holding
    its read errors); ``readable`` is false when the decklist could not be
    read at all (the CLI's exit 2); ``card_problems`` are the errors in the
    card files (those cards are left out of the check).
    """

    deck: Path
    report: DeckReport
    readable: bool = True
    read_problems: list[Problem] = field(default_factory=list)
    card_problems: list[Problem] = field(default_factory=list)
    card_sources: list[Path] = field(default_factory=list)

    @property
    def legal(self) -> bool:
        return self.readable and self.report.is_legal()

    def strict_failed(self, strict: bool) -> bool:
        """Legal, but with warnings (or errors in the card files) that ``--strict`` counts as errors."""
        return strict and self.legal and bool(self.report.warnings or self.card_problems)

    def accepted(self, strict: bool = False) -> bool:
        """Legal (and, with ``strict``, without a warning)."""
        return self.legal and not self.strict_failed(strict)


@dataclass
class GameListing:
    """One game ``printer games`` lists: ``source`` is the plugin's package and version, or ``this project
    (printer.toml)`` for a game the project declares with no plugin; ``formats`` are the format ids of the game
    (the project's and printer's), ``checks``, ``importers`` and ``decklists`` what its plugin adds."""

    id: str
    name: str
    source: str
    formats: list[str] = field(default_factory=list)
    checks: list[str] = field(default_factory=list)
    importers: list[str] = field(default_factory=list)
    decklists: list[str] = field(default_factory=list)


@dataclass
class BoxBuild:
    """A tuck box written (``target``; ``None`` when not): the deck it holds and the box's measures (mm).

    ``cards`` is the number of cards counted (``None`` when ``thickness``
    was given), ``depth`` the deck's thickness, ``inside`` the room the box
    leaves (width, height, depth: the deck plus the clearance), ``panel``
    the front panel and side (width, height, depth, fold to fold), ``pieces``
    the pieces to cut, ``pages`` the pages printed, ``notes`` what the user
    should know (a split net).
    """

    game: str
    target: Path | None
    cards: int | None
    depth: float
    inside: tuple[float, float, float] = (0.0, 0.0, 0.0)
    panel: tuple[float, float, float] = (0.0, 0.0, 0.0)
    pieces: int = 0
    pages: int = 0
    page: tuple[float, float] = (0.0, 0.0)
    notes: list[str] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return self.target is not None


@dataclass
class CleanResult:
    """What :func:`clean` removed: ``removed`` folders and the ``bytes`` they held."""

    removed: list[Path] = field(default_factory=list)
    bytes: int = 0


@dataclass
class PreflightReport:
    """What ``printer preflight`` found in ``pdf`` for ``vendor``: ``problems`` (errors: what the vendor rejects)."""

    pdf: Path
    vendor: str
    vendor_name: str
    source: str
    pages: int
    problems: list[Problem]
