"""``printer serve``: a local web app to see every card as it will print, edit it, check decks, updated on save.

The stage's parts: :mod:`.workspace` (the project's cards, faces and
problems, refreshed incrementally), :mod:`.faces` (card pictures rendered
by WeasyPrint in worker processes, cached by content hash), :mod:`.form`
(the editor's form from the game's JSON Schema), :mod:`.edits` (what the
editor may write), :mod:`.jobs` (decks, sheets, rules), :mod:`.security`
(the run's access token, Host, Origin and CSRF checks), :mod:`.connections`
(a connection limit and an idle timeout), :mod:`.app` (the Starlette app). The pages
are plain HTML, CSS and JavaScript in ``templates/`` and ``static/``.

Needs the ``serve`` extra: ``pip install 'printer[serve]'`` (Starlette,
uvicorn, watchfiles, sse-starlette, json-source-map).
"""

from __future__ import annotations

import errno
import logging
import socket
import threading
import webbrowser
from collections.abc import Callable
from pathlib import Path

from printer.problems import WARNING, Problem, UsageError

__all__ = ["bind", "host_problems", "run"]


def host_problems(host: str) -> list[Problem]:
    """Warnings about binding to ``host``: anything but a loopback address opens the server to the network."""
    from printer.serve.security import is_loopback

    if is_loopback(host):
        return []
    return [
        Problem(
            f"--host {host}",
            "the server is reachable from other machines: anyone who can reach this port and has the token of the "
            "printed address can read and edit the project's files, and the token and its cookie cross the network "
            "unencrypted (plain HTTP)",
            "use --host 127.0.0.1 (the default) unless you trust the network and everyone on it",
            WARNING,
            "serve-host",
        )
    ]


def bind(host: str, port: int) -> socket.socket:
    """A listening socket on ``host``:``port`` (port 0: any free port); raises :class:`UsageError` when taken."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
    except OSError as exc:
        sock.close()
        message = f"cannot listen on {host}:{port}: {exc.strerror or exc}"
        if exc.errno in (errno.EADDRINUSE, errno.EACCES):  # the port: taken, or one below 1024
            where, hint = "--port", "pass another --port (or --port 0)"
        else:  # the address: no such name, or not one of this machine's
            where, hint = "--host", "an address of this machine: 127.0.0.1 (the default), ::1, or 0.0.0.0 for all"
        raise UsageError(message, [Problem(where, message, hint, code="usage")]) from None
    sock.listen(128)
    sock.set_inheritable(True)
    return sock


def _quiet_stop(record: logging.LogRecord) -> bool:
    """Ctrl-C with a page open cuts its event stream and the pictures it waits for short: normal, not an error."""
    import asyncio

    message = record.getMessage()
    if "returned without completing response" in message or "timeout graceful shutdown exceeded" in message:
        return False
    return not (
        record.exc_info and record.exc_info[0] is not None and issubclass(record.exc_info[0], asyncio.CancelledError)
    )


def run(
    root: Path,
    host: str = "127.0.0.1",
    port: int = 8000,
    open_browser: bool = False,
    workers: int | None = None,
    on_ready: Callable[[str], None] | None = None,
) -> None:
    """Serve the project at ``root`` until interrupted (Ctrl-C).

    Reads and validates every card first (a :class:`UsageError` when the
    project cannot be read, or when its ``build/`` folder or a folder of the
    pictures' cache under it is a symbolic link), binds ``host``:``port``, then calls
    ``on_ready`` with the address, which carries the run's access token
    (``http://127.0.0.1:8000/?token=...``), and, with ``open_browser``, opens it
    (through a file only the user can read: a browser's command line is
    visible to every user of the machine). ``workers`` render processes
    (default: one per core, at most 4). At most
    :data:`~printer.serve.connections.MAX_CONNECTIONS` connections at once, each closed after
    :data:`~printer.serve.connections.IDLE_SECONDS` without a request.
    """
    try:
        import uvicorn
    except ImportError:
        raise UsageError(
            "printer serve needs its extra packages",
            [
                Problem(
                    "printer serve",
                    "Starlette and uvicorn are not installed",
                    "pip install 'printer[serve]'",
                    code="usage",
                )
            ],
        ) from None
    from printer.serve import connections
    from printer.serve.app import ServeConfig, create_app
    from printer.serve.pictures import check_cache_dir, default_workers
    from printer.serve.workspace import Workspace

    workspace = Workspace(Path(root))
    check_cache_dir(workspace.project)  # build/ (or a folder of its cache) as a link: refused before listening
    sock = bind(host, port)
    actual = sock.getsockname()[1]
    shown = f"[{host}]" if ":" in host else host
    config = ServeConfig(host, actual, default_workers() if workers is None else workers)
    address = f"http://{'127.0.0.1' if host in ('0.0.0.0', '::') else shown}:{actual}/?token={config.token}"
    app = create_app(workspace, config)
    logging.basicConfig(level=logging.INFO, format="%(message)s")
    logging.getLogger("watchfiles").setLevel(logging.WARNING)
    server = uvicorn.Server(
        uvicorn.Config(
            app,
            log_level="warning",
            server_header=False,
            lifespan="on",
            timeout_graceful_shutdown=2,
            http=connections.protocol(),
            limit_concurrency=connections.MAX_CONNECTIONS,
            timeout_keep_alive=connections.IDLE_SECONDS,
        )
    )
    logging.getLogger("uvicorn.error").addFilter(_quiet_stop)

    def ready() -> None:
        while not server.started and not server.should_exit:
            threading.Event().wait(0.05)
        if server.started:
            if on_ready:
                on_ready(address)
            if open_browser:
                opener.append(_open(address))

    opener: list[Path] = []
    threading.Thread(target=ready, daemon=True).start()
    try:
        server.run(sockets=[sock])
    finally:
        sock.close()
        for path in opener:
            path.unlink(missing_ok=True)


def _open(address: str) -> Path:
    """Open ``address`` in the web browser through a page only the user can read (mode 0600) that moves on to it;
    returns that file (removed when the server stops)."""
    import html
    import os
    import tempfile

    fd, name = tempfile.mkstemp(prefix="printer-serve-", suffix=".html")
    with os.fdopen(fd, "w", encoding="utf-8") as out:
        target = html.escape(address, quote=True)
        out.write(
            f'<!doctype html><meta charset="utf-8"><meta http-equiv="refresh" content="0; url={target}">'
            f'<title>printer serve</title><p><a href="{target}">Open printer serve</a></p>'
        )
    path = Path(name)
    webbrowser.open(path.as_uri())
    return path
