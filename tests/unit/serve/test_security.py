"""The preview server refuses what other web pages could make a browser send it (printer.serve.security)."""

from __future__ import annotations

import pytest

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
    cookie = client.get("/").headers["set-cookie"]
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
