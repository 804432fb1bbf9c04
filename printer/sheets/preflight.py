"""What ``printer validate`` checks beyond the schema, so that a valid project also builds.

Each card's front template is rendered to HTML (no PDF) with strict
undefined variables, as ``printer build`` renders it; so is each back the
cards use (a card a component of printer.toml holds, and its back, with
``component`` set, as build renders the component's pieces). A template
error (an unknown variable, a missing template, a syntax error) is reported at the template's file and line with the card it
was rendering; icons named in card text that no ``icons/<name>.svg``
provides, missing art and low-dpi art (its pixel size read from the
image's header, for the box the template asks for) are reported as
``printer build`` reports them (warnings: build prints a placeholder).

A card whose front rendered without a problem is remembered in
``build/.cache/preflight/<game>.json`` (:class:`CleanCards`), by a SHA-256 of
its data (its pickled bytes, quicker to make than sorted JSON), its place,
its art file's size and time, and the game's templates (every file on its
template path, by size and time), settings and printer's version: the next
``printer validate`` renders only the cards whose key it has not seen clean.
A back that rendered without a problem is remembered too, by its name, its
component and the same templates; when every card and back of a game was seen
clean, nothing is rendered and no template is loaded. A card or back with a
problem is never remembered, so its problem is reported on every run.
"""

from __future__ import annotations

import hashlib
import json
import pickle
from collections.abc import Callable, Sequence
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

from printer.cards.model import CardSet
from printer.problems import PrinterError, Problem, merge_repeats
from printer.project import Game, Project
from printer.sheets.backs import back_name
from printer.sheets.cputime import row

if TYPE_CHECKING:
    from printer.cards.model import Card
    from printer.sheets.components import Component
    from printer.sheets.render import Renderer


def preflight(
    project: Project, sets: dict[str, CardSet], paths: list[Path], known: Sequence[Problem] = (), jobs: int = 1
) -> list[Problem]:
    """Render every card's front and each back in use to HTML; returns the problems found.

    The same template error met by many cards is reported once, with the number of other cards it hits. A problem
    at a place ``known`` already reports (art that validation found missing) is not repeated. With ``jobs`` over 1,
    a run of :data:`FORK_FROM` cards or more to render is shared with ``jobs - 1`` forked processes
    (:class:`_Shared`); the problems are the same, in the same order. A game whose cards and backs were all seen
    clean (:class:`CleanCards`) is not rendered: its templates are not even loaded.
    """
    reported = {p.where for p in known}
    problems: list[Problem] = []
    for game_id, card_set in sets.items():
        game = project.games[game_id]
        clean = CleanCards(project, game, paths)
        declared = declared_components(project, game)
        cards = list(card_set)
        # a card a component of printer.toml holds renders as build renders it: with ``component`` set
        components = [next((c for c in declared if c.holds(card.data)), None) for card in cards]
        keys = [clean.key(card) for card in cards]
        in_use: dict[tuple[str, str], Component | None] = {}  # (back, component name) -> its component
        for card, component in zip(cards, components, strict=True):
            in_use.setdefault((back_name(game.settings, card), component.name if component else ""), component)
        backs: dict[str, tuple[str, dict[str, Any] | None]] = {}  # key -> back, what templates see as component
        for (back, _), component in in_use.items():
            view = component.view() if component is not None else None
            backs[clean.back_key(back, view)] = (back, view)
        if clean.known.issuperset(keys) and clean.known.issuperset(backs):
            continue
        problems += _render_game(project, game, paths, _Game(clean, cards, components, keys, backs), jobs)
    return [p for p in problems if p.where not in reported]


class _Game(NamedTuple):
    """What :func:`preflight` found of one game before rendering: its cards, their components and keys, the backs
    in use (key -> the back's name and what templates see as ``component``)."""

    clean: CleanCards
    cards: list[Card]
    components: list[Component | None]
    keys: list[str]
    backs: dict[str, tuple[str, dict[str, Any] | None]]


def _render_game(project: Project, game: Game, paths: list[Path], found: _Game, jobs: int) -> list[Problem]:
    """Render the cards and backs of ``game`` not seen clean; the problems found (:func:`preflight`)."""
    from printer.cards.catalog import art_roots
    from printer.cards.translations import languages
    from printer.sheets import sandbox
    from printer.sheets.render import Renderer, project_view

    renderer = Renderer(game, art_roots(project, paths), base=project.root)
    renderer.max_chars = project.limits.face_html_chars  # the project's limit, as build has it
    renderer.project = project_view(project.settings)
    renderer.source_lang = languages(project, game.id)[0]  # templates see lang as a build without --lang gives it
    _art_box(project, renderer)
    # the templates are read once for this run: Jinja2 would otherwise look at each file's time before every card
    renderer.env.auto_reload = False
    noted: list[Problem] = []  # the template errors met, in order (merge_repeats counts the repeats)
    clean, keys = found.clean, found.keys
    todo = [index for index, key in enumerate(keys) if key not in clean.known]
    shared = _Shared(renderer, found.cards, found.components, todo, jobs)
    with row(sandbox.RENDER_SECONDS):
        try:
            for index, card in enumerate(found.cards):
                if keys[index] in clean.known or shared.clean(index):
                    clean.add(keys[index])
                    continue
                if _noted_render(renderer, card, found.components[index], noted):
                    clean.add(keys[index])
                shared.rendered(index)
        finally:
            shared.close()
    for key, (back, view) in found.backs.items():
        renderer.component = view
        try:
            if _added_nothing(renderer, partial(renderer.back, back)):
                clean.add(key)
        except PrinterError as exc:
            noted.extend(exc.problems or [Problem(f"back {back!r}", str(exc), code="template")])
    renderer.component = None
    clean.save()
    problems = merge_repeats(noted)
    return problems + [p for p in renderer.problems if p not in problems]


#: the fewest cards to render that are shared with forked processes (a fork and its answer cost a few milliseconds,
#: a card's render about one)
FORK_FROM = 200


def _noted_render(renderer: Renderer, card: Card, component: Component | None, noted: list[Problem]) -> bool:
    """Render ``card`` (:func:`_rendered_clean`) as a piece of ``component``; whether it was clean. A template
    error goes to ``noted``."""
    renderer.component = component.view() if component is not None else None
    try:
        return _rendered_clean(renderer, card)
    except PrinterError as exc:
        noted.extend(exc.problems or [Problem(card.where, str(exc), code="template")])
        return False


def _rendered_clean(renderer: Renderer, card: Card) -> bool:
    """Render ``card``'s front (and its back when it is its own back); whether that added no problem: no new
    problem, no unknown icon and no low-dpi art met again. Raises :class:`PrinterError` for a template error."""

    def draw() -> None:
        renderer.front(card)
        if renderer.double_sided(card):  # its back is itself again
            renderer.front(card, side="back")

    return _added_nothing(renderer, draw)


def _added_nothing(renderer: Renderer, draw: Callable[[], object]) -> bool:
    """Call ``draw`` (a render by ``renderer``); whether it added no problem to the renderer and met no unknown
    icon. Raises what ``draw`` raises."""
    before, calls = len(renderer.problems), renderer.unknown_icon_calls
    draw()
    return len(renderer.problems) == before and renderer.unknown_icon_calls == calls


class _Shared:
    """The cards of one game to render, shared with forked processes (:func:`printer.sheets.forked.in_forks`).

    This process renders the first part of ``todo`` (indices into ``cards``) as it would alone. Once it has
    rendered the first card (the templates are compiled then, and the forks inherit them), each other part goes
    to a forked process, which renders its cards from a copy of the renderer and answers which of them were not
    clean (a problem, an unknown icon, low-dpi art, an error). This process then renders again, in order, only
    those: a clean card adds nothing to what a renderer reports, so the problems and their order are those of
    one process rendering every card. A part whose process failed is rendered here whole."""

    def __init__(
        self, renderer: Renderer, cards: list[Card], components: list[Component | None], todo: list[int], jobs: int
    ) -> None:
        from printer.sheets.forked import can_fork, chunks

        self.renderer, self.cards, self.components = renderer, cards, components
        self.parts = chunks(todo, jobs) if jobs > 1 and len(todo) >= FORK_FROM and can_fork() else []
        self.forked: dict[int, int] = {}  # card index -> its part's number, once the forks run
        self.suspects: set[int] | None = None  # the forked cards to render here, once the forks answered
        self.wait: Callable[[], list[list[int] | None]] | None = None

    def rendered(self, index: int) -> None:
        """This process has rendered card ``index``: after the first, start the forks."""
        if self.parts and self.wait is None:
            from printer.sheets.forked import in_forks

            for number, part in enumerate(self.parts[1:], 1):
                self.forked.update(dict.fromkeys(part, number))
            self.wait = in_forks(self._probe, self.parts[1:])

    def clean(self, index: int) -> bool:
        """Whether card ``index`` was rendered clean by a forked process (waiting for their answers)."""
        if index not in self.forked:
            return False
        if self.suspects is None:
            self.suspects = set()
            for part, answer in zip(self.parts[1:], self.close(), strict=True):
                self.suspects.update(part if answer is None else answer)
        return index not in self.suspects

    def close(self) -> list[list[int] | None]:
        """The forks' answers (waiting for them); none once taken."""
        wait, self.wait = self.wait, None
        return wait() if wait is not None else []

    def _probe(self, part: list[int]) -> list[int]:
        """In a forked process: the cards of ``part`` that were not clean."""
        from printer.sheets import sandbox

        renderer = self.renderer
        suspects: list[int] = []
        with row(sandbox.RENDER_SECONDS):  # this process's own timer: a forked process has none of its parent's
            for index in part:
                component = self.components[index]
                renderer.component = component.view() if component is not None else None
                try:
                    if not _rendered_clean(renderer, self.cards[index]):
                        suspects.append(index)
                except Exception:  # noqa: BLE001 (rendered again in the parent, which reports it)
                    suspects.append(index)
        return suspects


def _art_box(project: Project, renderer: Renderer) -> None:
    """Have ``renderer`` size ``art_url`` as build does (the card plus its bleed, printer.toml's options) and read
    each art file's header for low-dpi art; left as it is when the options are wrong (validate reports them)."""
    from printer.sheets.options import resolve_options

    game = renderer.game
    try:
        opts = resolve_options(project.settings, game.settings, game.card_size, {}, str(project.root / "printer.toml"))
    except PrinterError:
        return
    renderer.card_size, renderer.bleed, renderer.header_dpi = opts.card, opts.bleed, True


def declared_components(project: Project, game: Game) -> list[Component]:
    """The components printer.toml declares for ``game`` (:mod:`printer.sheets.components`), as a build reads
    them; none when the declarations or the options have problems (validate reports those apart)."""
    if not game.settings.get("components"):
        return []
    from printer.sheets.components import read_components
    from printer.sheets.options import resolve_options, sheet_layout

    where = str(project.root / "printer.toml")
    try:
        opts = resolve_options(project.settings, game.settings, game.card_size, {}, where)
        page = sheet_layout(opts, project.root).page
    except PrinterError:
        return []
    declared, problems = read_components(
        game.settings.get("components"), game.id, where, page, opts.margin, project.limits.size_mm
    )
    return [] if problems else declared


class CleanCards:
    """The cards of one game whose front rendered without a problem, remembered between runs (module docstring).

    ``known`` holds the keys read (empty when the file is missing, damaged, written for other templates, or the
    cache folder is not safe: :func:`printer.paths.cache_folder`); :meth:`add` keeps a key for :meth:`save`,
    which writes only the cards of this run (atomically; a failure to write is ignored).
    """

    def __init__(self, project: Project, game: Game, paths: list[Path]) -> None:
        from printer import __version__
        from printer.paths import cache_folder
        from printer.sheets.uptodate import signature

        parts = [__version__, game.id, game.card_size, game.settings, [str(Path(p).resolve()) for p in paths]]
        self.templates = signature(parts, [], game.template_dirs)
        folder = cache_folder(project.root, project.build_dir, "preflight")
        self.file = folder / f"{game.id}.json" if folder is not None and self.templates else None
        self.known: set[str] = set()
        self.seen: list[str] = []
        if self.file is not None:
            try:
                data = json.loads(self.file.read_text(encoding="utf-8"))
                if data.get("templates") == self.templates and isinstance(data.get("clean"), list):
                    self.known = {k for k in data["clean"] if isinstance(k, str)}
            except (OSError, ValueError, AttributeError):
                pass

    def key(self, card: Card) -> str:
        art = card.art_path()
        stat: object = None
        if art is not None:
            try:
                found = art.stat()
                stat = (found.st_size, found.st_mtime_ns)
            except OSError:
                stat = "missing"
        digest = hashlib.sha256(f"{self.templates}\0{card.where}\0{stat}\0".encode())
        try:  # equal bytes are equal data; equal data in other bytes (a key order) only renders the card again
            digest.update(pickle.dumps(card.data, protocol=5))
        except (pickle.PicklingError, TypeError, AttributeError, RecursionError):
            digest.update(json.dumps(card.data, sort_keys=True, ensure_ascii=False, default=str).encode())
        return digest.hexdigest()

    def back_key(self, back: str, component: dict[str, Any] | None) -> str:
        """The key of the back ``back`` rendered with ``component`` (what templates see as ``component``)."""
        view = json.dumps(component, sort_keys=True, default=str)
        return hashlib.sha256(f"{self.templates}\0back\0{back}\0{view}".encode()).hexdigest()

    def add(self, key: str) -> None:
        self.seen.append(key)

    def save(self) -> None:
        if self.file is None or set(self.seen) == self.known:
            return
        from printer.fsutil import atomic_write_text

        try:
            atomic_write_text(self.file, json.dumps({"templates": self.templates, "clean": sorted(set(self.seen))}))
        except OSError:
            pass
