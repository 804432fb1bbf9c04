"""The build manifest: what a PDF holds, card by card, written beside it as ``<pdf stem>.manifest.json``.

For every card printed: its ``name``, ``copies``, where it prints (``slots``: ``[sheet, slot]`` pairs, both
counted from 1, the slots in the layout's order), a digest of each of its ``fields`` and of each printed
side (``front``, ``back``), the digest of its front's HTML as the template wrote it (``html``) and the
files its faces name (``files``: icons, pictures, its prepared ``art``) with their digests. Beside the
cards: the game, the project's ``version``, the print ``options``, and the digests of the stylesheets
and of the game's templates.

A face's digest stands for what prints: its HTML (with every file it names replaced by the file's place
in the project and the digest of its content), the content of the game's stylesheets and of the files
they name, and the face's size, bleed and safe area. It does not depend on where the project is on disk,
on printer's or WeasyPrint's version, or on the time: the same project gives the same manifest, byte for
byte, wherever and whenever it is built (a template that prints ``project.build_date`` gives another face
each day unless ``SOURCE_DATE_EPOCH`` is set). Digests are SHA-256, cut to :data:`DIGEST_CHARS` hex digits
for faces and files and :data:`FIELD_CHARS` for fields. The JSON has sorted keys, one-space indents and a
final newline.

A file's content digest is kept in ``build/.cache/digests.json`` by its size and modification time
(:class:`FileDigests`), so that a build reads an unchanged picture once, not at every build.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from dataclasses import asdict
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urljoin, urlparse

from printer.fsutil import atomic_write_text
from printer.paths import bundled_root, regular_file_problem, url2pathname
from printer.sheets.cache import _references
from printer.sheets.faces.items import PrintItem
from printer.sheets.job import SheetJob

#: the manifest's format (a reader refuses another)
FORMAT = 1
#: hex digits kept of a face's or a file's digest, and of a field's
DIGEST_CHARS, FIELD_CHARS = 16, 10
#: the file, in the build's cache folder, of the files' digests by size and modification time
DIGESTS_FILE = "digests.json"


def manifest_path(pdf: Path) -> Path:
    """The manifest written beside ``pdf``: ``build/t.pdf`` -> ``build/t.manifest.json``."""
    return pdf.with_name(pdf.stem + ".manifest.json")


def _short(data: bytes, chars: int = DIGEST_CHARS) -> str:
    return hashlib.sha256(data).hexdigest()[:chars]


def _plain(text: str) -> bool:
    """Whether ``json.dumps(text, ensure_ascii=False)`` is ``text`` in quotes: nothing in it is escaped."""
    return text.isprintable() and '"' not in text and "\\" not in text


def field_json(value: Any) -> str:
    """A field's value as JSON (keys sorted, UTF-8 as it is), as ``json.dumps`` writes it; strings, integers and
    lists of strings without a character to escape are written without its cost (most fields of a card)."""
    if isinstance(value, str) and _plain(value):
        return f'"{value}"'
    if isinstance(value, int) and not isinstance(value, bool):
        return str(value)
    if isinstance(value, list) and all(isinstance(item, str) and _plain(item) for item in value):
        return "[" + ", ".join(f'"{item}"' for item in value) + "]"
    return json.dumps(value, sort_keys=True, ensure_ascii=False, default=str)


def field_digest(value: Any, memo: dict[str, str] | None = None) -> str:
    """The digest of one card field's value (:func:`field_json`). ``memo`` keeps the digests of the values met
    (by their JSON): a game's cards repeat their types, factions, keywords and numbers, so a build of 900 cards
    hashes about a third of its 15,000 fields."""
    text = field_json(value)
    if memo is None:
        return _short(text.encode("utf-8"), FIELD_CHARS)
    found = memo.get(text)
    if found is None:
        found = memo[text] = _short(text.encode("utf-8"), FIELD_CHARS)
    return found


class FileDigests:
    """Content digests of files, kept in ``folder/digests.json`` by path, size and modification time, with what
    each face's HTML came to (:meth:`face_parts`: its HTML's digest and the files it names, by the digest of
    the HTML as written) and each card's field digests (:meth:`fields`, by the card's data), so that a build works
    out only the faces and cards it has not seen.

    ``folder`` ``None`` keeps them for this object only. A damaged or foreign file is ignored.
    """

    def __init__(self, folder: Path | None, base_url: str = ""):
        self.path = folder / DIGESTS_FILE if folder is not None else None
        self.base_url = base_url
        self._known: dict[str, list[Any]] = {}  # JSON: [size, mtime_ns, digest] by path
        self._faces: dict[str, list[Any]] = {}  # JSON: see face_parts
        self._used: dict[str, list[Any]] = {}
        self._cards: dict[str, Any] = {}  # JSON: see fields
        self._cards_used: dict[str, str] = {}
        self._changed = False
        if self.path is not None:
            try:
                data = json.loads(self.path.read_text(encoding="utf-8"))
                files, faces = data.get("files"), data.get("faces")
                if isinstance(files, dict):
                    self._known = {k: v for k, v in files.items() if isinstance(v, list) and len(v) == 3}
                if isinstance(faces, dict) and data.get("base") == base_url:
                    self._faces = faces
                if isinstance(cards := data.get("cards"), dict):
                    self._cards = cards
            except (OSError, ValueError, AttributeError):
                pass

    def digest(self, path: Path) -> str:
        """``path``'s content digest, ``missing`` when it cannot be read."""
        try:
            stat = path.stat()
        except OSError:
            return "missing"
        known = self._known.get(str(path))
        if known is not None and known[0] == stat.st_size and known[1] == stat.st_mtime_ns:
            return str(known[2])
        try:
            digest = _short(path.read_bytes())
        except OSError:
            return "missing"
        self._known[str(path)] = [stat.st_size, stat.st_mtime_ns, digest]
        self._changed = True
        return digest

    def face_parts(self, html: str) -> list[Any] | None:
        """``[HTML digest, [[token, path], ...]]`` kept for the face whose HTML has the digest ``html``, or ``None``."""
        parts = self._faces.get(html)
        if isinstance(parts, list) and len(parts) == 2 and isinstance(parts[1], list):
            self._used[html] = parts
            return parts
        return None

    def fields(self, key: str | None, data: dict[str, Any], memo: dict[str, str]) -> dict[str, str]:
        """The digests of a card's fields (:func:`field_digest`, ``memo`` passed on), by field name, sorted. ``key``
        names the card's data (:attr:`printer.sheets.faces.registry.FaceRegistry.card_keys`): a card whose key was
        seen in the last build has its digests from then, not worked out again; ``None`` always works them out."""
        names = sorted(data)
        kept = self._cards.get(key) if key is not None else None
        if isinstance(kept, str) and len(kept) == FIELD_CHARS * len(names):
            self._cards_used[str(key)] = kept
            return {name: kept[i * FIELD_CHARS : (i + 1) * FIELD_CHARS] for i, name in enumerate(names)}
        found = {name: field_digest(data[name], memo) for name in names}
        if key is not None:
            self._cards_used[key] = "".join(found.values())
            self._changed = True
        return found

    def remember_face(self, html: str, parts: list[Any]) -> None:
        self._used[html] = parts
        self._changed = True

    def save(self) -> None:
        """Write the digests back when one was added (a failure only costs the next build a read); the faces kept
        and cards kept are the ones this build used."""
        if self.path is None or not self._changed:
            return
        data = {"base": self.base_url, "files": self._known, "faces": self._used, "cards": self._cards_used}
        try:
            atomic_write_text(self.path, json.dumps(data, sort_keys=True))
            self._changed = False
        except OSError:
            pass


class FaceDigests:
    """The digests of a print job's faces, independent of where the project is (see the module docstring).

    ``root`` is the project's folder; ``files`` keeps the files' digests.
    """

    def __init__(self, job: SheetJob, root: Path, files: FileDigests):
        self.job = job
        self.root = root.resolve()
        self.art = self.root / "build" / ".cache" / "art"
        self.bundled = bundled_root().resolve()
        self.files = files
        self.base_url = job.engine.base.resolve().as_uri() + "/"
        self._faces: dict[str, tuple[str, str, dict[str, str]]] = {}
        self._refs: dict[tuple[str, str], tuple[str, str] | None] = {}
        self._digests: dict[str, str] = {}
        #: each face key's HTML digest as the job has it (:func:`printer.sheets.faces.store.html_digest`), in hex
        self._written = {key: digest.hex() for digest, key in job.faces.keys.items()}
        sep = "/" if "/" in str(self.root) else "\\"
        self._folders = [
            (str(self.art) + sep, "art"),
            (str(self.root) + sep, ""),
            (str(self.bundled) + sep, "printer/"),
        ]
        self.stylesheets: dict[str, str] = {}
        for url in job.renderer.stylesheets():
            path = Path(url2pathname(unquote(urlparse(url).path)))
            self.stylesheets[self.token(path)] = self.files.digest(path)
            try:
                text = path.read_text(encoding="utf-8", errors="replace")
            except OSError:
                continue
            for token, named in self._named(text, url)[1]:
                self.stylesheets[token] = self._digest(named)
        opts = job.opts
        extra = job.engine.extra_css.replace(self.root.as_uri(), "")
        context = json.dumps([sorted(self.stylesheets.items()), opts.card, opts.bleed, opts.safe, extra])
        self.context = context.encode("utf-8")

    def token(self, path: Path) -> str:
        """How a file is named in a digest: its place in the project (``icons/gold.svg``), ``printer/...`` for
        printer's bundled files, ``art`` for art prepared by the build, else its name."""
        text = str(path)
        for folder, prefix in self._folders:
            if text.startswith(folder):
                return "art" if prefix == "art" else prefix + text[len(folder) :].replace("\\", "/")
        return "other/" + path.name

    def _reference(self, ref: str, base_url: str) -> tuple[str, str] | None:
        """``(token, path)`` of the local file ``ref`` names from ``base_url`` (``None``: not a local file),
        found once per build (900 faces name the same icons)."""
        if (ref, base_url) in self._refs:
            return self._refs[ref, base_url]
        found = None
        if ref and not ref.startswith(("data:", "#")):
            url = urlparse(urljoin(base_url, ref))
            if url.scheme == "file":
                path = Path(url2pathname(unquote(url.path)))
                found = (self.token(path), str(path))
        self._refs[ref, base_url] = found
        return found

    def _digest(self, path: str) -> str:
        """A file's content digest, asked of :attr:`files` once per build."""
        found = self._digests.get(path)
        if found is None:
            found = self._digests[path] = self.files.digest(Path(path))
        return found

    def _named(self, text: str, base_url: str) -> tuple[str, list[list[str]]]:
        """``text`` with every local file it names replaced by its token, and ``[token, path]`` of them."""
        named: list[list[str]] = []
        tokens: dict[str, str] = {}
        arts = 0
        for groups in _references(text):
            ref = (groups[0] or groups[1]).strip()
            if ref in tokens:
                continue
            found = self._reference(ref, base_url)
            if found is None:
                continue
            token, path = found
            if token == "art":  # each picture the build prepared: art, art2, art3...
                arts += 1
                token = "art" if arts == 1 else f"art{arts}"
            tokens[ref] = token
            named.append([token, path])
        for ref in sorted(tokens, key=len, reverse=True):  # a longer reference first: it may hold a shorter one
            text = text.replace(ref, tokens[ref])
        return text, named

    def face(self, key: str) -> tuple[str, str, dict[str, str]]:
        """``(face digest, HTML digest, {token: digest} of the files it names)`` of the job's face ``key``."""
        found = self._faces.get(key)
        if found is not None:
            return found
        written = self._written.get(key)
        parts = self.files.face_parts(written) if written is not None else None
        if parts is None:
            html, named = self._named(str(self.job.faces.html[key]), self.base_url)
            parts = [_short(html.encode("utf-8", "surrogatepass")), named]
            if written is not None:
                self.files.remember_face(written, parts)
        html_digest, refs = parts
        files = {str(token): self._digest(str(path)) for token, path in refs}
        data = json.dumps([html_digest, sorted(files.items())]).encode("utf-8")
        found = self._faces[key] = (_short(self.context + data), html_digest, files)
        return found


def template_digests(job: SheetJob, digests: FaceDigests) -> dict[str, str]:
    """``{token: digest}`` of the game's template files (``*.j2``) on its template path."""
    found: dict[str, str] = {}
    for folder in job.renderer.game.template_dirs:
        if not folder.is_dir():
            continue
        for path in sorted(folder.glob("*.j2")):  # templates are found by name in each folder
            token = digests.token(path.resolve())
            found.setdefault(token, digests.files.digest(path))
    return found


def options_data(job: SheetJob, root: Path) -> dict[str, Any]:
    """The job's print options as JSON data (paths relative to ``root``; the limits left out)."""
    data = asdict(job.opts)
    for kept_out in ("limits", "places", "where"):  # the limits, and where each option was given (for messages)
        data.pop(kept_out, None)
    for name, value in data.items():
        if isinstance(value, Path):
            try:
                data[name] = value.resolve().relative_to(root.resolve()).as_posix()
            except ValueError:
                data[name] = value.name
        elif isinstance(value, tuple):
            data[name] = list(value)
    return data


def card_entries(
    job: SheetJob, items: Sequence[PrintItem], digests: FaceDigests, per_sheet: int
) -> dict[str, dict[str, Any]]:
    """Each card of ``items`` (by id) as the manifest holds it (see the module docstring); ``per_sheet``
    cards a sheet (0: no places)."""
    cards: dict[str, dict[str, Any]] = {}
    duplex = job.opts.duplex != "none"
    memo: dict[str, str] = {}
    for index, item in enumerate(items):
        card = item.card
        if card is None or item.front_html is not None:
            continue
        entry = cards.get(card.id)
        if entry is None:
            front, html, files = digests.face(job.faces.front_key(item))
            entry = cards[card.id] = {
                "name": card.name,
                "copies": 0,
                "fields": digests.files.fields(job.faces.card_keys.get(card.id), card.data, memo),
                "front": front,
                "html": html,
                "files": dict(files),
                "slots": [],
            }
            if duplex:
                back, _, back_files = digests.face(job.faces.back_key(item))
                entry["back"] = back
                entry["files"].update(back_files)
        entry["copies"] += 1
        if per_sheet:
            entry["slots"].append([index // per_sheet + 1, index % per_sheet + 1])
    return cards


def manifest(
    job: SheetJob,
    items: Sequence[PrintItem],
    root: Path,
    game: str,
    per_sheet: int,
    pdf: str,
    version: str | None,
    files: FileDigests,
) -> dict[str, Any]:
    """The manifest of a PDF ``pdf`` (its name) printing ``items`` through ``job``, ``per_sheet`` cards a sheet."""
    digests = FaceDigests(job, root, files)
    return {
        "format": FORMAT,
        "game": game,
        "version": version,
        "pdf": pdf,
        "options": options_data(job, root),
        "stylesheets": digests.stylesheets,
        "templates": template_digests(job, digests),
        "cards": card_entries(job, items, digests, per_sheet),
    }


def dumps(data: dict[str, Any]) -> str:
    """The manifest's text: sorted keys, UTF-8 as it is, a line for each key and for each card (a card's change
    is a line's change in a diff), a final newline."""

    one = json.JSONEncoder(sort_keys=True, ensure_ascii=False).encode  # json.dumps makes one a call

    lines = []
    for key in sorted(data):
        value = data[key]
        if key == "cards" and value:
            cards = [f"  {one(card_id)}: {one(value[card_id])}" for card_id in sorted(value)]
            lines.append(f" {one(key)}: {{\n" + ",\n".join(cards) + "\n }")
        else:
            lines.append(f" {one(key)}: {one(value)}")
    return "{\n" + ",\n".join(lines) + "\n}\n"


def write_manifest(target: Path, data: dict[str, Any]) -> Path:
    """Write ``data`` atomically to ``target``'s manifest (:func:`manifest_path`); returns its path."""
    path = manifest_path(target)
    atomic_write_text(path, dumps(data))
    return path


def read_manifest(path: Path, max_bytes: int = 256 * 2**20) -> dict[str, Any]:
    """A manifest read back; raises ``ValueError`` (what is wrong, with the JSON path) when it is not one this
    printer writes: larger than ``max_bytes``, not a regular file (a FIFO is refused unread), not JSON, nested
    too deeply, or a value of the wrong type where :func:`manifest` writes a string, an object or a list."""
    not_file = regular_file_problem(path)
    if not_file is not None:
        raise ValueError(not_file.message)
    try:
        if path.stat().st_size > max_bytes:
            raise ValueError(f"larger than {max_bytes // 2**20} MB")
        data = json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise ValueError(exc.strerror or str(exc)) from None
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ValueError(f"not JSON: {exc}") from None
    except RecursionError:
        raise ValueError("not JSON: nested too deeply") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT or not isinstance(data.get("cards"), dict):
        raise ValueError(f"not a printer build manifest of format {FORMAT}")
    wrong = _shape_problem(data)
    if wrong is not None:
        raise ValueError(f"not a printer build manifest: {wrong}")
    return data


#: the type of each value a manifest holds, by key (cards: by each card's key)
_TOP = {"game": str, "version": (str, type(None)), "options": dict, "stylesheets": dict, "templates": dict}
_CARD = {"name": str, "fields": dict, "front": str, "back": (str, type(None)), "html": str, "files": dict}


def _shape_problem(data: dict[str, Any]) -> str | None:
    """Where ``data`` holds a value of another type than a manifest written by :func:`manifest` (``$.cards.a.fields
    is not an object``), or ``None``. Digests (the values of ``fields``, ``files``, ``stylesheets`` and
    ``templates``) must be strings."""
    names = {str: "a string", dict: "an object"}

    def wrong(value: object, kind: Any, where: str) -> str | None:
        if isinstance(value, kind):
            return None
        said = names.get(kind, "a string or null") if not isinstance(kind, tuple) else "a string or null"
        return f"{where} is not {said}"

    def digests(table: dict[str, object], where: str) -> str | None:
        bad = next((k for k, v in table.items() if not isinstance(v, str)), None)
        return None if bad is None else f"{where}.{bad} is not a string"

    for key, kind in _TOP.items():
        if key in data and (found := wrong(data[key], kind, f"$.{key}")):
            return found
    for key in ("stylesheets", "templates"):
        if found := digests(data.get(key, {}), f"$.{key}"):
            return found
    for card_id, card in data["cards"].items():
        where = f"$.cards.{card_id}"
        if not isinstance(card, dict):
            return f"{where} is not an object"
        for key, kind in _CARD.items():
            if key in card and (found := wrong(card[key], kind, f"{where}.{key}")):
                return found
        for key in ("fields", "files"):
            if found := digests(card.get(key, {}), f"{where}.{key}"):
                return found
    return None
