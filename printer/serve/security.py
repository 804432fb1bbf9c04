"""Who may use the preview server: the person who started it, from its own pages, and no other program or page.

Anyone on the machine can connect to a port on 127.0.0.1: another account, and
every web page open in any browser. So the server authenticates its client and
checks where each request comes from:

- **a secret per run.** :class:`Sessions` makes a random access token at start;
  ``printer serve`` prints (and ``--open`` opens) the address with it
  (``http://127.0.0.1:8000/?token=...``, as Jupyter does). A page's address
  with the right token is answered with a session cookie (``HttpOnly``,
  ``SameSite=Strict``, signed with a secret of the run) and a page that moves
  on at once to the same address without the token (a ``<meta>`` refresh,
  which replaces the tokened address in the history: a 303 redirect would
  lose the cookie when the first visit comes from another site, such as the
  file ``--open`` writes). Every other request, GET included (pages, static
  files, the event stream, pictures, ``/file/``, ``/icon/``), must carry the
  cookie or the token (``?token=``), else 403 with a message that says to
  open the address ``printer serve`` printed;
- the ``Host`` header must name the bound host (:func:`allowed_hosts`,
  checked by Starlette's ``TrustedHostMiddleware``): a rebinding page's
  requests carry its own domain and are refused with 400 (Vite's
  CVE-2025-24010);
- :class:`Guard` refuses with 403 any request that ``Sec-Fetch-Site`` says
  another site or origin sent (``cross-site``, and ``same-site``: a page on
  another port of 127.0.0.1 is the same site, and the browser would send it
  the cookie), and every state-changing request (any method but GET and
  HEAD), WebSocket and event stream whose ``Origin`` is not the server's own
  (a state change must carry one; webpack-dev-server's CVE-2025-30360);
- every state change must carry the session's CSRF token in the
  ``X-CSRF-Token`` header: an HMAC of the session cookie, written into each page;
- no response carries CORS headers (no ``Access-Control-Allow-*``), so the
  browser never lets another origin read an answer; every response says
  ``X-Content-Type-Options: nosniff``, ``X-Frame-Options: DENY``, a
  ``Content-Security-Policy`` allowing only the server's own scripts,
  styles and pictures, and ``Referrer-Policy: no-referrer`` (the token never
  leaves in a ``Referer``).

The rules follow the OWASP Cross-Site Request Forgery Prevention Cheat
Sheet (https://cheatsheetseries.owasp.org/cheatsheets/Cross-Site_Request_Forgery_Prevention_Cheat_Sheet.html):
verify the origin with standard headers, and a token per session.
"""

from __future__ import annotations

import hashlib
import hmac
import html
import ipaddress
import json
import math
import secrets
from http.cookies import SimpleCookie
from typing import Any
from urllib.parse import parse_qsl, urlencode

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.types import ASGIApp, Message, Receive, Scope, Send

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
    """The run's access token, its signed session cookies and their CSRF tokens.

    ``access``: the token of the printed address (``secrets.token_urlsafe(32)``, 43 characters, unless given).
    A session id is a random nonce and its HMAC under a secret made at start, so only this run can make one;
    the CSRF token is another HMAC of the id.
    """

    def __init__(self, port: int, access: str | None = None):
        self.secret = secrets.token_bytes(32)
        self.access = access or secrets.token_urlsafe(32)
        self.cookie = f"printer_session_{port}"  # cookies are shared between ports: one name per server

    def _mac(self, purpose: str, value: str) -> str:
        return hmac.new(self.secret, f"{purpose}:{value}".encode(), hashlib.sha256).hexdigest()

    def new_id(self) -> str:
        nonce = secrets.token_urlsafe(24)
        return f"{nonce}.{self._mac('session', nonce)}"

    def signed(self, session: str | None) -> bool:
        """Whether ``session`` is a session id this run made."""
        if not session:
            return False
        nonce, _, mac = session.partition(".")
        return bool(nonce) and _same(self._mac("session", nonce), mac)

    def access_ok(self, token: str | None) -> bool:
        """Whether ``token`` is the run's access token (compared in constant time)."""
        return token is not None and _same(token, self.access)

    def token(self, session: str) -> str:
        return self._mac("csrf", session)

    def valid(self, session: str | None, token: str | None) -> bool:
        if not session or not token or not self.signed(session):
            return False
        return _same(self.token(session), token)

    def session_of(self, headers: dict[bytes, bytes]) -> str | None:
        raw = headers.get(b"cookie")
        if not raw:
            return None
        jar: SimpleCookie = SimpleCookie()
        try:
            jar.load(raw.decode("latin-1"))
        except Exception:
            return None
        morsel = jar.get(self.cookie)
        return morsel.value if morsel else None

    def set_cookie(self, session: str) -> bytes:
        return f"{self.cookie}={session}; Path=/; HttpOnly; SameSite=Strict".encode()


def _same(expected: str, given: str) -> bool:
    """Whether ``given`` (from a request: any characters) is ``expected``, compared in constant time as UTF-8 bytes
    (``hmac.compare_digest`` refuses a ``str`` holding characters beyond ASCII)."""
    return hmac.compare_digest(expected.encode(), given.encode("utf-8", "surrogatepass"))


#: the answer to a request without the session cookie or the token
NO_TOKEN = (
    "printer serve: not signed in (403). Open the address that `printer serve` printed in its terminal, the one "
    "ending in /?token=...: it signs this browser in until the server stops."
)
#: the page answering an address with the token: it moves on to the same address without it (``{0}``, escaped)
SIGN_IN = (
    '<!doctype html><html><head><meta charset="utf-8"><meta http-equiv="refresh" content="0; url={0}">'
    '<title>printer serve</title></head><body><p><a href="{0}">Open printer serve</a></p></body></html>'
)


def _query(scope: Scope) -> tuple[str | None, list[tuple[str, str]]]:
    """The ``token`` parameter of the request's query string (``None`` when absent) and the other parameters."""
    pairs = parse_qsl(scope.get("query_string", b"").decode("latin-1"), keep_blank_values=True)
    tokens = [v for k, v in pairs if k == "token"]
    return (tokens[-1] if tokens else None), [(k, v) for k, v in pairs if k != "token"]


class Guard:
    """ASGI middleware: the access token and session cookie, origin and CSRF checks, security headers (module
    docstring). ``pages``: the paths of the HTML pages, where a visit with the token gets the cookie."""

    def __init__(
        self, app: ASGIApp, sessions: Sessions, port: int | None, pages: frozenset[str] = frozenset({"/"})
    ) -> None:
        self.app = app
        self.sessions = sessions
        self.port = port
        self.pages = pages

    def _origin_ok(self, headers: dict[bytes, bytes], required: bool) -> bool:
        origin = headers.get(b"origin")
        host = headers.get(b"host", b"").decode("latin-1")
        if origin is None:
            return not required
        return origin.decode("latin-1") == f"http://{host}"

    def _site_ok(self, headers: dict[bytes, bytes]) -> bool:
        site = headers.get(b"sec-fetch-site")
        return site is None or site in (b"same-origin", b"none")

    async def _refuse(self, scope: Scope, receive: Receive, send: Send, status: int, message: str) -> None:
        if scope["type"] == "websocket":
            await send({"type": "websocket.close", "code": 1008})
            return
        await self._answer(send, status, b"text/plain; charset=utf-8", message.encode())

    async def _answer(
        self, send: Send, status: int, content_type: bytes, body: bytes, extra: list[tuple[bytes, bytes]] | None = None
    ) -> None:
        headers = [(b"content-type", content_type), (b"content-length", str(len(body)).encode())]
        headers += [(b"cache-control", b"no-store"), *HEADERS, *(extra or [])]
        await send({"type": "http.response.start", "status": status, "headers": headers})
        await send({"type": "http.response.body", "body": body})

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            return await self.app(scope, receive, send)
        headers = dict(scope.get("headers") or [])
        host = headers.get(b"host", b"").decode("latin-1")
        port = host.rsplit(":", 1)[1] if ":" in host and not host.endswith("]") else None
        if port is not None and self.port and port != str(self.port):
            return await self._refuse(scope, receive, send, 400, "Invalid host header")
        method = scope.get("method", "GET")
        path = scope["path"]
        access, rest = _query(scope)
        session = self.sessions.session_of(headers)
        signed_in = self.sessions.signed(session)
        if access is not None:
            if not self.sessions.access_ok(access):
                return await self._refuse(scope, receive, send, 403, NO_TOKEN)
            if scope["type"] == "http" and method in SAFE_METHODS and path in self.pages:
                # the cookie, and on to the same page without the token (see the module docstring for why a page)
                target = path + ("?" + urlencode(rest) if rest else "")
                body = SIGN_IN.format(html.escape(target, quote=True)).encode()
                cookie = (b"set-cookie", self.sessions.set_cookie(self.sessions.new_id()))
                return await self._answer(send, 200, b"text/html; charset=utf-8", body, [cookie])
        elif not signed_in:
            return await self._refuse(scope, receive, send, 403, NO_TOKEN)
        if access is None and not self._site_ok(headers):
            return await self._refuse(scope, receive, send, 403, "refused: another site or origin sent this request")
        if scope["type"] == "websocket":
            if not self._origin_ok(headers, required=True):
                return await self._refuse(scope, receive, send, 403, "cross-origin WebSocket refused")
            return await self.app(scope, receive, send)
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
        if signed_in:
            scope.setdefault("state", {})["session"] = session

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                extra = [h for h in HEADERS if h[0] not in {k.lower() for k, _ in message.get("headers", [])}]
                message = {**message, "headers": [*message.get("headers", []), *extra]}
            await send(message)

        await self.app(scope, receive, send_with_headers)


async def json_body(request: Request, limit: int) -> dict[str, Any]:
    """The request's body as a JSON object, read up to ``limit`` bytes (``limits.request_bytes``).

    Raises :class:`HTTPException` 413 past the limit (announced by ``Content-Length`` or found while reading)
    and 400 for a body that is not a JSON object, is nested too deeply to read, or holds a number that is not finite
    or a string with half of a surrogate pair (its JSON path in the message: :class:`NotFinite`, :class:`NotText`).
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
        said = isinstance(exc, (NotFinite, NotText))
        raise HTTPException(400, str(exc) if said else "the request is not JSON") from None
    except RecursionError:  # [[[[... nested past what Python's JSON reader can follow
        raise HTTPException(400, "the request's JSON is nested too deeply") from None
    if not isinstance(data, dict):
        raise HTTPException(400, "the request is not a JSON object")
    return data


class NotFinite(ValueError):
    """A JSON text holding ``NaN``, ``Infinity``, ``-Infinity`` or a number too large for a float (``1e999``):
    JSON has no such number, and a card file written with one would no longer parse. The message names the first
    one's JSON path (``request::$.data.cost``)."""


class NotText(ValueError):
    """A JSON text with a string holding half of a UTF-16 surrogate pair (a lone ``\\uD800``): no character, so
    no card file, PDF or page could hold it. The message names the first one's JSON path."""


class _Odd:
    def __init__(self, text: str):
        self.text = text


def loads_finite(raw: bytes | str) -> object:
    """``json.loads(raw)``, raising :class:`NotFinite` (a ``ValueError``) for a number that is not finite and
    :class:`NotText` for a string with half of a surrogate pair."""
    found: list[str] = []

    def odd(text: str) -> _Odd:
        found.append(text)
        return _Odd(text)

    def number(text: str) -> float | _Odd:
        value = float(text)
        return value if math.isfinite(value) else odd(text)

    if isinstance(raw, bytes):  # UTF-8 only, decoded strictly: no surrogate can come in as raw bytes
        try:
            raw = raw.decode("utf-8")
        except UnicodeDecodeError:
            raise NotText("request: the body is not UTF-8 text") from None
    data = json.loads(raw, parse_constant=odd, parse_float=number)
    if found:
        where, text = _not_finite(data) or ("$", found[0])
        raise NotFinite(f"request::{where}: {text} is not a JSON number: numbers must be finite (no NaN, no Infinity)")
    from printer.cards.load import lone_surrogates

    for where, message, _ in lone_surrogates(raw, data, limit=1):
        raise NotText(f"request::{where}: {message}")
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
