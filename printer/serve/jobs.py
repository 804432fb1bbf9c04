"""The longer jobs of the preview server: deck checks, proxies, card sheets and exports, rules references.

Each is one call of :mod:`printer.api` (the same as the command line:
``printer deck check``, ``printer build --deck``, ``printer build
--export``, ``printer rules``), run in a thread, one build at a time (each
uses both cores). A pasted decklist is kept under
``build/.cache/serve/decks/`` by the hash of its text, so that its
problems name it as ``<name>:<line>`` (the last :data:`KEPT_DECKLISTS` used are kept). Built files are served from the
project's ``build/`` folder only (:func:`build_file`); PDF pages are shown
as PNG pictures (pypdfium2), cached by the PDF's size and time.
"""

from __future__ import annotations

import asyncio
import hashlib
import io
import itertools
import logging
import os
import re
import shutil
import threading
import time
import zipfile
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, PlainTextResponse, Response
from starlette.routing import Route

from printer import api
from printer.book.source import rules_folder
from printer.fsutil import atomic_write_bytes, atomic_write_text
from printer.limits import Limits
from printer.paths import check_output_folder, is_inside, output_folder_problem, output_path, safe_file_name
from printer.problems import PrinterError
from printer.serve.security import json_body

if TYPE_CHECKING:
    from printer.project import Project
    from printer.serve.app import Server
    from printer.serve.workspace import Workspace

log = logging.getLogger("printer.serve")
#: resolution of the PDF page pictures, pixels per inch
PAGE_DPI = 60
EXPORTS = ("png", "tts", "print-shop")
#: pasted decklists kept under ``build/.cache/serve/decks`` (for their proxies); the least recently used go first
KEPT_DECKLISTS = 32


def _serve_cache(project: Project) -> Path:
    return project.build_dir / ".cache" / "serve"


def deck_file(project: Project, text: str, name: str) -> Path:
    """Write a pasted decklist under the serve cache (by its hash) keeping its file name; returns the file."""
    digest = hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]
    clean = safe_file_name(Path(name or "decklist.txt").name) or "decklist.txt"
    from printer.plugins import decklist_suffixes

    if Path(clean).suffix.lower() not in {".txt", ".json", *decklist_suffixes()}:  # and the games' own formats
        clean += ".txt"
    folder = check_output_folder(output_path(_serve_cache(project) / "decks", digest), project.root)
    target = output_path(folder, clean)
    if not target.is_file():
        atomic_write_text(target, text)
    os.utime(folder)  # used now: the least recently used decklists are removed first
    _forget_decklists(folder.parent, keep=folder)
    return target


def _forget_decklists(decks: Path, keep: Path) -> None:
    """Remove the least recently used decklist folders under ``decks`` beyond :data:`KEPT_DECKLISTS` (never
    ``keep``, the one in use)."""
    try:
        folders = [(p.stat().st_mtime_ns, p) for p in decks.iterdir() if p.is_dir() and not p.is_symlink()]
    except OSError:
        return
    folders.sort(reverse=True)
    for _, folder in folders[KEPT_DECKLISTS:]:
        if folder != keep:
            shutil.rmtree(folder, ignore_errors=True)


def _located(data: object, prefix: str, name: str) -> object:
    """``data`` with the decklist's cache path replaced by its name in every string."""
    if isinstance(data, str):
        return data.replace(prefix, name)
    if isinstance(data, list):
        return [_located(v, prefix, name) for v in data]
    if isinstance(data, dict):
        return {k: _located(v, prefix, name) for k, v in data.items()}
    return data


def check_deck(workspace: Workspace, text: str, name: str, format_id: str) -> dict[str, Any]:
    """``printer deck check`` on pasted text: the report (``printer deck check --json``'s shape) plus the
    problems in the CLI's three groups, the summary lines and each resolved card's picture key."""
    project = workspace.project
    known = api_formats(project)
    if format_id not in known:
        return {"error": f"unknown format {format_id!r}", "formats": sorted(known)}
    try:
        path = deck_file(project, text, name)
    except PrinterError as exc:  # the cache folder is reached through a symbolic link: the decklist is not kept there
        return {"error": str(exc), "problems": [p.as_dict() for p in exc.problems]}
    shown = Path(name).name or path.name
    try:
        (result,) = api.check_decks(project, [path], format_id)
    except PrinterError as exc:
        problems = [p.as_dict() for p in exc.problems]
        return cast("dict[str, Any]", _located({"error": str(exc), "problems": problems}, str(path), shown))
    report = result.report
    body = report.as_dict()
    body["groups"] = [
        {"title": "rules broken", "problems": [v.problem(report.deck).as_dict() for v in report.violations]},
        {"title": "cards not found in the card data", "problems": [p.as_dict() for p in report.unresolved]},
        {"title": "warnings", "problems": [p.as_dict() for p in report.warnings]},
    ]
    if not result.readable:
        body["groups"].insert(0, {"title": "cannot be read", "problems": [p.as_dict() for p in result.read_problems]})
    body["summary"] = report.summary_lines()
    body["card_problems"] = len(result.card_problems)
    body["token"] = path.parent.name
    body["game"] = report.format.game
    with workspace.lock:
        for row in body["cards"]:
            entry = workspace.entries.get(f"{report.format.game}/{row['card']['id']}") if row["card"] else None
            row["front"] = entry.front if entry else None
            row["piece"] = entry.piece if entry else None  # a component's piece: cropped at its own trim size
            row["uid"] = entry.uid if entry else None
    return cast("dict[str, Any]", _located(body, str(path), shown))


def api_formats(project: Project) -> dict[str, dict[str, Any]]:
    """The formats of the project's games: ``{id: {"id", "name", "game"}}``."""
    from printer.decks import available_formats, load_format

    out = {}
    for format_id, file in sorted(available_formats([project.root]).items()):
        try:
            fmt = load_format(file, [project.root])
        except PrinterError:
            continue
        if fmt.game in project.games:
            out[format_id] = {"id": format_id, "name": fmt.name, "game": fmt.game}
    return out


def build_file(project: Project, relative: str) -> Path | None:
    """A file or folder of the project's ``build/`` named by ``relative``, or ``None`` (outside, missing, or reached
    through a symbolic link: ``build`` itself, a folder in it or the file, :func:`printer.paths.output_folder_problem`
    from the project's root, so that its real path is inside the real project)."""
    if not relative or "\0" in relative or Path(relative).is_absolute() or ".." in Path(relative).parts:
        return None
    path = project.build_dir / relative
    if not path.exists() or output_folder_problem(path, project.root) is not None:
        return None
    return path


class PageTooLarge(Exception):
    """A page whose picture would be over :data:`~printer.serve.pictures.PICTURE_PIXELS`; the message says why."""


def page_picture(project: Project, pdf: Path, page: int, dpi: int = PAGE_DPI) -> Path:
    """A PNG of page ``page`` (1-based) of ``pdf``, cached by the PDF's size and time.

    The page's size (pt) is read first: a picture over :data:`~printer.serve.pictures.PICTURE_PIXELS` at ``dpi`` raises
    :class:`PageTooLarge` before anything is drawn. Raises ``IndexError`` for a page the PDF does not have.
    """
    import pypdfium2

    from printer.serve.pictures import over_budget

    st = pdf.stat()
    key = hashlib.sha256(f"{pdf.resolve()}:{st.st_size}:{st.st_mtime_ns}:{page}:{dpi}".encode()).hexdigest()[:40]
    target = output_path(check_output_folder(_serve_cache(project) / "pages", project.root), f"{key}.png")
    if target.is_file():
        return target
    from printer.sheets.export.faces import PDFIUM

    with PDFIUM:  # the server renders page pictures in several threads: PDFium takes one at a time
        document = pypdfium2.PdfDocument(str(pdf))
        try:
            if not 1 <= page <= len(document):
                raise IndexError(page)
            sheet = document[page - 1]
            width, height = sheet.get_size()  # points, as it is drawn (the crop box)
            huge = over_budget(width * dpi / 72, height * dpi / 72, f"page {page} ({width:,.0f} x {height:,.0f} pt)")
            if huge is not None:
                raise PageTooLarge(huge)
            image = sheet.render(scale=dpi / 72, fill_color=(255, 255, 255, 255)).to_pil()
        finally:
            document.close()
    buffer = io.BytesIO()
    image.convert("RGB").save(buffer, "PNG")
    atomic_write_bytes(target, buffer.getvalue())
    return target


def _pdf_pages(pdf: Path) -> int:
    from pypdf import PdfReader

    return len(PdfReader(pdf).pages)


class Jobs:
    """Builds started from the pages: their state, one running at a time, and rules rebuilt on save."""

    def __init__(self, server: Server) -> None:
        self.server = server
        self.builds: dict[str, dict[str, Any]] = {}
        self.lock = threading.Lock()
        self.ids = itertools.count(1)
        self.rules_games: set[str] = set()  # games whose rules page was opened: rebuilt when a chapter changes
        self.tasks: set[asyncio.Task[None]] = set()

    @property
    def project(self) -> Project:
        return self.server.workspace.project

    def start(self, kind: str, game: str, run: Callable[[], dict[str, Any]], label: str) -> dict[str, Any]:
        job_id = str(next(self.ids))
        job: dict[str, object] = {"id": job_id, "kind": kind, "game": game, "label": label, "status": "queued"}
        self.builds[job_id] = job
        old = [k for k, v in self.builds.items() if v["kind"] == kind and v["game"] == game and k != job_id]
        for k in old[:-4]:
            self.builds.pop(k, None)

        def work() -> None:
            with self.lock:
                job["status"] = "running"
                started = time.perf_counter()
                try:
                    job.update(run())
                    job["status"] = job.get("status_after", "done")
                except PrinterError as exc:
                    job.update(status="failed", error=str(exc), problems=[p.as_dict() for p in exc.problems])
                except Exception as exc:  # logged in the terminal; the page says it failed
                    log.exception("%s failed", label)
                    job.update(status="failed", error=f"{type(exc).__name__}: {exc}")
                job["seconds"] = round(time.perf_counter() - started, 1)

        async def go() -> None:
            self.server.hub.publish("build", {"job": job})
            await asyncio.to_thread(work)
            self.server.hub.publish("build", {"job": _relative(job, self.project.root)})

        task = asyncio.create_task(go())
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)
        return job

    def close(self) -> None:
        for task in self.tasks:
            task.cancel()

    # -- the jobs ---------------------------------------------------------------------------------------------------

    def sheets(self, game: str, exports: list[str]) -> dict[str, Any]:
        project = self.project

        def run() -> dict[str, Any]:
            request = api.BuildRequest(games=(game,), exports=tuple(exports))
            result = api.build(project, request, runtime=_runtime())
            outcome = result.games[0]
            out: dict[str, object] = {"problems": [p.as_dict() for p in outcome.problems]}
            if outcome.failure:
                out.update(status_after="failed", error=outcome.failure)
                return out
            assert outcome.target is not None  # no failure: the PDF was printed
            out["pdf"] = str(outcome.target.relative_to(project.build_dir))
            out["pages"] = _pdf_pages(outcome.target)
            out["outputs"] = [str(p.relative_to(project.build_dir)) for p in outcome.paths]
            summary = [f"{outcome.cards} cards on {outcome.sheets} sheets ({outcome.grid}, {outcome.backs})"]
            out["summary"] = summary + outcome.exports
            return out

        return self.start("sheets", game, run, f"{game}: sheets" + "".join(f" + {e}" for e in exports))

    def proxies(self, game: str, deck: Path) -> dict[str, Any]:
        project = self.project

        def run() -> dict[str, Any]:
            request = api.BuildRequest(games=(game,), deck_file=deck)
            outcome = api.build(project, request, runtime=_runtime()).games[0]
            out = {"problems": [p.as_dict() for p in outcome.problems]}
            if outcome.failure:
                return {**out, "status_after": "failed", "error": outcome.failure}
            assert outcome.target is not None  # no failure: the PDF was printed
            return {
                **out,
                "pdf": str(outcome.target.relative_to(project.build_dir)),
                "pages": _pdf_pages(outcome.target),
            }

        return self.start("proxies", game, run, f"{game}: proxies of {deck.name}")

    def rules(self, game: str) -> dict[str, Any]:
        project = self.project
        self.rules_games.add(game)

        def run() -> dict[str, Any]:
            books = api.build_rules(project, game)
            out: dict[str, Any] = {"books": []}
            for book in books:
                item: dict[str, object] = {
                    "edition": book.edition or "main",
                    "problems": [p.as_dict() for p in book.problems],
                }
                if book.target is not None:
                    item.update(pdf=str(book.target.relative_to(project.build_dir)), pages=book.pages)
                out["books"].append(item)
            if not any("pdf" in b for b in out["books"]):
                out.update(status_after="failed", error="no rules reference was printed")
            return out

        return self.start("rules", game, run, f"{game}: rules reference")

    def rules_changed(self, paths: Sequence[Path] = (), reloaded: bool = False) -> list[str]:
        """Rebuild the rules reference of each game with a chapter (or rules.toml, aid, picture) among ``paths``,
        whether or not its rules page was opened; after a reload of the project, of every game whose rules
        were built in this session too. Returns the games rebuilt."""
        project = self.project
        games = {
            game.id
            for game in project.games.values()
            if any(is_inside(Path(p), [rules_folder(project, game)]) for p in paths)
        }
        if reloaded:
            games |= {g for g in self.rules_games if g in project.games}
        for game in sorted(games):
            self.rules(game)
        return sorted(games)


def _relative(job: dict[str, Any], root: Path) -> dict[str, Any]:
    return cast("dict[str, Any]", _located(job, str(root) + "/", ""))


def _jobs(request: Request) -> Jobs:
    server: Server = request.app.state.server
    return server.jobs


def _limits(request: Request) -> Limits:
    server: Server = request.app.state.server
    return server.workspace.project.limits


async def _json(request: Request) -> dict[str, Any]:
    return await json_body(request, _limits(request).request_bytes)


async def formats(request: Request) -> Response:
    project = _jobs(request).project
    found = await asyncio.to_thread(api_formats, project)  # reads every format file: never on the event loop
    return JSONResponse({"formats": list(found.values())})


async def deck_check(request: Request) -> Response:
    body = await _json(request)
    text, name, format_id = body.get("text"), body.get("name") or "decklist.txt", body.get("format")
    if not isinstance(text, str) or not text.strip():
        return JSONResponse({"error": "paste or upload a decklist"}, status_code=400)
    limits = _limits(request)
    if len(text) > limits.decklist_chars:
        return JSONResponse(
            {"error": f"a decklist is at most {limits.decklist_chars:,} characters (limits.decklist_chars)"},
            status_code=413,
        )
    lines = text.count("\n") + 1
    if lines > limits.decklist_lines:
        message = f"a decklist is at most {limits.decklist_lines:,} lines, this one has {lines:,}"
        return JSONResponse({"error": f"{message} (limits.decklist_lines)"}, status_code=413)
    if not isinstance(name, str) or not isinstance(format_id, str):
        return JSONResponse({"error": "choose a format"}, status_code=400)
    server = request.app.state.server
    result = await asyncio.to_thread(check_deck, server.workspace, text, name, format_id)
    return JSONResponse(result, status_code=400 if "error" in result and "status" not in result else 200)


async def deck_proxies(request: Request) -> Response:
    body = await _json(request)
    jobs = _jobs(request)
    token, game = body.get("token"), body.get("game")
    if (
        not isinstance(token, str)
        or not re.fullmatch(r"[0-9a-f]{16}", token)
        or not isinstance(game, str)
        or game not in jobs.project.games
    ):
        return JSONResponse({"error": "check the deck first"}, status_code=400)
    folder = _serve_cache(jobs.project) / "decks" / token
    safe = folder.is_dir() and output_folder_problem(folder, jobs.project.root) is None
    files = sorted(f for f in folder.glob("*") if not f.is_symlink()) if safe else []
    if not files:
        return JSONResponse({"error": "check the deck first"}, status_code=400)
    os.utime(folder)  # used again: kept longer
    return JSONResponse({"job": jobs.proxies(game, files[0])})


async def sheets_build(request: Request) -> Response:
    body = await _json(request)
    jobs = _jobs(request)
    game, exports = body.get("game"), body.get("exports") or []
    if not isinstance(game, str) or game not in jobs.project.games:
        return JSONResponse({"error": f"no game {game!r}"}, status_code=400)
    if not isinstance(exports, list) or any(e not in EXPORTS for e in exports):
        return JSONResponse({"error": "exports are " + ", ".join(EXPORTS)}, status_code=400)
    return JSONResponse({"job": jobs.sheets(game, list(dict.fromkeys(exports)))})


async def rules_build(request: Request) -> Response:
    body = await _json(request)
    jobs = _jobs(request)
    game = body.get("game")
    if not isinstance(game, str) or game not in jobs.project.games:
        return JSONResponse({"error": f"no game {game!r}"}, status_code=400)
    return JSONResponse({"job": jobs.rules(game)})


async def builds(request: Request) -> Response:
    jobs = _jobs(request)
    items = [_relative(dict(j), jobs.project.root) for j in jobs.builds.values()]
    outputs = []
    build = jobs.project.build_dir
    if build.is_dir() and not build.is_symlink():
        for path in sorted(build.iterdir()):
            if path.name.startswith(".") or path.is_symlink():
                continue
            outputs.append({"name": path.name, "folder": path.is_dir()})
    return JSONResponse({"builds": items, "outputs": outputs}, headers={"cache-control": "no-store"})


#: the types a file of build/ is served as (a download: ``Content-Disposition: attachment``); any other type (HTML,
#: JavaScript, SVG, XML...) as ``application/octet-stream``, so that nothing of build/ runs in the server's origin
DOWNLOAD_TYPES = {
    ".pdf": "application/pdf",
    ".png": "image/png",
    ".jpg": "image/jpeg",
    ".jpeg": "image/jpeg",
    ".zip": "application/zip",
    ".json": "application/json",
    ".txt": "text/plain; charset=utf-8",
    ".csv": "text/plain; charset=utf-8",
}
#: the policy of a file of build/: nothing it holds may run or load anything
SANDBOX = "default-src 'none'; sandbox"


def download_type(path: Path) -> str:
    """The ``Content-Type`` a file of ``build/`` is served with (:data:`DOWNLOAD_TYPES`)."""
    return DOWNLOAD_TYPES.get(path.suffix.lower(), "application/octet-stream")


async def download(request: Request) -> Response:
    """A file of ``build/`` as it is, or a folder of it (an export) as a zip."""
    project = _jobs(request).project
    path = build_file(project, request.path_params["path"])
    if path is None:
        return PlainTextResponse("not found", 404)
    if path.is_file():
        return FileResponse(
            path, filename=path.name, media_type=download_type(path), headers={"content-security-policy": SANDBOX}
        )

    def listed() -> tuple[list[Path], int]:  # a folder of build/ may hold many files: walked off the event loop
        found = [
            p
            for p in sorted(path.rglob("*"))
            if p.is_file() and not p.name.startswith(".") and output_folder_problem(p, project.root) is None
        ]
        return found, sum(p.stat().st_size for p in found)

    files, size = await asyncio.to_thread(listed)
    limit = _limits(request).download_bytes
    if size > limit:
        return PlainTextResponse(
            f"the folder is over {limit:,} bytes (limits.download_bytes): take it from build/", 413
        )

    def pack() -> bytes:
        buffer = io.BytesIO()
        with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
            for p in files:
                archive.write(p, str(p.relative_to(path.parent)))
        return buffer.getvalue()

    data = await asyncio.to_thread(pack)
    name = f"{path.name}.zip"
    return Response(
        data,
        media_type="application/zip",
        headers={"content-disposition": f'attachment; filename="{name}"', "content-security-policy": SANDBOX},
    )


_TOO_LARGE_SVG = (
    '<svg xmlns="http://www.w3.org/2000/svg" width="420" height="300" viewBox="0 0 420 300">'
    '<rect width="420" height="300" fill="#fdecea"/><text x="20" y="44" font-family="sans-serif" font-size="20" '
    'fill="#8a1c12">Page too large to show</text><foreignObject x="20" y="64" width="380" height="220">'
    '<div xmlns="http://www.w3.org/1999/xhtml" style="font:15px sans-serif;color:#5a1a12">{}</div>'
    "</foreignObject></svg>"
)


async def page(request: Request) -> Response:
    """A picture of a page of a PDF in ``build/`` (``?page=N``); 413 with the sizes for one over the pixel budget
    (as an SVG picture saying so when an ``<img>`` asks)."""
    project = _jobs(request).project
    path = build_file(project, request.path_params["path"])
    try:
        number = int(request.query_params.get("page", "1"))
    except ValueError:
        number = 0
    if path is None or not path.is_file() or path.suffix.lower() != ".pdf" or number < 1:
        return PlainTextResponse("not found", 404)
    import pypdfium2

    try:
        picture = await asyncio.to_thread(page_picture, project, path, number)
    except IndexError:
        return PlainTextResponse("no such page", 404)
    except pypdfium2.PdfiumError as exc:  # a damaged PDF in build/ (a project may ship anything there)
        return PlainTextResponse(f"{path.name} cannot be read as a PDF: {exc}", 422)
    except PageTooLarge as exc:
        if request.headers.get("accept", "").startswith("image/"):  # an <img> of a page: the message as its picture
            from markupsafe import escape

            return Response(
                _TOO_LARGE_SVG.format(escape(str(exc))),
                413,
                media_type="image/svg+xml",
                headers={"content-security-policy": "default-src 'none'; style-src 'unsafe-inline'"},
            )
        return PlainTextResponse(str(exc), 413)
    except PrinterError as exc:  # the pictures' folder is reached through a symbolic link: nothing is written there
        return PlainTextResponse(str(exc), 403)
    return FileResponse(picture, media_type="image/png", headers={"cache-control": "no-cache"})


ROUTES = [
    Route("/api/formats", formats),
    Route("/api/deck/check", deck_check, methods=["POST"]),
    Route("/api/deck/proxies", deck_proxies, methods=["POST"]),
    Route("/api/sheets/build", sheets_build, methods=["POST"]),
    Route("/api/rules/build", rules_build, methods=["POST"]),
    Route("/api/builds", builds),
    Route("/file/{path:path}", download),
    Route("/page/{path:path}", page),
]


def _runtime() -> api.Runtime:
    """A server's build's runtime: the server's process lays a few faces out itself, and starts a pool only for
    batches worth sharing out (no pool started at once)."""
    return api.Runtime(warm_pool=False)
