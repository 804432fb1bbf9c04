"""The gallery and the editor in another language of a game (docs/serve.md, "Languages").

A game that declares several languages (``languages = ["en", "ja"]``, docs/translations.md) is shown in any of
them: :func:`entries` gives the gallery's entries with each card translated
(:func:`printer.cards.translations.translate`) and its faces rendered by a renderer in that language (each face's
root element carries ``lang``, as ``printer build --lang`` prints it), each entry marked with its translation's
state (``translated``, ``missing`` or ``stale``). :func:`card_translation` gives the editor each translatable field's
source value beside its translation, with the source's digest and the translation's ``from`` digest;
:func:`save_translation` writes translated fields into the overlay files (:mod:`printer.cards.translations_merge`:
the file beside the source's, ``cards/<game>/<lang>/``, changed in place, checked by the project's one rule of every
writer, written atomically) and stamps each field's ``from`` with the digest of the current source.

The translations are read again after each :meth:`Workspace.refresh` (a save, or an overlay file changed on disk),
when a page asks for a language; the server then tells the pages (the event ``translations``). The faces of a language are kept while that language is shown.
"""

from __future__ import annotations

import asyncio
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from printer.cards.model import Card, CardSet
from printer.problems import Problem
from printer.serve.gallery import GalleryEntry, relative_name, search_text
from printer.serve.game_faces import FacePlace, GameFaces
from printer.serve.security import json_body
from printer.serve.workspace import Workspace

if TYPE_CHECKING:
    from printer.api.translations import GameTranslations

#: what each language's state is made from: (workspace version, game) -> translations
_Key = tuple[int, str]


class Languages:
    """The translations of a :class:`Workspace`'s games and the faces of its cards in each language."""

    def __init__(self, workspace: Workspace):
        self.workspace = workspace
        self._read: dict[_Key, tuple[GameTranslations, list[Problem]]] = {}
        self._states: dict[tuple[str, str], GameFaces] = {}
        self._sources: dict[str, object] = {}  # the game's own state each language's renderer was made beside

    def of(self, game_id: str) -> tuple[str, ...]:
        """The languages of ``game_id``, the source first."""
        from printer.cards.translations import languages

        return languages(self.workspace.project, game_id)

    def all(self) -> list[str]:
        """Every language of the project's games, each once (the sources first, in the games' order)."""
        out: dict[str, None] = {}
        for game in self.workspace.project.games:
            out[self.of(game)[0]] = None
        for game in self.workspace.project.games:
            out.update(dict.fromkeys(self.of(game)))
        return list(out)

    def translations(self, game_id: str) -> GameTranslations:
        """The :class:`printer.api.translations.GameTranslations` of ``game_id`` as the project is now."""
        from printer.api.translations import game_translations

        ws = self.workspace
        key = (ws.refreshes, game_id)
        found = self._read.get(key)
        if found is None:
            if len(self._read) > 32:
                self._read.clear()
            found = self._read[key] = game_translations(ws.project, game_id, ws.cards, store=ws.store)
        return found[0]

    def _state(self, game_id: str, lang: str) -> GameFaces:
        ws = self.workspace
        source = ws._game(game_id)
        state = self._states.get((game_id, lang))
        if state is None or self._sources.get(game_id) is not source:  # printer.toml or a template changed
            state = GameFaces(ws.project, game_id, ws.dpi, lang)  # each face's root says its language (build --lang)
            self._states = {k: v for k, v in self._states.items() if k[0] != game_id or k[1] == lang}
            self._states[(game_id, lang)] = state
            self._sources[game_id] = source
        return state

    def forget(self) -> None:
        """After the project was read again (printer.toml, templates): make every renderer again."""
        self._states.clear()
        self._read.clear()

    def entries(self, lang: str) -> list[dict[str, Any]]:
        """The gallery's entries in ``lang``: a game that has it shows its cards translated (``lang``, and
        ``translation``: ``translated``, ``missing`` or ``stale``); the others as they are. Registers the
        translated faces (:attr:`Workspace.lang_faces`) so that their pictures can be asked for."""
        from printer.cards.translations import translate, translation_state

        ws = self.workspace
        with ws.lock:
            for kept in self._states.values():  # faces whose HTML the workspace let go: render them again if asked
                kept.html = {k: v for k, v in kept.html.items() if all(f is None or f in ws.html for f in v[:2])}
            faces: dict[str, FacePlace] = {}
            translated: dict[str, tuple[CardSet, set[str], set[str]]] = {}
            for game_id, cards in ws.cards.items():
                if game_id not in ws.project.games or lang not in self.of(game_id)[1:]:
                    continue
                found = self.translations(game_id)
                in_lang, _ = translate(cards, found.book, lang, found.fields)
                state, _ = translation_state(cards, found.book, lang, found.fields)
                translated[game_id] = (in_lang, set(state.missing), set(state.stale))
            out = []
            for entry in ws.entries.values():
                shown = self._entry(entry, lang, translated, faces)
                out.append(shown.as_dict())
            ws.lang_faces[lang] = faces
            return out

    def front(self, card: Card, lang: str) -> tuple[str | None, str | None]:
        """The picture key of ``card``'s front in ``lang`` as its translation is saved (the editor shows it beside
        the translation), and the error when it cannot be rendered. Call with the workspace's lock held."""
        from printer.cards.translations import translate

        found = self.translations(card.game)
        one = CardSet(card.game)
        one.add(card)
        in_lang, _ = translate(one, found.book, lang, found.fields)
        state = self._state(card.game, lang)
        front, _, _, error = self.workspace._faces(next(iter(in_lang)), in_lang, state)
        if front:
            self.workspace.lang_faces.setdefault(lang, {})[front] = state.place(state.piece_of(card))
        return front, error

    def _entry(self, entry: GalleryEntry, lang: str, translated: dict[str, Any], faces: dict[str, Any]) -> GalleryEntry:
        shown = replace(entry)
        shown.lang = self.of(entry.game)[0] if entry.game in self.workspace.project.games else None
        if entry.game not in translated or entry.id is None or entry.front is None:
            return shown
        cards, missing, stale = translated[entry.game]
        card = cards.by_id(entry.id)
        if card is None:
            return shown
        state = self._state(entry.game, lang)
        front, back, problems, error = self.workspace._faces(card, cards, state)
        shown.lang = lang
        shown.translation = "missing" if entry.id in missing else "stale" if entry.id in stale else "translated"
        shown.title = str(card.get("title") or entry.title)
        shown.search = entry.search + " " + search_text(card.data)
        shown.front, shown.back, shown.error = front, back, error
        if error:
            shown.problems = [*entry.problems, *(self.workspace._problem(p) for p in problems)]
        place = state.place(state.piece_of(card))
        for key in (front, back):
            if key:
                faces[key] = place
        return shown


def card_translation(workspace: Workspace, languages: Languages, uid: str, lang: str) -> dict[str, Any] | str:
    """What the editor shows of card ``uid``'s translation into ``lang``: ``{"lang", "source_lang", "file",
    "fields": [{"field", "source", "value", "digest", "from", "state"}], "front", "error", "size"}`` (``front``: the
    picture key of the card's front as translated, ``size`` the game's card size and bleed in mm; ``state``: ``translated``, ``missing``
    or ``stale``; ``file`` the overlay file holding it, ``None`` when none does yet), or why there is none."""
    from printer.cards.translations import source_digest

    with workspace.lock:
        entry = workspace.entries.get(uid)
        if entry is None or entry.id is None:
            return f"no card {uid}"
        langs = languages.of(entry.game)
        if lang not in langs[1:]:
            return f"{entry.game} is not translated into {lang!r} (its languages: {', '.join(langs)})"
        cards = workspace.cards.get(entry.game)
        card = cards.by_id(entry.id) if cards is not None else None
        if card is None:
            return f"card {uid} is not valid: fix it before translating it"
        found = languages.translations(entry.game)
        translation = found.book.get(entry.game, lang, entry.id)
        fields = []
        for name in found.fields:
            if name not in card.data:
                continue
            digest = source_digest(card.data[name])
            value = translation.fields.get(name) if translation is not None else None
            made_from = translation.source.get(name) if translation is not None else None
            state = "missing" if value is None else "translated" if made_from == digest else "stale"
            fields.append(
                {"field": name, "source": card.data[name], "value": value, "digest": digest, "from": made_from,
                 "state": state}
            )  # fmt: skip
        file = None
        if translation is not None:
            file = relative_name(Path(translation.file), workspace.root)  # a read_also folder: its own path
        front, error = languages.front(card, lang)
        opts = workspace._game(entry.game).job_of(entry.piece).opts  # a piece: its component's trim size
        size = {"id": entry.game, "card": list(opts.card), "bleed": opts.bleed, "safe": opts.safe}
        return {
            "lang": lang,
            "source_lang": langs[0],
            "uid": uid,
            "game": entry.game,
            "file": file,
            "fields": fields,
            "front": front,
            "error": error,
            "size": size,
        }


def save_translation(
    workspace: Workspace, languages: Languages, body: dict[str, Any]
) -> tuple[dict[str, Any], list[Path]]:
    """Write the translated fields ``body["fields"]`` (``{field: value}``) of card ``body["uid"]`` into
    ``body["lang"]``; returns ``({"files": [...], "problems": [...]}, the files written)``. Raises
    :class:`printer.serve.edits.EditRefused` (nothing written) for an unknown card or language, a field that is not
    translatable, an overlay printer may not write, or a translation with an error (an icon code lost, Markdown
    left open)."""
    from printer.cards.translations_io import Incoming, as_text
    from printer.cards.translations_merge import merge
    from printer.fsutil import atomic_write_text
    from printer.paths import is_inside
    from printer.serve.edits import _WRITING, EditRefused

    uid, lang, values = body.get("uid"), body.get("lang"), body.get("fields")
    if not isinstance(uid, str) or not isinstance(lang, str) or not isinstance(values, dict):
        raise EditRefused(400, "a translation names uid, lang and fields")
    shown = card_translation(workspace, languages, uid, lang)
    if isinstance(shown, str):
        raise EditRefused(404, shown)
    known = {f["field"]: f for f in shown["fields"]}
    incoming = []
    for name, value in values.items():
        if name not in known:
            raise EditRefused(400, f"{name!r} is not a translatable field of {uid}")
        text = value if isinstance(value, str) else None
        if text is None:
            raise EditRefused(400, f"the translation of {name!r} must be text")
        where = f"{uid} {name} ({lang})"
        incoming.append(Incoming(uid.split("/", 1)[1], name, as_text(known[name]["source"]), text, False, where, where))
    with _WRITING, workspace.lock:
        game_id = uid.split("/", 1)[0]
        cards = workspace.cards[game_id]
        found = languages.translations(game_id)
        folder = workspace.project.games[game_id].cards
        merged = merge(workspace.project, cards, found.book, lang, found.fields, incoming, folder)
        problems = [workspace._problem(p) for p in merged.problems]
        errors = [p for p in merged.problems if p.is_error]
        if errors:
            raise EditRefused(400, errors[0].message, workspace._problem(errors[0]))
        for change in merged.files:  # merge asked write_problem; the card editor's own guards too
            if change.path.is_symlink() or not is_inside(change.path, [folder]):
                raise EditRefused(403, f"{change.path.name} is not in the card folder of {game_id}: not written")
        for change in merged.files:
            atomic_write_text(change.path, change.text)
    written = [change.path for change in merged.files]
    files = [str(p.resolve().relative_to(workspace.root)) for p in written]
    return {"files": files, "problems": problems}, written


# -- routes -----------------------------------------------------------------------------------------------------------


def _languages(request: Request) -> Languages:
    languages: Languages = request.app.state.server.languages
    return languages


async def translation(request: Request) -> Response:
    """GET /api/translation?uid=...&lang=...: :func:`card_translation`."""
    langs = _languages(request)
    uid, lang = request.query_params.get("uid") or "", request.query_params.get("lang") or ""
    found = await asyncio.to_thread(card_translation, langs.workspace, langs, uid, lang)
    if isinstance(found, str):
        return JSONResponse({"error": found, "problems": []}, status_code=404)
    return JSONResponse(found, headers={"cache-control": "no-store"})


async def translation_save(request: Request) -> Response:
    """POST /api/translation/save: :func:`save_translation`, then the workspace refreshed; the translation as now."""
    from printer.serve.edits import EditRefused

    server = request.app.state.server
    langs = _languages(request)
    body = await json_body(request, langs.workspace.project.limits.request_bytes)
    try:
        result, written = await asyncio.to_thread(save_translation, langs.workspace, langs, body)
    except EditRefused as exc:
        return JSONResponse({"error": str(exc), "problems": [exc.problem] if exc.problem else []}, exc.status)
    if written:
        await server.apply(written)
    now = await asyncio.to_thread(card_translation, langs.workspace, langs, body["uid"], body["lang"])
    result["translation"] = now if isinstance(now, dict) else None
    return JSONResponse(result)


ROUTES = [
    Route("/api/translation", translation),
    Route("/api/translation/save", translation_save, methods=["POST"]),
]
