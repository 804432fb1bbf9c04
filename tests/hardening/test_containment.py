"""Containment: rendering reads only the project and printer's bundled templates, never the network.

Each escape is tried: ``..``, percent-encoded ``..``, absolute ``file:``
URLs, symbolic links out of the project (files and folders), ``http:``,
``https:`` and other schemes, references from inside a stylesheet or an
SVG, template files that are links out, art outside the project, rules
images outside. Each blocked fetch fails the command with a message naming
the file that asked for it, and writes nothing. Templates run in Jinja2's
sandbox with autoescaping: card text that holds HTML prints as text, and
Python internals are out of reach. (The corpus in tests/bad/ runs the same
escapes through the CLI with their exact messages.)
"""

from __future__ import annotations

import json
from pathlib import Path

import jinja2
import pdfplumber
import pytest
from jinja2.exceptions import SecurityError

from printer.cards.model import Card
from printer.cards.record import Record
from printer.problems import RenderError
from printer.project import load_project
from printer.sheets.pdf import BlockedFetch, ProjectFetcher, _warnings, render_one
from printer.sheets.render import Renderer
from printer.sheets.sandbox import MAX_REPEAT, ContainedLoader, TemplateSandbox, template_problem

HTML_TEXT = '<b>not bold</b> & <script>alert("x")</script> <img src="file:///etc/passwd">'
STRATEGY = {
    "id": "html-strategy",
    "title": "<i>Tag</i> & Co",
    "type": "Strategy",
    "deck": "Fate",
    "focus": 2,
    "text": HTML_TEXT,
}


@pytest.fixture
def places(project: Path, tmp_path_factory) -> dict[str, Path]:
    """The ``project`` (conftest) with one L5R card with HTML in its text, and an ``outside`` folder it must not read."""
    outside = tmp_path_factory.mktemp("outside")
    (project / "cards" / "l5r" / "cards.json").write_text(
        json.dumps({"game": "l5r", "cards": [STRATEGY]}), encoding="utf-8"
    )
    (project / "sub").mkdir()
    (project / "a.css").write_text(".card { color: black; }\n", encoding="utf-8")
    (outside / "secret.css").write_text(".card { color: red; }\n", encoding="utf-8")
    (project / "link.css").symlink_to(outside / "secret.css")
    (project / "linkdir").symlink_to(outside, target_is_directory=True)
    return {"project": project, "outside": outside}


# --- the URL fetcher -------------------------------------------------------------------------------

BLOCKED = [
    "file:///etc/passwd",
    "FILE:///etc/passwd",
    "file://localhost/etc/passwd",
    "file://{outside}/secret.css",
    "file://{project}/../{outside.name}/secret.css",
    "file://{project}/sub/%2e%2e/%2E%2E/{outside.name}/secret.css",
    "file://{project}/link.css",
    "file://{project}/linkdir/secret.css",
    "http://example.com/a.css",
    "https://example.com/a.css",
    "ftp://example.com/a.css",
    "javascript:alert(1)",
    "//example.com/a.css",
]


@pytest.mark.parametrize("url", BLOCKED)
def test_the_fetcher_blocks_every_escape(places, url):
    fetcher = ProjectFetcher([places["project"]])
    url = url.format(**places)
    with pytest.raises(BlockedFetch) as caught:
        fetcher.fetch(url)
    assert str(caught.value).startswith("blocked ")
    assert [b[0] for b in fetcher.blocked] == [url]  # recorded, for when WeasyPrint swallows the exception


@pytest.mark.parametrize(
    "url",
    [
        "data:text/css,.card%7Bcolor:red%7D",
        "file://{project}/a.css",
        "file://{project}/sub/../a.css",
        "file://{project}/sub/%2e%2e/a.css",
    ],
)
def test_the_fetcher_allows_data_urls_and_project_files(places, url):
    fetcher = ProjectFetcher([places["project"]])
    response = fetcher.fetch(url.format(**places))
    try:
        assert fetcher.blocked == []
    finally:
        response.close()


def test_a_blocked_url_names_the_stylesheet_that_asked_for_it(places):
    project = places["project"]
    (project / "card.css").write_text(f'@import url("../{places["outside"].name}/secret.css");\n', encoding="utf-8")
    html = f'<link rel="stylesheet" href="{(project / "card.css").as_uri()}"><p>x</p>'
    with pytest.raises(RenderError) as caught:
        render_one(html, [project], project, where="test")
    (problem,) = caught.value.problems
    assert problem.where == str(project / "card.css")
    assert problem.message == f"blocked {(places['outside'] / 'secret.css').as_uri()}: the file is outside the project"
    assert problem.code == "blocked-fetch"


def test_a_url_written_by_a_card_field_is_blocked_and_said_so(places):
    project = places["project"]
    with pytest.raises(RenderError) as caught:
        render_one('<img src="https://example.com/x.png">', [project], project, where="test")
    assert caught.value.problems[0].message == (
        "blocked https://example.com/x.png (asked for by a card field or a "
        "template's output): only files inside the project and data: URLs may be used"
    )


def test_weasyprint_warnings_name_the_stylesheet_line_and_column(places):
    project = places["project"]
    (project / "bad.css").write_text("p { colr: red; }\n", encoding="utf-8")
    html = f'<link rel="stylesheet" href="{(project / "bad.css").as_uri()}"><style>p {{ widht: 1px }}</style><p>x</p>'
    _, problems = render_one(html, [project], project, where="doc")
    located = {(p.where, p.severity) for p in problems}
    assert (f"{project / 'bad.css'}:1:5", "warning") in located
    assert ("doc", "warning") in located  # a <style> of the document itself: located at the document
    assert _warnings([(None, "Ignored `x` at 1:1, unknown property.")], "here")[0].where == "here"


# --- the build, end to end ------------------------------------------------------------------------


@pytest.fixture(scope="module")
def html_card_pdf(tmp_path_factory) -> tuple[Path, str]:
    """A card whose title and text are HTML, printed once: the PDF and its text."""
    from printer.cli import main

    project = tmp_path_factory.mktemp("html-card")
    (project / "cards" / "l5r").mkdir(parents=True)
    (project / "printer.toml").write_text('[games.l5r]\nname = "L5R"\n', encoding="utf-8")
    (project / "cards" / "l5r" / "cards.json").write_text(
        json.dumps({"game": "l5r", "cards": [STRATEGY]}), encoding="utf-8"
    )
    with pytest.raises(SystemExit) as exited:
        main(["--project", str(project), "build", "l5r", "--duplex", "none"])
    assert exited.value.code == 0
    pdf = project / "build" / "l5r.pdf"
    with pdfplumber.open(pdf) as document:
        text = document.pages[0].extract_text()
    return pdf, " ".join(text.split())


@pytest.mark.slow
def test_card_text_with_html_prints_as_text(html_card_pdf):
    _, text = html_card_pdf
    assert "<b>not bold</b> &" in text
    assert '<script>alert("x")</script>' in text
    assert "<i>Tag</i> & Co" in text


def test_card_text_html_is_escaped_in_the_face(places):
    project = load_project(places["project"])
    renderer = Renderer(project.game("l5r"), [places["project"]])
    record = Record(dict(STRATEGY), places["project"] / "cards" / "l5r" / "cards.json", "$.cards[0]", "l5r")
    html = str(renderer.front(Card("l5r", record.data, record)))
    assert "<script>" not in html and "<b>not bold" not in html and "<i>Tag" not in html
    assert "&lt;script&gt;" in html and "&lt;b&gt;not bold&lt;/b&gt; &amp;" in html
    assert 'src="file:///etc/passwd"' not in html


def test_art_outside_the_project_is_refused_by_the_renderer_too(places):
    """Defence in depth: a card that reached the renderer without validation still cannot print outside art."""
    from PIL import Image

    Image.new("RGB", (30, 40)).save(places["outside"] / "art.png")
    project = load_project(places["project"])
    renderer = Renderer(project.game("l5r"), [places["project"]])
    data = dict(STRATEGY, art=f"../../../{places['outside'].name}/art.png")
    record = Record(data, places["project"] / "cards" / "l5r" / "cards.json", "$.cards[0]", "l5r")
    with pytest.raises(RenderError) as caught:
        renderer.front(Card("l5r", data, record))
    (problem,) = caught.value.problems
    assert str(problem.where).endswith("cards.json::$.cards[0].art") and problem.code == "art-outside"


def test_a_template_that_links_out_of_the_project_is_not_read(places, run):
    project = places["project"]
    (places["outside"] / "card.html.j2").write_text(
        '<div class="card">{{ card.title }} from outside</div>', encoding="utf-8"
    )
    (project / "templates" / "l5r").mkdir(parents=True)
    (project / "templates" / "l5r" / "card.html.j2").symlink_to(places["outside"] / "card.html.j2")
    result = run("build", "l5r", cwd=project)
    assert result.code == 1 and "Traceback" not in result.err
    assert (  # run inside the project: its paths are shown relative to it
        "templates/l5r/card.html.j2: error: template error: refused: template templates/l5r/"
        f"card.html.j2 (a link to {places['outside']}/card.html.j2) is outside the project"
    ) in result.err
    assert not (project / "build" / "l5r.pdf").exists()


def test_the_loader_reads_templates_inside_the_roots(places):
    folder = places["project"] / "templates"
    folder.mkdir()
    (folder / "ok.j2").write_text("{{ 1 + 1 }}", encoding="utf-8")
    env = TemplateSandbox(loader=ContainedLoader([str(folder)], [places["project"]]))
    assert env.get_template("ok.j2").render() == "2"


@pytest.mark.parametrize("image", ["../../../{outside}/picture.png", "https://example.com/picture.png"])
def test_rules_images_outside_the_project_stop_the_rules_book(places, run, image):
    from PIL import Image

    Image.new("RGB", (30, 20)).save(places["outside"] / "picture.png")
    rules = places["project"] / "rules" / "l5r"
    rules.mkdir(parents=True)
    image = image.format(outside=places["outside"].name)
    (rules / "01-rules.md").write_text(f"# Rules\n\nText.\n\n![a picture]({image})\n", encoding="utf-8")
    result = run("rules", "l5r", cwd=places["project"])
    assert result.code == 1 and "Traceback" not in result.err
    assert result.err.startswith("rules/l5r/01-rules.md:5:14: error: blocked ")  # the chapter's line and column
    assert not (places["project"] / "build" / "l5r-rules.pdf").exists()


# --- the sandbox ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "source",
    [
        "{{ ''.__class__.__mro__ }}",
        "{{ ''.__class__.__mro__[1].__subclasses__() }}",
        "{{ cycler.__init__.__globals__.os }}",
        "{{ joiner.__init__.__globals__ }}",
        "{{ namespace.__init__.__globals__ }}",
        "{{ lipsum.__globals__['os'] }}",
        "{{ (1).__class__.__bases__ }}",
        "{{ self.__init__.__globals__ }}",
        "{{ 'x'.format.__self__ }}",
        "{% set x = 'a' * (" + str(MAX_REPEAT) + " + 1) %}",
        "{{ [1] * (" + str(MAX_REPEAT) + " + 1) }}",
        "{{ 2 ** 100000 }}",
    ],
)
def test_the_sandbox_refuses_python_internals_and_huge_values(source):
    env = TemplateSandbox()
    with pytest.raises((SecurityError, jinja2.UndefinedError)):
        env.from_string(source).render()


def test_the_sandbox_autoescapes_and_allows_ordinary_templates():
    env = TemplateSandbox()
    assert env.from_string("{{ text }}").render(text="<b>&</b>") == "&lt;b&gt;&amp;&lt;/b&gt;"
    assert env.from_string("{{ 'ab' * 3 }} {{ 2 ** 10 }} {{ range(3)|list }}").render() == "ababab 1024 [0, 1, 2]"
    with pytest.raises(jinja2.UndefinedError):
        env.from_string("{{ nothing }}").render()


def test_template_errors_are_located_at_the_template_line(tmp_path):
    (tmp_path / "t.j2").write_text("line one\n{{ 1 / 0 }}\n", encoding="utf-8")
    env = TemplateSandbox(loader=jinja2.FileSystemLoader(str(tmp_path)))
    template = env.get_template("t.j2")
    with pytest.raises(ZeroDivisionError) as caught:
        template.render()
    problem = template_problem(caught.value, template.filename, "card x")
    assert (problem.where, problem.message, problem.hint) == (
        f"{tmp_path / 't.j2'}:2",
        "template error: ZeroDivisionError: division by zero",
        "while rendering card x",
    )


def test_a_template_render_keeps_the_callers_own_time_limit():
    """A caller's interval timer (printer serve's per-face limit) survives a template render and still fires:
    after the render with the time it had left, and during it through the caller's own handler."""
    import signal
    import time

    from printer.sheets.sandbox import render_limited

    class Late(BaseException):
        pass

    def late(signum, frame):
        raise Late()

    env = TemplateSandbox()
    previous = signal.signal(signal.SIGALRM, late)
    try:
        signal.setitimer(signal.ITIMER_REAL, 0.3)
        assert render_limited(env.from_string("{{ 1 + 1 }}"), {}, 100) == "2"
        assert 0 < signal.getitimer(signal.ITIMER_REAL)[0] <= 0.3
        with pytest.raises(Late):
            time.sleep(1)
        signal.setitimer(signal.ITIMER_REAL, 0.05)
        with pytest.raises(Late):  # a loop that prints nothing, stopped by the caller's time, not the template's
            render_limited(
                env.from_string("{% for i in range(99999) %}{% for j in range(9999) %}{% endfor %}{% endfor %}"),
                {},
                100,
            )
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def test_a_template_render_is_limited_by_its_cpu_time_not_by_waiting(monkeypatch):
    """A render that waits (a busy machine, a build at ``nice -n 19``) is not stopped; one that loops is."""
    import time

    from printer.sheets import sandbox

    monkeypatch.setattr(sandbox, "RENDER_SECONDS", 0.3)
    env = TemplateSandbox()
    waiting = env.from_string("{% for i in range(3) %}{{ wait() }}{% endfor %}done")
    assert sandbox.render_limited(waiting, {"wait": lambda: time.sleep(0.2) or ""}, 100) == "done"
    looping = env.from_string("{% for i in range(99999) %}{% for j in range(9999) %}{% endfor %}{% endfor %}")
    started = time.process_time()
    with pytest.raises(sandbox.RenderLimit, match="ran for more than 0.3 s"):
        sandbox.render_limited(looping, {}, 100)
    assert time.process_time() - started < 5
