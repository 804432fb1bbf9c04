"""The project as the preview server sees it: every card record, its faces and problems, kept up to date.

:class:`Workspace` calls the build's stages: it reads the cards as a build and ``printer validate`` do
(:func:`printer.cards.catalog.read_cards`: the reader, schema validation and cross-file checks) and has each
valid card's front and back HTML rendered by the faces stage of the game's print job
(:func:`printer.api.pipeline.faces_job`, :meth:`~printer.sheets.faces.registry.FaceRegistry.front_html`).
:meth:`Workspace.refresh` does it again after files changed and returns only what changed, cheaply, its memos
kept around those calls:

- a card whose data did not change keeps its validation result (the
  catalog's validation memo) and its HTML (a memo per game);
- a template, stylesheet or icon change drops the game's HTML memo and
  renderer, so every card is rendered to HTML again, but only the faces
  whose HTML (or the files it uses) changed get a new picture key
  (:func:`printer.serve.pictures.face_key`);
- a schema change drops the validation memo; ``printer.toml`` reloads the project.

Every record is a :class:`GalleryEntry`, invalid ones too: a card that fails
validation or rendering carries its problems and an ``error`` instead of a
picture, and the rest of the gallery is unaffected.
"""

from __future__ import annotations

import json
import threading
from collections import OrderedDict
from collections.abc import Iterable
from dataclasses import replace
from pathlib import Path
from typing import Any

from printer.book.source import rules_folder
from printer.cards.catalog import CardsRead, ValidationMemo, read_cards, schema_store, too_many_fields
from printer.cards.load import CARD_SUFFIXES, FileCache, read_json, records_from_data
from printer.cards.model import Card, CardSet
from printer.cards.positions import Positions, with_lines
from printer.cards.record import Record
from printer.cards.sheet_edit import WRITABLE
from printer.limits import over
from printer.paths import cache_folder, is_inside
from printer.problems import Location, PrinterError, Problem, merge_repeats
from printer.project import load_project
from printer.serve.gallery import (
    GalleryChanges,
    GalleryEntry,
    card_place,
    relative_name,
    row_place,
    search_text,
)
from printer.serve.game_faces import FacePlace, GameFaces
from printer.serve.held import HeldFaces
from printer.serve.pictures import SCREEN_DPI, FaceSpec, face_key
from printer.sheets.faces.items import PrintItem, item_for_card
from printer.sheets.uptodate import game_inputs


class Workspace:
    """A project's cards, faces and problems for the preview server (see the module docstring).

    Thread-safe: :meth:`refresh` and :meth:`preview` take a lock (they run
    in worker threads of the server). Raises :class:`UsageError` when the
    project cannot be read at all.
    """

    def __init__(self, root: Path, dpi: int = SCREEN_DPI):
        self.root = Path(root).resolve()
        self.dpi = dpi
        self.lock = threading.RLock()
        self.version = 0
        self.refreshes = 0  # refreshes so far: what was read from the card folders (translations too) may differ
        self.entries: dict[str, GalleryEntry] = {}
        self.problems: list[Problem] = []
        self.faces: dict[str, FacePlace] = {}  # picture key -> what it is rendered with, of the current cards
        self.drafts: OrderedDict[str, FacePlace] = OrderedDict()  # the same, of the editor's recent drafts
        self.lang_faces: dict[str, dict[str, FacePlace]] = {}  # the same, of the cards in a language, by language
        self.html = HeldFaces()  # the HTML of every picture key above, out of memory (its folder: _load_project)
        self._shown_chars = 0  # characters of HTML of the faces shown (limits.face_html_total_chars)
        self.data: dict[str, dict[str, Any]] = {}  # uid -> the record's data as read
        self.cards: dict[str, CardSet] = {}
        self._maps: Positions = {}  # where problems' JSON paths are in card files (positions.with_lines)
        self._order: list[str] = []  # front picture keys in gallery order
        self._place: dict[str, int] = {}
        self._load_project()
        self.refresh()

    # -- loading ------------------------------------------------------------------------------------------------

    def _load_project(self) -> None:
        self.project = load_project(self.root)
        if self.html.folder is None:
            self.html.folder = cache_folder(self.root, self.project.build_dir, "serve")
        self.store = schema_store(self.project)
        self.memo: ValidationMemo = {}
        self.files: FileCache = {}
        self.games: dict[str, GameFaces] = {}
        self._entry_memo: dict[tuple[object, ...], tuple[GalleryEntry, list[Problem]]] = {}
        #: each game's :meth:`_game_problems` by its number of cards to print, until a file other than cards changes
        self._game_memo: dict[str, tuple[int, list[Problem]]] = {}

    def _game(self, game_id: str) -> GameFaces:
        state = self.games.get(game_id)
        if state is None:
            state = self.games[game_id] = GameFaces(self.project, game_id, self.dpi)
        return state

    def targets(self) -> list[Path]:
        """The card folders read: each game's that exists."""
        return [g.cards for g in self.project.games.values() if g.cards.is_dir()]

    def _schema_folders(self) -> list[Path]:
        """The folders of the games' schemas, as a build's up-to-date check walks them
        (:func:`printer.sheets.uptodate.game_inputs`), printer's bundled ones left out: they do not change while it
        serves."""
        folders = {game_inputs(self.project, game).schemas[0] for game in self.project.games.values()}
        return sorted(folders)

    def classify(self, paths: Iterable[Path]) -> set[str]:
        """What kinds of file ``paths`` are: ``project``, ``schema``, ``template:<game>``, ``cards``, ``rules``."""
        kinds: set[str] = set()
        for raw in paths:
            path = Path(raw)
            if path.name == "printer.toml" and path.parent.resolve() == self.root:
                kinds.add("project")
            elif path.name.endswith(".json") and is_inside(path, self._schema_folders()):
                kinds.add("schema")
            elif is_inside(path, [self.root / "rules"]) or any(
                is_inside(path, [rules_folder(self.project, g)]) for g in self.project.games.values()
            ):
                kinds.add("rules")
            else:
                games = [g for g in self.project.games.values() if any(is_inside(path, [d]) for d in g.template_dirs)]
                kinds |= {f"template:{g.id}" for g in games}
                if not games and is_inside(path, [self.root / "templates"]):
                    kinds.add("project")  # a new template folder: the games' search paths change
                if path.suffix.lower() in CARD_SUFFIXES:
                    kinds.add("cards")
        return kinds

    def first_faces(self, changed: Iterable[Path]) -> list[str]:
        """The picture keys of the cards that changed in the JSON card files ``changed``, found before
        :meth:`refresh` (which reads and checks the whole project): the server starts rendering them at once.

        Only a card whose data changed, that is valid and renders, counts; anything unusual (a new file, a
        template change, an error) gives nothing here, and :meth:`refresh` sees to it.
        """
        keys: list[str] = []
        with self.lock:
            paths = list(changed)
            if self.classify(paths) - {"cards"}:
                return []
            for path in paths:
                kept = self.files.get(Path(path))
                if kept is None or Path(path).suffix.lower() != ".json":
                    continue
                game = self.project.game_for_path(Path(path))
                data, _ = read_json(Path(path))
                if game is None or data is None:
                    continue
                records, _ = records_from_data(data, Path(path))
                before = {r.pointer: r.data for r in kept[1]}
                for record in records:
                    if before.get(record.pointer) == record.data or record.game not in (None, game.id):
                        continue
                    if self.store.validate(record.data, game.schema, record.where()):
                        continue
                    if record.data.get("back_card"):
                        continue  # its back is another card: left to refresh
                    state, card = self._game(game.id), Card(game.id, record.data, record)
                    try:
                        html = self._face_html(state, item_for_card(card), [])
                    except PrinterError:
                        continue
                    keys += self._hold_drafts(game.id, html, state.piece_of(card))
        return keys

    @staticmethod
    def _face_html(state: GameFaces, item: PrintItem, problems: list[Problem]) -> tuple[str, str]:
        """The HTML of ``item``'s front and back as a build renders them: by the faces stage of the game's print job
        (:meth:`~printer.sheets.faces.registry.FaceRegistry.front_html`, ``back_html``), a component's piece by
        its component's job. The renderer's warnings meanwhile go to ``problems``, a template error's too;
        raises :class:`PrinterError` for a template error."""
        job = state.job_of(state.piece_of(item.card) if item.card is not None else None)
        renderer = job.renderer
        before = len(renderer.problems)
        try:
            return str(job.faces.front_html(item)), str(job.faces.back_html(item))
        finally:
            problems += renderer.problems[before:]
            del renderer.problems[before:]

    def _hold_drafts(self, game_id: str, faces: tuple[str, str], piece: str | None = None) -> list[str]:
        """Hold a draft's ``faces`` (HTML: front, back) as drafts of ``game_id`` (``piece``: of that component's
        pieces); their picture keys."""
        state = self._game(game_id)
        place = state.place(piece)
        keys = []
        for html in faces:
            key = face_key(place[1], html, state.identity, state.base_url)
            self.html.put(key, html)
            self.drafts[key] = place
            self.drafts.move_to_end(key)
            keys.append(key)
        while len(self.drafts) > self.project.limits.drafts:
            self.drafts.popitem(last=False)
        return keys

    def refresh(self, changed: Iterable[Path] = ()) -> GalleryChanges:
        """Read the project again after ``changed`` files changed (everything when empty); returns the changes."""
        with self.lock:
            self.refreshes += 1
            kinds = self.classify(changed)
            reloaded = "project" in kinds
            if reloaded:
                self._load_project()
            if "schema" in kinds:
                self.store = schema_store(self.project)
                self.memo.clear()
            for kind in kinds:
                if kind.startswith("template:"):
                    self.games.pop(kind.split(":", 1)[1], None)
            if len(self.memo) > 20_000:
                self.memo.clear()
            if kinds != {"cards"} or len(self._entry_memo) > 20_000:
                # art, templates, schemas, anything but card files: every card is rendered to HTML again (its
                # art's prepared copy or an icon may differ); only faces whose HTML or files changed get new keys
                self._entry_memo.clear()
                self._game_memo.clear()
                for state in self.games.values():
                    state.html.clear()
            return self._rebuild(reloaded)

    def _rebuild(self, reloaded: bool) -> GalleryChanges:
        """Read and check the cards as a build does (:func:`~printer.cards.catalog.read_cards`, with the file cache
        and the validation memo), make each record's entry (:meth:`_entries`) and say what changed."""
        read = read_cards(self.project, self.targets(), None, self.store, self.files, self.memo)
        by_place: dict[tuple[str, str], list[Problem]] = {}
        for problem in read.problems:
            by_place.setdefault(card_place(problem.where), []).append(problem)
        entries, data, render_problems = self._entries(read, by_place)
        self._file_tiles(by_place, entries)
        all_problems = list(self.project.problems) + read.problems + merge_repeats(render_problems)
        all_problems += self._game_problems(read.sets)
        changes = GalleryChanges(reloaded=reloaded)
        for uid, entry in entries.items():
            if self.entries.get(uid) != entry:
                changes.changed.append(entry)
        changes.removed = [uid for uid in self.entries if uid not in entries]
        changes.problems = [p.as_dict() for p in all_problems] != [p.as_dict() for p in self.problems]
        self.entries, self.data, self.problems, self.cards = entries, data, all_problems, read.sets
        self._index(entries)
        if changes:
            self.version += 1
        changes.version = self.version
        return changes

    def _entries(
        self, read: CardsRead, by_place: dict[tuple[str, str], list[Problem]]
    ) -> tuple[dict[str, GalleryEntry], dict[str, dict[str, Any]], list[Problem]]:
        """Each record's entry by uid, its data by uid, and the problems of rendering; takes each record's own
        problems out of ``by_place`` (those left are of files that gave no record)."""
        shown: set[str] = set()
        self._shown_chars = 0  # characters of the faces shown so far (limits.face_html_total_chars)
        valid = {id(card.record): card for cards in read.sets.values() for card in cards}
        entries: dict[str, GalleryEntry] = {}
        data: dict[str, dict[str, Any]] = {}
        render_problems: list[Problem] = []
        files: dict[Path, str] = {}
        for record in read.records:
            game_id = self._record_game(record)
            card = valid.get(id(record))
            own = by_place.pop((str(record.file), record.pointer), [])
            entry = self._memo_entry(record, game_id, card, own, read.sets, render_problems, files)
            self._count_shown(entry, record, shown, render_problems)
            if entry.uid in entries:  # a duplicate id: the second record shows under its place
                entry.uid = f"{game_id}/{entry.file}#{entry.pointer}"
            entries[entry.uid] = entry
            data[entry.uid] = record.data
        return entries, data, render_problems

    def _memo_entry(  # noqa: PLR0913  one record's parts and the gallery's tallies
        self,
        record: Record,
        game_id: str,
        card: Card | None,
        own: list[Problem],
        sets: dict[str, CardSet],
        render_problems: list[Problem],
        files: dict[Path, str],
    ) -> GalleryEntry:
        """:meth:`_entry`, from the memo when the record, its back card and its problems are as before."""
        back_card = None  # the card it prints on its back (item_for_card's), looked up only for a card that has one
        if card is not None and card.get("back_card") and game_id in sets:
            back_card = sets[game_id].by_id(card["back_card"])
        memo_key = (
            str(record.file),
            record.pointer,
            game_id,
            card is not None,
            json.dumps([record.data, back_card.data if back_card else None], sort_keys=True, default=str),
            tuple((p.where, p.message, p.hint, p.severity, p.code) for p in own),
        )
        hit = self._entry_memo.get(memo_key)
        if hit is not None:
            render_problems += hit[1]
            return replace(hit[0])
        before = len(render_problems)
        entry = self._entry(record, game_id, card, own, sets, render_problems, files)
        if not any(p.code == "limit" for p in render_problems[before:]):  # a limit may not hold next time
            self._entry_memo[memo_key] = (replace(entry), render_problems[before:])
        return entry

    def _count_shown(
        self, entry: GalleryEntry, record: Record, shown: set[str], render_problems: list[Problem]
    ) -> None:
        """Count ``entry``'s faces not ``shown`` yet into the HTML shown; past ``limits.face_html_total_chars`` the
        entry shows the limit's problem instead of its faces."""
        added = {k for k in (entry.front, entry.back) if k and k not in shown}
        size = sum(map(self.html.chars, added))
        if size and self._shown_chars + size > self.project.limits.face_html_total_chars:
            problem = self._over_total(record.where(), size)
            entry.front = entry.back = None
            entry.error = problem.message
            entry.problems = [*entry.problems, self._problem(problem)]
            render_problems.append(problem)
        else:
            self._shown_chars += size
            shown |= added

    def _file_tiles(self, by_place: dict[tuple[str, str], list[Problem]], entries: dict[str, GalleryEntry]) -> None:
        """A tile in ``entries`` for each card file that cannot be read at all (its problems left in ``by_place``)."""
        for rest in by_place.values():
            file = rest[0].where.file
            if Path(file).suffix.lower() not in CARD_SUFFIXES:
                continue
            game = self.project.game_for_path(Path(file))
            uid = f"{game.id if game else '?'}/{relative_name(Path(file), self.root)}#file"
            entries[uid] = GalleryEntry(
                uid,
                game.id if game else "",
                relative_name(Path(file), self.root),
                "$",
                title=Path(file).name,
                error=rest[0].message,
                problems=[self._problem(p) for p in rest],
                editable=False,
            )

    def _index(self, entries: dict[str, GalleryEntry]) -> None:
        """The gallery's order and the faces it shows, from ``entries``; the HTML of faces no card, draft or
        language shows any more let go, and the memos forget them."""
        fronts = [e.front for e in entries.values() if e.front]
        self._order = fronts
        self._place = {key: i for i, key in enumerate(fronts)}
        self.faces = {}
        for entry in entries.values():
            for key in (entry.front, entry.back):
                if key and key not in self.faces:
                    self.faces[key] = self._game(entry.game).place(entry.piece)
        if self.html.keep([*self.faces, *self.drafts, *(k for f in self.lang_faces.values() for k in f)]):
            for state in self.games.values():
                state.html = {k: v for k, v in state.html.items() if all(f is None or f in self.html for f in v[:2])}
            self._entry_memo = {
                k: v
                for k, v in self._entry_memo.items()
                if all(f is None or f in self.html for f in (v[0].front, v[0].back))
            }

    def _game_problems(self, sets: dict[str, CardSet]) -> list[Problem]:
        """What a build of each game would refuse or warn about beyond its cards (:func:`printer.api.game_checks`),
        and the problems of the project's format files (:func:`printer.api.format_checks`)."""
        from printer import api

        problems: list[Problem] = []
        for game in self.project.games.values():
            cards = sets.get(game.id)
            total = sum(card.copies for card in cards) if cards is not None else -1
            kept = self._game_memo.get(game.id)
            if kept is None or kept[0] != total:
                try:
                    found = api.game_checks(self.project, game, cards, aids=True)
                except PrinterError as exc:
                    found = list(exc.problems)
                kept = self._game_memo[game.id] = (total, found)
            problems += kept[1]
        kept = self._game_memo.get("")  # the project's format files, read again when a file other than cards changes
        if kept is None:
            kept = self._game_memo[""] = (0, api.format_checks(self.project))
        return problems + kept[1]

    def _record_game(self, record: Record) -> str:
        if record.game:
            return record.game
        game = self.project.game_for_path(record.file)
        return game.id if game else "?"

    def _entry(
        self,
        record: Record,
        game_id: str,
        card: Card | None,
        own: list[Problem],
        sets: dict[str, CardSet],
        render_problems: list[Problem],
        files: dict[Path, str] | None = None,
    ) -> GalleryEntry:
        data = record.data
        files = {} if files is None else files
        rel = files.get(record.file)
        if rel is None:
            rel = files[record.file] = relative_name(record.file, self.root)
        card_id = data.get("id") if isinstance(data.get("id"), str) else None
        place = row_place(record)
        uid = f"{game_id}/{card_id}" if card_id else f"{game_id}/{rel}#{place}"
        copies = data.get("copies", 1)
        entry = GalleryEntry(
            uid,
            game_id,
            rel,
            place,
            id=card_id,
            title=str(data.get("title") or card_id or place),
            type=str(data.get("type") or ""),
            set=str(data.get("set") or ""),
            copies=copies if isinstance(copies, int) and not isinstance(copies, bool) else 1,
            search=search_text(data),
            editable=record.file.suffix.lower() in (".json", *WRITABLE)
            and self.project.write_problem(record.file) is None,
        )
        problems = list(own)
        if card is None:
            errors = [p for p in own if p.is_error]
            entry.error = errors[0].message if errors else "not a valid card"
        elif game_id in self.project.games:
            entry.piece = self._game(game_id).piece_of(card)
            entry.front, entry.back, found, entry.error = self._faces(card, sets.get(game_id))
            problems += found
            render_problems += found
        entry.problems = [self._problem(p) for p in problems]
        return entry

    def _over_total(self, where: Location, size: int) -> Problem:
        """The problem of a card whose faces (``size`` characters of HTML) would take the faces shown past
        ``limits.face_html_total_chars``."""
        limit = self.project.limits.face_html_total_chars
        what = "the HTML of the faces shown, in characters, with this card's"
        return over("face_html_total_chars", self._shown_chars + size, limit, where, what)

    def _faces(
        self, card: Card, cards: CardSet | None, state: GameFaces | None = None
    ) -> tuple[str | None, str | None, list[Problem], str | None]:
        """``(front key, back key, problems, error)`` of ``card`` (its HTML held in :attr:`html`), from the game's
        memo when its data is unchanged; ``state``: the game's renderer in another language (default: the game's)."""
        state = state or self._game(card.game)
        item = item_for_card(card, cards)  # the card as it prints: its back card on its back
        back_card = item.back_card
        memo_key = json.dumps(
            [card.data, back_card.data if back_card else None, card.where], sort_keys=True, default=str
        )
        found = state.html.get(memo_key)
        if found is not None:
            return found
        front = back = error = None
        problems: list[Problem] = []
        try:
            front, back = self._face_html(state, item, problems)
        except PrinterError as exc:
            problems[:0] = exc.problems or [Problem(card.where, str(exc), code="template")]
            error = problems[0].message
        except Exception as exc:  # never let one card stop the gallery
            problems.insert(0, Problem(card.where, f"cannot render this card: {exc}", code="template"))
            error = problems[0].message
        size = len(front or "") + len(back or "")
        if size and self._shown_chars + size > self.project.limits.face_html_total_chars:
            problem = self._over_total(card.where, size)  # not held, nor remembered: it may fit next time
            return None, None, [*problems, problem], problem.message
        fingerprint = state.fingerprint_of(state.piece_of(card))
        keys = [
            None if html is None else face_key(fingerprint, html, state.identity, state.base_url)
            for html in (front, back)
        ]
        for key, html in zip(keys, (front, back)):
            if key is not None and html is not None:
                self.html.put(key, html)
        result = (keys[0], keys[1], problems, error)
        state.html[memo_key] = result
        return result

    def _problem(self, problem: Problem) -> dict[str, Any]:
        """``problem`` as JSON data (:meth:`Problem.as_dict`), its file relative to the project."""
        place, prefix = problem.where, str(self.root) + "/"
        if place.file.startswith(prefix):
            place = replace(place, file=place.file[len(prefix) :])
        return {**problem.as_dict(), "where": str(place), "location": place.as_dict()}

    # -- lookups --------------------------------------------------------------------------------------------------

    def face(self, key: str) -> FaceSpec | None:
        """The :class:`FaceSpec` of a picture key of a card or of a recent editor draft, else ``None``.

        Without the lock: the server's event loop asks, and must not wait for a refresh or a check (``faces`` is
        replaced whole by a refresh, and one look-up in a dict is atomic)."""
        found = self.faces.get(key) or self.drafts.get(key)
        if found is None:
            found = next((f[key] for f in list(self.lang_faces.values()) if key in f), None)
        html = self.html.get(key) if found is not None else None
        return None if found is None or html is None else FaceSpec(found[0], found[1], html, found[2])

    def following(self, key: str, n: int) -> list[str]:
        """The front picture keys of the ``n`` cards after the one whose front is ``key``, in gallery order."""
        with self.lock:
            place = self._place.get(key)
            return [] if place is None else self._order[place + 1 : place + 1 + n]

    def entries_of(self, game: str | None = None) -> list[GalleryEntry]:
        with self.lock:
            return [e for e in self.entries.values() if game is None or e.game == game]

    def problem_dicts(self, lines: bool = True) -> list[dict[str, Any]]:
        """Every problem as a dict (:meth:`_problem`, paths relative to the project); with ``lines`` a problem at
        ``file::$.path`` in a JSON file gets its line and column there (:func:`printer.cards.positions.with_lines`):
        ``file:10:7 ($.path)``, as ``printer validate`` writes it."""
        with self.lock:
            problems = list(self.problems)
        if lines:
            problems = with_lines(problems, self.root, self._maps)
        return [self._problem(p) for p in problems]

    # -- editor drafts --------------------------------------------------------------------------------------------

    def preview(
        self, game_id: str, file: Path, pointer: str, data: dict[str, Any], uid: str | None = None
    ) -> dict[str, Any]:
        """Validate and render an unsaved card: ``{"problems", "front", "back", "error"}`` (picture keys).

        ``file`` and ``pointer`` say where the card will be saved (for the
        problems' places and the art's folder); ``uid`` is the card being
        edited (its own id is not a duplicate). Raises ``KeyError`` for an
        unknown game.
        """
        with self.lock:
            game = self.project.games[game_id]
            record = Record(data, file, pointer, game_id)
            too_many = too_many_fields(data, record, self.project.limits)
            if too_many is not None:  # not validated: explaining each of 100,000 fields would hold the lock for long
                return {"front": None, "back": None, "error": too_many.message, "problems": [self._problem(too_many)]}
            problems = self.store.validate(data, game.schema, record.where())
            card_id = data.get("id")
            if isinstance(card_id, str):
                other = self.entries.get(f"{game_id}/{card_id}")
                if other is not None and other.uid != uid:
                    problems.append(
                        Problem(
                            record.where(".id"),
                            f"duplicate id {card_id!r}, already used in {other.file}",
                            "give every card of a game its own id",
                            code="duplicate-id",
                        )
                    )
            result: dict[str, object] = {"front": None, "back": None, "error": None}
            if not [p for p in problems if p.is_error]:
                card = Card(game_id, data, record)
                item = item_for_card(card, self.cards.get(game_id))  # its back card on its back, as it prints
                rendered: list[Problem] = []
                try:
                    html = self._face_html(self._game(game_id), item, rendered)
                except PrinterError as exc:
                    problems += exc.problems or [Problem(card.where, str(exc), code="template")]
                    result["error"] = problems[-1].message
                else:
                    problems += rendered
                    piece = self._game(game_id).piece_of(card)
                    result["front"], result["back"] = self._hold_drafts(game_id, html, piece)
                    result["piece"] = piece
            result["problems"] = [self._problem(p) for p in problems]
            return result
