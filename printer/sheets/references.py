"""The files a face's HTML names, checked before it is laid out: what ``printer build`` would fail to read.

WeasyPrint reads every ``src`` of a face (``<img>``, ``<image>``...) and the ``href`` of its ``<link>`` elements
when it lays the face out. A file that is not there, a URL of the network, or a file outside the project stops
the build there, at a point that knows neither the card nor the template. :func:`reference_problems` finds the
same files in the HTML as soon as a template has rendered it (``printer validate``, ``printer build`` and
``printer serve`` alike), so that each is reported at the template line that wrote it, naming the card.

Only files are checked here (resolved against the project folder, as the build resolves them), and what the game's
stylesheets name (:func:`stylesheet_problems`: ``url()`` and ``@import``, relative to each stylesheet); what an
SVG file names in turn is still checked while laying out (:mod:`printer.sheets.pdf`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path
from urllib.parse import unquote, urljoin, urlparse

from markupsafe import Markup

from printer.paths import url2pathname
from printer.problems import Location, Problem

_SRC = re.compile(r"""src\s*=\s*(?:"([^"]*)"|'([^']*)')""", re.IGNORECASE | re.ASCII)
_LINK_HREF = re.compile(r"""<link\b[^>]*?\shref\s*=\s*(?:"([^"]*)"|'([^']*)')""", re.IGNORECASE | re.ASCII)
_ENTITY = re.compile(r"&(?:amp|#34|#39|quot|lt|gt);")
_ENTITIES = {"&amp;": "&", "&#34;": '"', "&#39;": "'", "&quot;": '"', "&lt;": "<", "&gt;": ">"}


_NO_SUCH_FILE, _NOT_A_FILE = "no such file", "not a file"


def referenced_urls(html: str) -> list[str]:
    """The URLs ``html`` asks WeasyPrint to read: every ``src`` attribute and each ``<link href>``, in order.

    Attribute and tag names are found in lower, upper or title case (``src``, ``SRC``, ``Src``), by ``str.find``
    rather than a pattern tried at every character (or a lower-cased copy: 0.2 ms for a face with Japanese text).
    """
    starts: list[tuple[int, re.Pattern[str]]] = []
    for words, pattern in ((("src", "SRC", "Src"), _SRC), (("<link", "<LINK", "<Link"), _LINK_HREF)):
        for word in words:
            at = html.find(word)
            while at != -1:
                if pattern is _LINK_HREF or (at > 0 and html[at - 1] in " \t\n\r"):
                    starts.append((at, pattern))
                at = html.find(word, at + len(word))
    found: list[str] = []
    for at, pattern in sorted(starts, key=lambda start: start[0]):
        match = pattern.match(html, at)
        if match is None:
            continue
        url = match.group(1) if match.group(1) is not None else match.group(2)
        url = _ENTITY.sub(lambda m: _ENTITIES[m.group(0)], url).strip()
        if url and url not in found:
            found.append(url)
    return found


def why_unreadable(url: str, base_url: str, roots: Sequence[Path]) -> str | None:
    """Why the build could not read ``url`` (relative to ``base_url``, a ``file:`` URL ending in ``/``), or ``None``
    when it can. ``roots`` are the folders it may read, resolved."""
    if url.startswith("#") or url[:5].lower() == "data:":
        return None
    parsed = urlparse(urljoin(base_url, url))
    if parsed.scheme.lower() != "file" or parsed.netloc not in ("", "localhost"):
        return "only files inside the project and data: URLs may be used"
    path = Path(url2pathname(unquote(parsed.path)))
    try:
        resolved = path.resolve()
    except (OSError, RuntimeError):
        return "the path cannot be resolved"
    if not any(resolved.is_relative_to(root) for root in roots):
        return "the file is outside the project"
    if not resolved.is_file():
        return _NO_SUCH_FILE if not resolved.exists() else _NOT_A_FILE
    return None


def template_line(template: str | None, url: str) -> str | None:
    """``file:line`` of the line of the template file ``template`` that writes ``url``, as far as it can be told.

    The line holding the URL as written, else the ``src``/``href`` whose text before its first ``{{`` starts
    the URL (``src="pics/{{ card.id }}.png"`` for ``pics/dawn.png``); ``None`` when no line does.
    """
    if not template:
        return None
    try:
        lines = Path(template).read_text(encoding="utf-8", errors="replace").splitlines()
    except OSError:
        return None
    for number, line in enumerate(lines, 1):
        if url in line:
            return f"{template}:{number}"
    attribute = re.compile(r"""\b(?:src|href)\s*=\s*["']([^"']*)""")
    for number, line in enumerate(lines, 1):
        for written in attribute.findall(line):
            fixed = written.split("{{")[0].split("{%")[0]
            if "{" in written and url.startswith(fixed):
                return f"{template}:{number}"
    return None


def reference_problems(
    html: Markup | str,
    base_url: str,
    roots: Sequence[Path],
    template: str | None,
    rendering: str | Location,
    memo: dict[str, str | None],
) -> list[Problem]:
    """An error for each file ``html`` (rendered from ``template`` while rendering ``rendering``, a card's place
    or ``back 'x'``) names that the build could not read: located at the template line that wrote it.

    ``base_url`` and ``roots`` are as :func:`why_unreadable` takes them; ``memo`` keeps each URL's verdict.
    """
    problems = []
    for url in referenced_urls(str(html)):
        if url not in memo:
            memo[url] = why_unreadable(url, base_url, roots)
        why = memo[url]
        if why is None:
            continue
        where = template_line(template, url) or template or rendering
        absolute = urljoin(base_url, url)
        if why in (_NOT_A_FILE, _NO_SUCH_FILE):
            fix = (
                "the template wrote none: a value or helper that gave nothing (art_url without art?)"
                if url == "None"
                else "a relative src is read from the project folder"
            )
            path = url2pathname(unquote(urlparse(absolute).path))
            problem = Problem(where, f"cannot read {path}: {why}", f"while rendering {rendering}; {fix}", code="fetch")
        else:  # as printer.sheets.pdf reports a fetch it blocks
            fix = "put the file inside the project folder, or use a data: URL"
            message = f"blocked {_short(absolute)}: {why}"
            problem = Problem(where, message, f"while rendering {rendering}; {fix}", code="blocked-fetch")
        problems.append(problem)
    return problems


def _short(text: str) -> str:
    return text if len(text) <= 100 else text[:99] + "\u2026"


_CSS_REFERENCE = re.compile(
    r"""url\(\s*(?:"([^"]*)"|'([^']*)'|([^'")\s]*))\s*\)|@import\s+(?:"([^"]*)"|'([^']*)')""", re.IGNORECASE
)
_CSS_COMMENT = re.compile(r"/\*.*?\*/", re.DOTALL)


def stylesheet_problems(sheets: Sequence[Path], roots: Sequence[Path], limit: int = 50) -> list[Problem]:
    """An error for each file a stylesheet of ``sheets`` names (``url()``, ``@import``; and in the stylesheets it
    imports, up to ``limit`` of them) that the build could not read, at ``file.css:line:col``.

    ``roots`` are the folders the build may read, resolved. Comments are skipped; a stylesheet that cannot be read
    is left to the build, which reports it.
    """
    problems: list[Problem] = []
    todo, seen = [Path(s) for s in sheets], set[Path]()
    while todo and len(seen) < limit:
        sheet = todo.pop(0)
        if sheet in seen:
            continue
        seen.add(sheet)
        try:
            text = sheet.read_text(encoding="utf-8", errors="replace")
        except OSError:
            continue
        text = _CSS_COMMENT.sub(lambda m: re.sub(r"[^\n]", " ", m.group(0)), text)  # same lines and columns
        base_url = sheet.resolve().as_uri()
        for match in _CSS_REFERENCE.finditer(text):
            url = next((g for g in match.groups() if g is not None), "").strip()
            if not url:
                continue
            why = why_unreadable(url, base_url, roots)
            line = text.count("\n", 0, match.start()) + 1
            where = f"{sheet}:{line}:{match.start() - text.rfind(chr(10), 0, match.start())}"
            absolute = urljoin(base_url, url)
            if why is None:
                if match.group(4) is not None or match.group(5) is not None:  # an @import: read it in turn
                    todo.append(Path(url2pathname(unquote(urlparse(absolute).path))))
                continue
            if why in (_NOT_A_FILE, _NO_SUCH_FILE):
                path = url2pathname(unquote(urlparse(absolute).path))
                hint = "a stylesheet's url() is relative to the stylesheet's own folder"
                problems.append(Problem(where, f"cannot read {path}: {why}", hint, code="fetch"))
            else:
                hint = "put the file inside the project folder, or use a data: URL"
                problems.append(Problem(where, f"blocked {_short(absolute)}: {why}", hint, code="blocked-fetch"))
    return problems
