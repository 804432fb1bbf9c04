"""printer serve's limits come from printer.toml's [limits] (printer.limits): the request body, a pasted decklist
(characters and lines), a zipped download, the drafts kept while a card is edited and a face's render time."""

from __future__ import annotations

import json

import pytest

LIMITS = (
    "\n[limits]\nrequest_bytes = 2000\ndecklist_chars = 100\ndecklist_lines = 3\ndownload_bytes = 10\ndrafts = 2\n"
    "face_render_seconds = 0.5\n"
)


@pytest.fixture
def limited(project):
    toml = project / "printer.toml"
    toml.write_text(toml.read_text(encoding="utf-8") + LIMITS, encoding="utf-8")
    return project


@pytest.fixture
def small_client(limited, client):
    return client


def test_a_body_over_request_bytes_is_refused_with_the_limits_name(small_client):
    answer = small_client.post("/api/deck/check", content=json.dumps({"text": "1 X\n" * 1000, "name": "d.txt"}))
    assert answer.status_code == 413
    assert "limits.request_bytes" in answer.text


def test_a_decklist_over_decklist_chars_is_refused(small_client):
    text = "1 Hida Kisada\n" * 10
    answer = small_client.post("/api/deck/check", json={"text": text, "name": "d.txt", "format": "l5r-ivory-extended"})
    assert answer.status_code == 413
    assert "limits.decklist_chars" in answer.json()["error"]


def test_a_decklist_over_decklist_lines_is_refused(small_client):
    text = "Dynasty\n\n1 Kisada\n1 Kuni"
    answer = small_client.post("/api/deck/check", json={"text": text, "name": "d.txt", "format": "l5r-ivory-extended"})
    assert answer.status_code == 413
    assert "this one has 4" in answer.json()["error"] and "limits.decklist_lines" in answer.json()["error"]


def test_the_face_render_time_reaches_the_renderer(small_client):
    assert small_client.app_state.server.faces.project.limits.face_render_seconds == 0.5


def test_a_download_over_download_bytes_is_refused(small_client, limited):
    folder = limited / "build" / "l5r-png"
    folder.mkdir(parents=True)
    (folder / "a.png").write_bytes(b"x" * 100)
    answer = small_client.get("/file/l5r-png")
    assert answer.status_code == 413
    assert "limits.download_bytes" in answer.text


def test_drafts_beyond_the_limit_drop_the_oldest(limited):
    from printer.serve.workspace import Workspace

    workspace = Workspace(limited)
    file = limited / "cards" / "l5r" / "draft.json"
    card = {"id": "draft", "title": "Draft", "type": "Event", "deck": "Dynasty"}
    for n in range(4):
        workspace.preview("l5r", file, "$", dict(card, text=f"Version {n}."))
    assert len(workspace.drafts) == 2


def test_the_defaults_are_printer_limits_defaults(project):
    from printer.limits import DEFAULT
    from printer.serve.workspace import Workspace

    assert Workspace(project).project.limits == DEFAULT
    assert (DEFAULT.request_bytes, DEFAULT.decklist_chars, DEFAULT.decklist_lines) == (2 * 2**20, 200_000, 10_000)
    assert (DEFAULT.drafts, DEFAULT.face_render_seconds) == (200, 30.0)


def test_a_face_whose_picture_would_be_over_the_pixel_budget_is_not_drawn(client, monkeypatch):
    import printer.serve.pictures as pictures

    monkeypatch.setattr(pictures, "PICTURE_PIXELS", 100_000)  # a poker card with bleed at 150 dpi is 407 x 555 px
    entry = client.get("/api/state").json()["entries"][0]
    answer = client.get(f"/face/{entry['front']}.png")
    assert answer.headers["content-type"].startswith("image/svg+xml")  # the error in place of the picture
    assert "over the 100,000 pixels printer serve draws at most" in answer.text
    assert "69 x 94 mm at 150 dpi" in answer.text


def test_a_pdf_page_over_the_pixel_budget_is_refused_before_it_is_drawn(client, project, monkeypatch):
    import pikepdf

    from printer.serve import jobs

    build = project / "build"
    build.mkdir()
    pdf = pikepdf.new()
    pdf.add_blank_page()
    pdf.pages[0].MediaBox = [0, 0, 30000, 20000]  # past what pikepdf makes: a stranger's file may say anything
    pdf.save(build / "huge.pdf")
    drawn = []
    monkeypatch.setattr("pypdfium2.PdfPage.render", lambda *a, **k: drawn.append(a))
    answer = client.get("/page/huge.pdf?page=1")
    assert answer.status_code == 413 and not drawn
    assert answer.text.startswith("page 1 (30,000 x 20,000 pt) would be a picture of 25,000 x 16,667 pixels")
    assert jobs.PAGE_DPI == 60


def test_the_warm_up_draws_no_face_over_the_pixel_budget(project, monkeypatch):
    import printer.serve.pictures as pictures
    import printer.sheets.export.faces as export

    drawn: list = []
    monkeypatch.setattr(export, "face_images", lambda *args, **kwargs: drawn.append(args) or iter(()))
    monkeypatch.setattr(pictures, "PICTURE_PIXELS", 100_000)
    pictures.prepare(str(project), "l5r", "budget", "<p>x</p>")
    assert drawn == []
    monkeypatch.setattr(pictures, "PICTURE_PIXELS", 40_000_000)
    pictures.prepare(str(project), "l5r", "budget", "<p>x</p>")
    assert len(drawn) == 1


def test_an_img_of_a_page_over_the_pixel_budget_gets_the_message_as_its_picture(client, project):
    import pikepdf

    (project / "build").mkdir()
    pdf = pikepdf.new()
    pdf.add_blank_page()
    pdf.pages[0].MediaBox = [0, 0, 30000, 20000]
    pdf.save(project / "build" / "huge.pdf")
    answer = client.get("/page/huge.pdf?page=1", headers={"accept": "image/avif,image/webp,image/*,*/*;q=0.8"})
    assert answer.status_code == 413 and answer.headers["content-type"].startswith("image/svg+xml")
    assert "Page too large to show" in answer.text and "25,000 x 16,667 pixels" in answer.text
    assert "script" not in answer.headers["content-security-policy"]


def test_a_damaged_pdf_in_build_is_refused_not_an_error(client, project):
    build = project / "build"
    build.mkdir()
    (build / "bad.pdf").write_bytes(b"%PDF-1.7\nnot a PDF after all\n")
    answer = client.get("/page/bad.pdf?page=1")
    assert answer.status_code == 422, answer.text
    assert answer.text.startswith("bad.pdf cannot be read as a PDF")
