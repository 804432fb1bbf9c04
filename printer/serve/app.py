"""The Starlette application of ``printer serve``: pages, a JSON API, card pictures and an event stream.

Pages (plain HTML, CSS and JavaScript shipped in ``printer/serve/static``
and ``templates``; no CDN, works offline): ``/`` the gallery with the
problems panel, ``/edit`` the card editor, ``/decks``, ``/sheets``,
``/rules``. The JSON API under ``/api/`` is what the pages call; state
changes are POST requests guarded by :mod:`printer.serve.security`.
``/face/<key>.png`` is a card picture (:mod:`printer.serve.pictures`),
``/api/events`` the server-sent event stream that tells the pages what
changed: ``cards`` (entries changed or removed), ``problems``, ``rules``,
``build``.

Files are watched (:class:`printer.watching.Changes`: the project's real
folders, never through a link) from the app's lifespan (a short debounce); a change refreshes the :class:`~printer.serve.workspace.Workspace`
in a thread, the faces of changed cards are rendered at once (most urgent
first) and the change is pushed to every open page.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
import threading
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

import jinja2
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.requests import Request
from starlette.responses import FileResponse, HTMLResponse, JSONResponse, PlainTextResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from printer.paths import is_inside
from printer.problems import PrinterError
from printer.serve import security
from printer.serve.gallery import GalleryChanges
from printer.serve.langs import Languages
from printer.serve.pictures import AHEAD, KEY, URGENT, WANTED, FaceRenderer, RenderFailed, make_executor
from printer.serve.workspace import Workspace

log = logging.getLogger("printer.serve")
HERE = Path(__file__).resolve().parent
#: the largest request body accepted (a card, a decklist), bytes
#: how long the watcher waits for more changes before acting, milliseconds (a save is seen 1-2 of these after it)
DEBOUNCE_MS = 5
#: pictures rendered ahead after one the page asks for (the next cards in the gallery), batched with it
PREFETCH = 6


@dataclass
class ServeConfig:
    """How the server runs: bound ``host`` and ``port``, render ``workers`` (0: a thread, for tests), and the
    run's access ``token`` (random unless given; the address ``printer serve`` prints carries it)."""

    host: str = "127.0.0.1"
    port: int = 8000
    workers: int = 2
    watch: bool = True
    token: str = field(default_factory=lambda: secrets.token_urlsafe(32))


class Hub:
    """The open event streams; :meth:`publish` sends one event to each."""

    def __init__(self) -> None:
        self.queues: set[asyncio.Queue[tuple[str, str]]] = set()

    def publish(self, event: str, data: dict[str, Any]) -> None:
        text = json.dumps(data, ensure_ascii=False)
        for queue in list(self.queues):
            try:
                queue.put_nowait((event, text))
            except asyncio.QueueFull:  # a page that stopped reading: it reloads its state when it comes back
                self.queues.discard(queue)

    async def stream(self) -> AsyncIterator[dict[str, Any]]:
        queue: asyncio.Queue[tuple[str, str]] = asyncio.Queue(maxsize=500)
        self.queues.add(queue)
        try:
            yield {"event": "hello", "data": "{}"}
            while True:
                event, text = await queue.get()
                yield {"event": event, "data": text}
        finally:
            self.queues.discard(queue)


class Server:
    """The app's state: the workspace, the face renderer, the event hub and the pages' templates."""

    def __init__(self, workspace: Workspace, config: ServeConfig, sessions: security.Sessions):
        self.workspace = workspace
        self.config = config
        self.hub = Hub()
        self.sessions = sessions
        pools = make_executor(config.workers)
        self.executor, self.urgent = pools.executor, pools.urgent
        self.faces = FaceRenderer(
            workspace.project,
            self.executor,
            pools.slots,
            workspace.face,
            urgent=self.urgent,
            gallery_pids=pools.gallery_pids,
        )
        self.pages = jinja2.Environment(
            loader=jinja2.FileSystemLoader(str(HERE / "templates")), autoescape=True, undefined=jinja2.StrictUndefined
        )
        self.watch_task: asyncio.Task[None] | None = None
        self.stopping = asyncio.Event()
        self.last_change: dict[str, Any] = {}
        from printer.serve.jobs import Jobs
        from printer.serve.langs import Languages

        self.jobs = Jobs(self)
        self.languages = Languages(workspace)

    def warm_up(self) -> None:
        """Lay out a few faces of each game in the urgent process, so that the first save is as quick as the next,
        and one face in each gallery process, so that a gallery opened after the start finds its processes
        started, WeasyPrint imported and the project read (a second or two per process, more under load)."""
        if self.urgent is None:
            return
        from printer.serve.pictures import prepare

        loop = asyncio.get_running_loop()
        first = next((e for e in self.workspace.entries_of() if e.front), None)
        spec = self.workspace.face(first.front) if first is not None and first.front else None
        if spec is not None:
            root = str(self.workspace.root)
            for _ in range(self.config.workers):
                warm = partial(prepare, root, spec.game, spec.fingerprint, spec.html, component=spec.component)
                task = loop.run_in_executor(self.executor, warm)
                task.add_done_callback(lambda t: t.cancelled() or t.exception())
        seen: dict[str, set[str]] = {}
        for entry in self.workspace.entries_of():
            types = seen.setdefault(entry.game, set())
            spec = (
                self.workspace.face(entry.front) if entry.front and len(types) < 3 and entry.type not in types else None
            )
            if spec is not None:  # a few card types of each game: their fonts and styles are loaded once
                types.add(entry.type)
                root = str(self.workspace.root)
                warm = partial(prepare, root, spec.game, spec.fingerprint, spec.html, component=spec.component)
                task = loop.run_in_executor(self.urgent, warm)
                task.add_done_callback(lambda t: t.cancelled() or t.exception())

    # -- changes --------------------------------------------------------------------------------------------------

    async def apply(self, paths: list[Path]) -> GalleryChanges:
        """Refresh the workspace after ``paths`` changed, render the changed faces first, tell the pages."""
        started = time.perf_counter()
        timeline = {"event": time.time()}  # wall-clock times of the steps, for bench/serve_latency.py
        kinds = self.workspace.classify(paths)
        self.faces.ahead(await asyncio.to_thread(self.workspace.first_faces, paths), URGENT)
        timeline["queued"] = time.time()
        try:
            changes = await asyncio.to_thread(self.workspace.refresh, paths)
        except PrinterError as exc:  # printer.toml or a schema that cannot be read: say so, keep showing the cards
            problems = [self.workspace._problem(p) for p in exc.problems] or [{"where": "project", "message": str(exc)}]
            for problem in problems:
                problem.setdefault("severity", "error")
            self.hub.publish("problems", {"version": self.workspace.version, "problems": problems})
            log.error("%s", exc)
            return GalleryChanges()
        if changes.reloaded:
            self.faces.project = self.workspace.project
        urgent = [k for e in changes.changed for k in (e.front, e.back) if k]
        self.faces.ahead(urgent, URGENT)
        timeline["refreshed"] = time.time()
        if changes.changed or changes.removed or changes.reloaded:
            self.hub.publish(
                "cards",
                {
                    "version": changes.version,
                    "changed": [e.as_dict() for e in changes.changed],
                    "removed": changes.removed,
                    "reloaded": changes.reloaded,
                },
            )
        if "cards" in kinds:  # an overlay file (a translation) may have changed: pages in another language ask again
            self.hub.publish("translations", {"version": changes.version})
        if changes.problems or changes.reloaded:
            problems = await asyncio.to_thread(self.workspace.problem_dicts)
            self.hub.publish("problems", {"version": changes.version, "problems": problems})
        if "rules" in kinds or changes.reloaded:
            self.jobs.rules_changed(paths, changes.reloaded)
        timeline["published"] = time.time()
        self.last_change = {
            "seconds": time.perf_counter() - started,
            "changed": len(changes.changed),
            "timeline": timeline,
        }
        log.info(
            "%d file(s) changed: %d card(s) updated, %d removed (%.0f ms)",
            len(paths),
            len(changes.changed),
            len(changes.removed),
            1000 * self.last_change["seconds"],
        )
        return changes

    def watched(self) -> list[Path]:
        """The folders and files watched: printer.toml, schema/, templates/, rules/, art/ and each card folder, those
        whose real path is in the project (or a folder it may read); :mod:`printer.watching` then watches the real
        folders under them, never through a symbolic link."""
        root = self.workspace.root
        project = self.workspace.project
        paths = [root / "printer.toml", root / "schema", root / "templates", root / "rules", root / "art"]
        paths += [g.cards for g in project.games.values()]
        paths += [d for g in project.games.values() for d in g.template_dirs if d.is_relative_to(root)]
        inside = [root, *project.read_also]
        found = [p.resolve() for p in paths if p.exists() and is_inside(p, inside)]
        return [p for p in dict.fromkeys(found) if not any(p != q and p.is_relative_to(q) for q in found)]

    async def watch(self) -> None:
        """Apply each group of changed files (:meth:`apply`) until the server stops; watch anew when a reloaded
        printer.toml changes what is watched."""
        from printer.watching import Changes

        def wanted(path: str) -> bool:
            name = Path(path).name
            return not (name.startswith((".", "~$")) or name.endswith(("~", ".tmp", ".swp")) or "/build/" in path)

        halt = threading.Event()  # ends the thread waiting for changes when the server stops
        try:
            while not self.stopping.is_set():
                paths = self.watched()
                changes = Changes(paths, wanted, debounce_ms=1600, step_ms=DEBOUNCE_MS)
                changes.__enter__()  # left in a thread below: leaving waits for the watching thread
                try:
                    await asyncio.to_thread(changes.wait_ready)
                    while True:
                        found = await asyncio.to_thread(changes.wait, None, halt)
                        if not found:
                            return
                        try:
                            applied = await self.apply([Path(p) for p in sorted(found)])
                        except Exception:  # never let a bad file stop the watcher
                            log.exception("refreshing after a change failed")
                            continue
                        if applied.reloaded and self.watched() != paths:
                            break
                finally:
                    if self.stopping.is_set():
                        halt.set()
                    await asyncio.to_thread(changes.__exit__, None, None, None)
        finally:
            halt.set()


def _watch_ended(task: asyncio.Task[None]) -> None:
    if not task.cancelled() and task.exception() is not None:
        log.error("watching the project stopped: %s", task.exception(), exc_info=task.exception())


def _json_error(status: int, message: str, problems: list[dict[str, Any]] | None = None) -> JSONResponse:
    return JSONResponse({"error": message, "problems": problems or []}, status_code=status)


async def _body(request: Request) -> dict[str, Any]:
    return await security.json_body(request, _server(request).workspace.project.limits.request_bytes)


def _server(request: Request) -> Server:
    server: Server = request.app.state.server
    return server


# -- pages ------------------------------------------------------------------------------------------------------------


def _page(name: str, title: str) -> Callable[[Request], Awaitable[Response]]:
    async def page(request: Request) -> Response:
        server = _server(request)
        session = request.scope.get("state", {}).get("session") or ""
        project = server.workspace.project
        html = server.pages.get_template(name).render(
            title=title,
            page=name.split(".")[0],
            csrf=server.sessions.token(session) if session else "",
            project=project.root.name,
            games=[(g.id, g.name) for g in project.games.values()],
            languages=server.languages.all(),
        )
        return HTMLResponse(html, headers={"cache-control": "no-store"})

    return page


# -- state and pictures -----------------------------------------------------------------------------------------------


def _games(workspace: Workspace) -> list[dict[str, Any]]:
    """Each game's id, name and geometry: its card's trim size, bleed and safe area (mm), and each component's trim
    size by name (``pieces``: an entry's ``piece`` shows at that size)."""
    out = []
    for game in workspace.project.games.values():
        pieces: dict[str, list[float]] = {}
        try:
            state = workspace._game(game.id)
            opts = state.job.opts
            size, bleed, safe = list(opts.card), opts.bleed, opts.safe
            pieces = {c.name: list(c.size) for c in state.components}
        except Exception as exc:  # a game whose templates or options are broken still lists its cards
            log.warning("%s: %s", game.id, exc)
            size, bleed, safe = [63.0, 88.0], 3.0, 3.0
        out.append({"id": game.id, "name": game.name, "card": size, "bleed": bleed, "safe": safe, "pieces": pieces})
    return out


def _state_body(workspace: Workspace, languages: Languages | None = None, lang: str | None = None) -> dict[str, Any]:
    """The gallery's whole state, its cards in ``lang`` when given (run in a thread: it waits for the workspace's
    lock)."""
    with workspace.lock:
        body = {
            "version": workspace.version,
            "root": workspace.root.name,
            "games": _games(workspace),
            "entries": languages.entries(lang)
            if languages is not None and lang
            else [e.as_dict() for e in workspace.entries.values()],
        }
        if languages is not None:
            body["languages"] = {game: list(languages.of(game)) for game in workspace.project.games}
    body["problems"] = workspace.problem_dicts()
    return body


async def state(request: Request) -> Response:
    server = _server(request)
    lang = request.query_params.get("lang") or None
    body = await asyncio.to_thread(_state_body, server.workspace, server.languages, lang)
    return JSONResponse(body, headers={"cache-control": "no-store"})


async def stats(request: Request) -> Response:
    """What the server has done: pictures rendered, the last refresh (for the benchmark and tests)."""
    server = _server(request)
    body = {
        "rendered": server.faces.rendered,
        "last_change": server.last_change,
        "last_urgent_render": server.faces.last_urgent,
        "last_urgent_times": server.faces.last_urgent_times,
        "version": server.workspace.version,
    }
    return JSONResponse(body, headers={"cache-control": "no-store"})


async def events(request: Request) -> Response:
    from sse_starlette.sse import EventSourceResponse

    return EventSourceResponse(_server(request).hub.stream(), ping=15, headers={"cache-control": "no-store"})


_FAILED_SVG = (
    '<svg xmlns="http://www.w3.org/2000/svg" width="400" height="560" viewBox="0 0 400 560">'
    '<rect width="400" height="560" fill="#fdecea"/><text x="20" y="60" font-family="sans-serif" font-size="22" '
    'fill="#8a1c12">Cannot render this face</text><foreignObject x="20" y="80" width="360" height="460">'
    '<div xmlns="http://www.w3.org/1999/xhtml" style="font:16px sans-serif;color:#5a1a12">{}</div>'
    "</foreignObject></svg>"
)


async def face(request: Request) -> Response:
    key = request.path_params["key"]
    if not KEY.fullmatch(key):
        return PlainTextResponse("not found", 404)
    server = _server(request)
    if request.query_params.get("ahead") and server.faces.cached(key) is None:
        # the gallery's next cards are likely wanted next: render them in the same batch
        server.faces.ahead(await asyncio.to_thread(server.workspace.following, key, PREFETCH), AHEAD)
    try:
        path = await server.faces.picture(key, WANTED)
    except KeyError:
        return PlainTextResponse("no card has this face", 404)
    except RenderFailed as exc:
        from markupsafe import escape

        return Response(
            _FAILED_SVG.format(escape(str(exc))),
            media_type="image/svg+xml",
            headers={
                "cache-control": "no-store",
                "content-security-policy": "default-src 'none'; style-src 'unsafe-inline'",
            },
        )
    return FileResponse(path, media_type="image/png", headers={"cache-control": "public, max-age=31536000, immutable"})


async def icon(request: Request) -> Response:
    """An icon of a game's template search path, by name (for the editor's palette)."""
    import re

    workspace = _server(request).workspace
    game, name = request.path_params["game"], request.path_params["name"]
    if game not in workspace.project.games or not re.fullmatch(r"[a-z0-9][a-z0-9-]*", name):
        return PlainTextResponse("not found", 404)
    path = await asyncio.to_thread(lambda: workspace._game(game).renderer.find_file(f"icons/{name}.svg"))
    if path is None:
        return PlainTextResponse("not found", 404)
    return FileResponse(
        path,
        media_type="image/svg+xml",
        headers={"content-security-policy": "default-src 'none'; style-src 'unsafe-inline'; sandbox"},
    )


# -- the card editor --------------------------------------------------------------------------------------------------


async def card(request: Request) -> Response:
    workspace = _server(request).workspace
    found = await asyncio.to_thread(
        _card_body, workspace, request.query_params.get("uid"), request.query_params.get("game")
    )
    if isinstance(found, str):
        return _json_error(404, found)
    return JSONResponse(found, headers={"cache-control": "no-store"})


def _card_body(workspace: Workspace, uid: str | None, game_id: str | None) -> dict[str, Any] | str:
    """What the editor shows of card ``uid`` (or a new card of ``game_id``), or why there is none (run in a
    thread: it waits for the workspace's lock)."""
    from printer.serve.edits import digest
    from printer.serve.form import form_fields

    with workspace.lock:
        entry = workspace.entries.get(uid) if uid else None
        if uid and entry is None:
            return f"no card {uid}"
        game_id = entry.game if entry else game_id
        if game_id not in workspace.project.games:
            return f"no game {game_id!r}"
        game = workspace.project.games[game_id]
        data = workspace.data.get(uid, {}) if uid and entry else {"id": "", "title": "", "type": ""}
        renderer = workspace._game(game_id).renderer
        files = sorted(
            {
                e.file
                for e in workspace.entries.values()
                if e.game == game_id and e.editable and not e.uid.endswith("#file")
            }
        )
        return {
            "entry": entry.as_dict() if entry else None,
            "game": game_id,
            "data": data,
            "base": digest(data) if entry else None,
            "form": form_fields(workspace.store, game.schema),
            "icons": renderer.icon_names(),
            "files": files,
            "games": _games(workspace),
        }


async def card_check(request: Request) -> Response:
    from printer.serve.edits import check_card

    body = await _body(request)
    workspace = _server(request).workspace
    try:
        result = await asyncio.to_thread(check_card, workspace, body)
    except LookupError as exc:
        return _json_error(400, str(exc))
    return JSONResponse(result)


async def card_edit(request: Request) -> Response:
    """POST /api/card/{action}: save, new or delete; the file is written atomically, then the workspace refreshed."""
    from printer.serve.edits import EditRefused, edit_card

    server = _server(request)
    body = await _body(request)
    action = request.path_params["action"]
    try:
        result, path = await asyncio.to_thread(edit_card, server.workspace, action, body)
    except EditRefused as exc:
        return _json_error(exc.status, str(exc), [exc.problem] if exc.problem else [])
    await server.apply([path])
    found = await asyncio.to_thread(_uids_at, server.workspace, result["file"], result["pointer"])
    result["uid"] = found[0] if found and action != "delete" else None
    return JSONResponse(result)


def _uids_at(workspace: Workspace, file: str, pointer: str) -> list[str]:
    """The uids of the cards at ``pointer`` in ``file`` (run in a thread: it waits for the workspace's lock)."""
    with workspace.lock:
        return [e.uid for e in workspace.entries.values() if (e.file, e.pointer) == (file, pointer)]


# -- the application --------------------------------------------------------------------------------------------------


async def _http_error(request: Request, exc: Exception) -> Response:
    # Starlette types every handler as taking Exception; this one is registered for HTTPException only
    assert isinstance(exc, HTTPException)
    if request.url.path.startswith("/api/"):
        return _json_error(exc.status_code, str(exc.detail))
    return PlainTextResponse(str(exc.detail), exc.status_code)


async def _server_error(request: Request, exc: Exception) -> Response:
    log.exception("error answering %s %s", request.method, request.url.path, exc_info=exc)
    return PlainTextResponse("internal error: the terminal running printer serve says what went wrong", 500)


def create_app(workspace: Workspace, config: ServeConfig | None = None) -> Starlette:
    """The ASGI app over ``workspace``. The watcher runs in its lifespan when ``config.watch``."""
    config = config or ServeConfig()
    sessions = security.Sessions(config.port, config.token)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        server = Server(workspace, config, sessions)
        app.state.server = server
        server.warm_up()
        if config.watch:
            server.watch_task = asyncio.create_task(server.watch())
            server.watch_task.add_done_callback(_watch_ended)
        try:
            yield
        finally:
            server.stopping.set()
            if server.watch_task is not None:
                server.watch_task.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await server.watch_task
            server.jobs.close()
            server.faces.resume_gallery()  # a stopped process would not see its pool shut down
            for executor in (server.executor, server.urgent):
                if executor is not None:
                    executor.shutdown(wait=False, cancel_futures=True)

    from printer.serve import jobs, langs

    pages = [
        Route("/", _page("gallery.html.j2", "Gallery")),
        Route("/edit", _page("editor.html.j2", "Card editor")),
        Route("/decks", _page("decks.html.j2", "Decks")),
        Route("/sheets", _page("sheets.html.j2", "Sheets and exports")),
        Route("/rules", _page("rules.html.j2", "Rules")),
    ]
    routes = [
        *pages,
        Route("/api/state", state),
        Route("/api/events", events),
        Route("/api/stats", stats),
        Route("/api/card", card),
        Route("/api/card/check", card_check, methods=["POST"]),
        Route("/api/card/{action:str}", card_edit, methods=["POST"]),
        Route("/face/{key:str}.png", face),
        Route("/icon/{game:str}/{name:str}.svg", icon),
        *jobs.ROUTES,
        *langs.ROUTES,
        Mount("/static", StaticFiles(directory=str(HERE / "static")), name="static"),
    ]
    app = Starlette(
        debug=False,
        routes=routes,
        lifespan=lifespan,
        middleware=[
            Middleware(TrustedHostMiddleware, allowed_hosts=security.allowed_hosts(config.host)),
            Middleware(security.Guard, sessions=sessions, port=config.port, pages=frozenset(r.path for r in pages)),
        ],
        exception_handlers={HTTPException: _http_error, Exception: _server_error},
    )
    return app
