"""What keeps the preview server from being used by any other web page the designer has open.

A server on localhost is reachable from every page in the browser. Two
known attacks on development servers show the ways in: a page that makes
its own domain resolve to 127.0.0.1 (DNS rebinding) reads the server as if
it were that page's own (Vite, CVE-2025-24010), and a page that opens the
server's WebSocket or event stream from its own origin reads what it sends
(webpack-dev-server, CVE-2025-30360). A cross-site form or ``fetch`` can
also *write* through a server that does not check who is asking (CSRF).
So:

- the ``Host`` header must name the bound host (:func:`allowed_hosts`,
  checked by Starlette's ``TrustedHostMiddleware``): a rebinding page's
  requests carry its own domain and are refused with 400;
- :class:`Guard` refuses with 403 every state-changing request (any method
  but GET and HEAD), WebSocket and event stream whose ``Origin`` is not
  the server's own (a state change must carry one), and one whose
  ``Sec-Fetch-Site`` says another site sent it;
- every state change must carry the session's CSRF token in the
  ``X-CSRF-Token`` header: an HMAC of the session cookie (``HttpOnly``,
  ``SameSite=Strict``) under a secret made at start, written into each page;
- no response carries CORS headers (no ``Access-Control-Allow-*``), so the
  browser never lets another origin read an answer; every response says
  ``X-Content-Type-Options: nosniff``, ``X-Frame-Options: DENY``, a
  ``Content-Security-Policy`` allowing only the server's own scripts,
  styles and pictures, and ``Referrer-Policy: no-referrer``.

The rules follow the OWASP Cross-Site Request Forgery Prevention Cheat
Sheet (https://cheatsheetseries.owasp.org/cheatsheets/Cross-Site_Request_Forgery_Prevention_Cheat_Sheet.html):
verify the origin with standard headers, and a token per session.
"""

from __future__ import annotations

import hashlib
import hmac
import ipaddress
import json
import math
import secrets
from http.cookies import SimpleCookie

from starlette.exceptions import HTTPException
from starlette.requests import Request

SAFE_METHODS = frozenset({"GET", "HEAD"})
TOKEN_HEADER = "x-csrf-token"
#: paths that stream to the page (event streams): their origin is checked even on GET
STREAM_PATHS = ("/api/events",)
CSP = (
    "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; "
    "connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
)
HEADERS = [
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
    (b"referrer-policy", b"no-referrer"),
    (b"content-security-policy", CSP.encode()),
    (b"cross-origin-resource-policy", b"same-origin"),
]


def is_loopback(host: str) -> bool:
    """Whether ``host`` names this machine only (``127.0.0.1``, ``::1``, ``localhost``)."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def allowed_hosts(host: str) -> list[str]:
    """The ``Host`` header names accepted when bound to ``host`` (ports are compared apart, by :class:`Guard`).

    On a loopback address: that address and ``localhost``; an IPv6 address in brackets, as a ``Host``
    header writes it (``[::1]``). On another
    address or name: that name, and the loopback names (the server is then
    also reached from this machine). ``0.0.0.0`` (every interface) accepts
    the machine's own name too; a request to any other name is refused.
    """
    names = {host, "localhost", "127.0.0.1", "[::1]"}
    if host in ("0.0.0.0", "::"):
        import socket

        names |= {socket.gethostname(), socket.getfqdn()}
    # an IPv6 address is written in brackets in a Host header ("[::1]:8000"), and Starlette compares it so
    return sorted({f"[{n}]" if ":" in n and not n.startswith("[") else n for n in names if n})


class Sessions:
    """Session ids and their CSRF tokens: the token is an HMAC of the id under a secret made at start."""

    def __init__(self, port: int):
        self.secret = secrets.token_bytes(32)
        self.cookie = f"printer_session_{port}"  # cookies are shared between ports: one name per server

    def new_id(self) -> str:
        return secrets.token_urlsafe(24)

    def token(self, session: str) -> str:
        return hmac.new(self.secret, session.encode(), hashlib.sha256).hexdigest()

    def valid(self, session: str | None, token: str | None) -> bool:
        if not session or not token:
            return False
        return hmac.compare_digest(self.token(session), token)

    def session_of(self, headers: dict[bytes, bytes]) -> str | None:
        raw = headers.get(b"cookie")
        if not raw:
            return None
        jar = SimpleCookie()
        try:
            jar.load(raw.decode("latin-1"))
        except Exception:
            return None
        morsel = jar.get(self.cookie)
        return morsel.value if morsel else None

    def set_cookie(self, session: str) -> bytes:
        return f"{self.cookie}={session}; Path=/; HttpOnly; SameSite=Strict".encode()


class Guard:
    """ASGI middleware: origin and CSRF checks, a session cookie for pages, security headers (module docstring)."""

    def __init__(self, app, sessions: Sessions, port: int | None):
        self.app = app
        self.sessions = sessions
        self.port = port

    def _origin_ok(self, headers: dict[bytes, bytes], required: bool) -> bool:
        origin = headers.get(b"origin")
        host = headers.get(b"host", b"").decode("latin-1")
        if origin is None:
            return not required
        return origin.decode("latin-1") == f"http://{host}"

    def _site_ok(self, headers: dict[bytes, bytes]) -> bool:
        site = headers.get(b"sec-fetch-site")
        return site is None or site in (b"same-origin", b"none")

    async def _refuse(self, scope, receive, send, status: int, message: str) -> None:
        if scope["type"] == "websocket":
            await send({"type": "websocket.close", "code": 1008})
            return
        body = message.encode()
        await send(
            {
                "type": "http.response.start",
                "status": status,
                "headers": [
                    (b"content-type", b"text/plain; charset=utf-8"),
                    (b"content-length", str(len(body)).encode()),
                ]
                + HEADERS,
            }
        )
        await send({"type": "http.response.body", "body": body})

    async def __call__(self, scope, receive, send):
        if scope["type"] not in ("http", "websocket"):
            return await self.app(scope, receive, send)
        headers = dict(scope.get("headers") or [])
        host = headers.get(b"host", b"").decode("latin-1")
        port = host.rsplit(":", 1)[1] if ":" in host and not host.endswith("]") else None
        if port is not None and self.port and port != str(self.port):
            return await self._refuse(scope, receive, send, 400, "Invalid host header")
        if scope["type"] == "websocket":
            if not self._origin_ok(headers, required=True):
                return await self._refuse(scope, receive, send, 403, "cross-origin WebSocket refused")
            return await self.app(scope, receive, send)
        method = scope["method"]
        path = scope["path"]
        session = self.sessions.session_of(headers)
        if method not in SAFE_METHODS:
            if not self._origin_ok(headers, required=True) or not self._site_ok(headers):
                return await self._refuse(scope, receive, send, 403, "cross-origin request refused")
            token = headers.get(TOKEN_HEADER.encode(), b"").decode("latin-1")
            if not self.sessions.valid(session, token):
                return await self._refuse(scope, receive, send, 403, "missing or wrong CSRF token: reload the page")
        elif path.startswith(STREAM_PATHS) and (
            not self._origin_ok(headers, required=False) or not self._site_ok(headers)
        ):
            return await self._refuse(scope, receive, send, 403, "cross-origin event stream refused")
        new_session = None
        if session is None and method == "GET":
            new_session = self.sessions.new_id()
            scope.setdefault("state", {})["session"] = new_session
        elif session is not None:
            scope.setdefault("state", {})["session"] = session

        async def send_with_headers(message):
            if message["type"] == "http.response.start":
                extra = [h for h in HEADERS if h[0] not in {k.lower() for k, _ in message.get("headers", [])}]
                if new_session is not None:
                    extra.append((b"set-cookie", self.sessions.set_cookie(new_session)))
                message = {**message, "headers": [*message.get("headers", []), *extra]}
            await send(message)

        await self.app(scope, receive, send_with_headers)


async def json_body(request: Request, limit: int) -> dict:
    """The request's body as a JSON object, read up to ``limit`` bytes (``limits.request_bytes``).

    Raises :class:`HTTPException` 413 past the limit (announced by ``Content-Length`` or found while reading)
    and 400 for a body that is not a JSON object or holds a number that is not finite (its JSON path in the
    message: :class:`NotFinite`).
    """
    size = int(request.headers.get("content-length") or 0)
    too_big = f"the request is over {limit:,} bytes (limits.request_bytes)"
    if size > limit:
        raise HTTPException(413, too_big)
    chunks, total = [], 0
    async for chunk in request.stream():
        total += len(chunk)
        if total > limit:
            raise HTTPException(413, too_big)
        chunks.append(chunk)
    try:
        data = loads_finite(b"".join(chunks) or b"{}")
    except ValueError as exc:
        raise HTTPException(400, str(exc) if isinstance(exc, NotFinite) else "the request is not JSON") from None
    if not isinstance(data, dict):
        raise HTTPException(400, "the request is not a JSON object")
    return data


class NotFinite(ValueError):
    """A JSON text holding ``NaN``, ``Infinity``, ``-Infinity`` or a number too large for a float (``1e999``):
    JSON has no such number, and a card file written with one would no longer parse. The message names the first
    one's JSON path (``request::$.data.cost``)."""


class _Odd:
    def __init__(self, text: str):
        self.text = text


def loads_finite(raw: bytes | str) -> object:
    """``json.loads(raw)``, raising :class:`NotFinite` (a ``ValueError``) for a number that is not finite."""
    found: list[str] = []

    def odd(text: str) -> _Odd:
        found.append(text)
        return _Odd(text)

    def number(text: str) -> float | _Odd:
        value = float(text)
        return value if math.isfinite(value) else odd(text)

    data = json.loads(raw, parse_constant=odd, parse_float=number)
    if found:
        where, text = _not_finite(data) or ("$", found[0])
        raise NotFinite(f"request::{where}: {text} is not a JSON number: numbers must be finite (no NaN, no Infinity)")
    return data


def _not_finite(data: object) -> tuple[str, str] | None:
    """The JSON path (``$.data.cost``) and text of the first non-finite number in ``data``, else ``None``."""
    stack: list[tuple[str, object]] = [("$", data)]
    while stack:
        where, value = stack.pop()
        if isinstance(value, _Odd):
            return where, value.text
        if isinstance(value, dict):
            items = [(f".{k}" if k.isidentifier() else f"[{json.dumps(k)}]", v) for k, v in value.items()]
        elif isinstance(value, list):
            items = [(f"[{i}]", v) for i, v in enumerate(value)]
        else:
            continue
        stack.extend((where + step, v) for step, v in reversed(items))
    return None
