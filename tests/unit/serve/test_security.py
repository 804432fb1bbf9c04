"""The preview server refuses what other web pages could make a browser send it (printer.serve.security)."""

from __future__ import annotations

import pytest
from helpers import sign_in

pytest.importorskip("starlette")


def test_a_wrong_host_header_is_refused(client):
    # DNS rebinding: a page on evil.example makes its name resolve to 127.0.0.1; its requests say Host: evil.example
    assert client.get("/api/state", headers={"host": "evil.example"}).status_code == 400
    assert client.get("/api/state", headers={"host": "testserver"}).status_code == 200


def test_a_wrong_port_in_the_host_header_is_refused(client):
    assert client.get("/api/state", headers={"host": "testserver:9999"}).status_code == 400
    assert client.get("/api/state", headers={"host": "testserver:8000"}).status_code == 200


def test_a_cross_origin_post_is_refused(client):
    body = {"game": "l5r", "data": {"id": "x", "title": "X", "type": "Event", "deck": "Dynasty"}}
    answer = client.post("/api/card/check", json=body, headers={"origin": "http://evil.example"})
    assert answer.status_code == 403
    assert "cross-origin" in answer.text
    assert client.post("/api/card/check", json=body).status_code == 200


def test_a_post_without_origin_is_refused(client):
    del client.headers["origin"]
    answer = client.post("/api/card/check", json={})
    assert answer.status_code == 403


def test_a_post_from_another_site_by_fetch_metadata_is_refused(client):
    answer = client.post("/api/card/check", json={}, headers={"sec-fetch-site": "cross-site"})
    assert answer.status_code == 403


def test_state_changes_need_the_sessions_csrf_token(client):
    body = {"game": "l5r", "data": {"id": "x"}}
    assert client.post("/api/card/check", json=body, headers={"x-csrf-token": "0" * 64}).status_code == 403
    token = client.headers.pop("x-csrf-token")
    assert client.post("/api/card/check", json=body).status_code == 403
    client.headers["x-csrf-token"] = token
    # the token belongs to the session cookie: another session's cookie with this token is refused
    client.cookies.clear()
    assert client.post("/api/card/check", json=body).status_code == 403


def test_the_event_stream_refuses_another_origin(client):
    assert client.get("/api/events", headers={"origin": "http://evil.example"}).status_code == 403
    assert client.get("/api/events", headers={"sec-fetch-site": "cross-site"}).status_code == 403


def test_no_cors_headers_and_security_headers_everywhere(client):
    for answer in (
        client.get("/"),
        client.get("/api/state", headers={"origin": "http://evil.example"}),
        client.options(
            "/api/card/save", headers={"origin": "http://evil.example", "access-control-request-method": "POST"}
        ),
    ):
        assert not [h for h in answer.headers if h.lower().startswith("access-control-")]
        assert answer.headers["x-content-type-options"] == "nosniff"
        assert "frame-ancestors 'none'" in answer.headers["content-security-policy"]


def test_the_session_cookie_is_http_only_and_same_site_strict(client):
    client.cookies.clear()
    assert "set-cookie" not in client.get("/").headers  # no cookie without the token
    cookie = client.get(f"/?token={client.access_token}").headers["set-cookie"]
    assert "HttpOnly" in cookie and "SameSite=Strict" in cookie


def test_an_error_never_shows_a_traceback(client, monkeypatch):
    import printer.serve.app as app_module

    def broken(*args, **kwargs):
        raise RuntimeError("secret internals")

    monkeypatch.setattr(app_module, "_games", broken)
    answer = client.get("/api/state")
    assert answer.status_code == 500
    assert "secret" not in answer.text and "Traceback" not in answer.text


def test_files_outside_the_build_folder_are_not_served(client, project):
    (project / "build").mkdir()
    (project / "build" / "ok.txt").write_text("fine")
    assert client.get("/file/ok.txt").text == "fine"
    for path in ("../printer.toml", "..%2Fprinter.toml", "%2Fetc%2Fpasswd", "../../../../etc/passwd"):
        assert client.get(f"/file/{path}").status_code == 404
    (project / "build" / "link").symlink_to(project / "printer.toml")
    assert client.get("/file/link").status_code == 404


def test_static_files_do_not_leave_the_package(client):
    assert client.get("/static/app.css").status_code == 200
    assert client.get("/static/../app.py").status_code == 404
    assert client.get("/static/%2e%2e/app.py").status_code == 404


def test_host_warnings():
    from printer.serve import host_problems

    assert host_problems("127.0.0.1") == []
    assert host_problems("localhost") == []
    assert host_problems("::1") == []
    (problem,) = host_problems("0.0.0.0")
    assert problem.severity == "warning" and "other machines" in problem.message
    assert "anyone who can reach this port and has the token" in problem.message and "edit" in problem.message
    (problem,) = host_problems("::")
    assert "has the token" in problem.message


@pytest.mark.enable_socket
def test_an_address_that_cannot_be_listened_on_names_host_and_a_taken_port_names_port():
    from printer.problems import UsageError
    from printer.serve import bind

    with pytest.raises(UsageError) as bad_host:
        bind("999.1.1.1", 0)  # no such address
    assert str(bad_host.value.problems[0].where) == "--host" and "127.0.0.1" in bad_host.value.problems[0].hint
    taken = bind("127.0.0.1", 0)
    try:
        with pytest.raises(UsageError) as bad_port:
            bind("127.0.0.1", taken.getsockname()[1])
        assert str(bad_port.value.problems[0].where) == "--port"
    finally:
        taken.close()


def test_a_server_bound_to_ipv6_loopback_accepts_its_bracketed_host_and_refuses_others(project):
    """``--host ::1``: browsers send ``Host: [::1]:PORT`` and ``Origin: http://[::1]:PORT``."""
    from starlette.testclient import TestClient

    from printer.serve.app import ServeConfig, create_app
    from printer.serve.workspace import Workspace

    config = ServeConfig(host="::1", port=8000, workers=0, watch=False)
    app = create_app(Workspace(project), config)
    with TestClient(app, base_url="http://[::1]:8000", raise_server_exceptions=False) as client:
        sign_in(client, config.token, "http://[::1]:8000")
        token = client.headers["x-csrf-token"]
        headers = {"origin": "http://[::1]:8000", "x-csrf-token": token}
        answer = client.post(
            "/api/deck/check", json={"text": "1 X", "name": "d.txt", "format": "nope"}, headers=headers
        )
        assert answer.status_code != 403 and "unknown format" in answer.json()["error"]
        assert client.get("/", headers={"host": "evil.example:8000"}).status_code == 400
        assert client.get("/", headers={"host": "[::2]:8000"}).status_code == 400
        assert client.get("/", headers={"host": "[::1]:9999"}).status_code == 400
        crossed = {"origin": "http://evil.example", "x-csrf-token": token}
        assert client.post("/api/deck/check", json={"text": "1 X"}, headers=crossed).status_code == 403


def test_ipv6_hosts_are_bracketed_as_in_a_host_header():
    from printer.serve.security import allowed_hosts

    assert allowed_hosts("::1") == ["127.0.0.1", "[::1]", "localhost"]
    assert "[::]" in allowed_hosts("::") and "::" not in allowed_hosts("::")


@pytest.mark.enable_socket
def test_serve_listens_on_ipv6_loopback(project):
    import socket

    from printer.serve import bind

    try:
        sock = bind("::1", 0)
    except Exception as exc:  # a machine without IPv6
        pytest.skip(f"no IPv6 loopback here: {exc}")
    with sock:
        assert sock.family == socket.AF_INET6 and sock.getsockname()[0] == "::1"


GUARDED = (
    "/",
    "/edit",
    "/static/app.css",
    "/api/state",
    "/api/events",
    "/api/card?uid=l5r/ex-personality-tetsuya",
    "/api/builds",
    "/face/" + "0" * 40 + ".png",
    "/file/ok.txt",
    "/page/l5r.pdf?page=1",
    "/icon/l5r/bow.svg",
    "/nowhere",
)


def test_every_request_without_the_cookie_or_the_token_is_refused(client, project):
    (project / "build").mkdir()
    (project / "build" / "ok.txt").write_text("fine")
    client.cookies.clear()
    for path in GUARDED:
        answer = client.get(path)
        assert answer.status_code == 403, path
        assert "printed" in answer.text and "?token=" in answer.text and "fine" not in answer.text
        assert "set-cookie" not in answer.headers
    assert client.post("/api/card/check", json={}).status_code == 403
    for forged in ("x", "abc.def", client.access_token):
        client.cookies.set("printer_session_8000", forged)
        assert client.get("/api/state").status_code == 403, forged
    client.cookies.clear()
    assert client.get("/api/state?token=" + "A" * 43).status_code == 403  # a wrong token


def test_the_tokened_address_gives_the_cookie_and_moves_on_without_the_token(client):
    client.cookies.clear()
    answer = client.get(f"/edit?uid=l5r/x&token={client.access_token}")
    assert answer.status_code == 200 and answer.headers["cache-control"] == "no-store"
    assert client.access_token not in answer.text
    assert '<meta http-equiv="refresh" content="0; url=/edit?uid=l5r%2Fx">' in answer.text
    cookie = answer.headers["set-cookie"]
    assert cookie.startswith("printer_session_8000=") and "HttpOnly" in cookie and "SameSite=Strict" in cookie
    assert client.get("/api/state").status_code == 200  # the cookie now opens every request
    assert client.get("/static/app.css").status_code == 200


def test_the_token_alone_opens_one_request_but_no_state_change(client):
    client.cookies.clear()
    answer = client.get(f"/api/state?token={client.access_token}")
    assert answer.status_code == 200 and "entries" in answer.json() and "set-cookie" not in answer.headers
    assert client.get("/api/state").status_code == 403
    body = {"game": "l5r", "data": {"id": "x"}}
    assert client.post(f"/api/card/check?token={client.access_token}", json=body).status_code == 403  # no session


def test_a_request_another_site_or_port_sent_is_refused_even_with_the_cookie(client):
    # a page on another port of 127.0.0.1 is the same site: the browser sends it the SameSite=Strict cookie
    for site in ("same-site", "cross-site"):
        assert client.get("/page/l5r.pdf?page=1", headers={"sec-fetch-site": site}).status_code == 403
        assert client.get("/api/state", headers={"sec-fetch-site": site}).status_code == 403
    assert client.get("/api/state", headers={"sec-fetch-site": "same-origin"}).status_code == 200
    assert client.get("/", headers={"sec-fetch-site": "none"}).status_code == 200


def test_a_token_or_cookie_with_bytes_beyond_ascii_is_refused_not_an_error(client):
    # hmac.compare_digest refuses to compare str holding non-ASCII characters: a 403, never a 500 and a traceback
    body = {"game": "l5r", "data": {"id": "x"}}
    answer = client.post("/api/card/check", json=body, headers={"x-csrf-token": "\xe9".encode("latin-1")})
    assert answer.status_code == 403, answer.text
    name = next(iter(client.cookies.keys()))
    forged = {"cookie": f'{name}="abc.\xe9"'.encode("latin-1")}
    assert client.get("/api/state", headers=forged).status_code == 403
    assert client.get("/api/state", params={"token": "\xe9"}).status_code == 403


def test_a_request_nested_too_deeply_is_refused_not_an_error(client):
    body = '{"game": "l5r", "data": {"id": "x", "t": ' + "[" * 100_000 + "]" * 100_000 + "}}"
    answer = client.post("/api/card/check", content=body, headers={"content-type": "application/json"})
    assert answer.status_code == 400, answer.text
    assert "nested too deeply" in answer.text
