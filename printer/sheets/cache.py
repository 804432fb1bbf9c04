"""Rendered faces kept between builds, by content: an edit re-renders only the faces it changes.

A face's *key* is a SHA-256 of everything that can change its rendering:

- its HTML as the game's template wrote it from the card's data;
- the content of every file that HTML names (icons, SVG art; prepared
  raster art is named by its source's size and modification time);
- the job's *context*: the content of the game's stylesheets and the files
  their ``url()``\\ s name, the extra CSS and WeasyPrint options, the face
  page's size, printer's and WeasyPrint's versions.

A hit gives the PDF page the face was laid out on and the text-fit sizes
found for it, so warnings stay the same. Laid-out batches are stored whole
(one blob per batch, named by its own SHA-256, checked on every read: a
corrupt or half-written entry is dropped and rebuilt, never trusted); each
face entry points into one. The store is a ``diskcache`` under
``build/.cache/faces``, bounded (:data:`SIZE_LIMIT`) with least-recently-used
eviction; SQLite's locking lets two builds use it at once.

Beside the store, ``recent.json`` keeps the small entries (faces, warnings, front HTML) the last build used, in
one file: a build reads it at once instead of asking SQLite for each of its faces two times (a 900-card rebuild:
about 1,800 lookups, a fifth of a one-card edit's time). An entry it names is as good as the stored one (keys name
content, and batch PDFs are still read from the store and checked); a damaged or foreign file is ignored.

Two kinds of small entries spare an edit's build from making keys again: a card front's face key
(:class:`FaceKeyEntry`, ``ident:``), named by what the front's HTML is made from (the card's data, the templates'
signature, the options, the job's context) and valid while each file its HTML names keeps its size and time; and
the sheets' key by what their HTML is made from (``text:``, :meth:`printer.sheets.output.cached.CachedFaces.chrome_key_of`).

Nothing in the cache is a pickle: a ``build/.cache`` may come with a stranger's project, and unpickling runs
code. Entries are bytes (batch PDFs, documents) or JSON text; the store refuses to unpickle (:class:`_NoPickle`),
so an entry written by anything else is a miss.
"""

from __future__ import annotations

import collections
import contextlib
import functools
import hashlib
import json
import re
import threading
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import unquote, urljoin, urlparse

from printer.paths import url2pathname

if TYPE_CHECKING:
    from printer.problems import Problem
    from printer.sheets.fit import Overflow

#: bytes the face cache may hold before the least recently used entries go
SIZE_LIMIT = 2 * 1024**3
#: entries :meth:`FaceCache.deferred` holds before it writes them (a card front's HTML entry is about 1.5 kB)
DEFERRED_MOST = 500
#: entries a process keeps a copy of (faces, warnings, HTML: small; the batch PDFs are kept apart, once each)
MEMORY_ENTRIES = 50_000
#: the file of the last build's small entries, in the cache's folder, and the largest one read (bytes)
RECENT_FILE, RECENT_LIMIT = "recent.json", 256 * 2**20
_REFERENCE = re.compile(
    r"""(?:src|href|data)\s*=\s*["']([^"']+)["']|url\(\s*["']?([^"')\s]+)""", re.IGNORECASE | re.ASCII
)


class FileHashes:
    """SHA-256 of files by path, read once per (path, size, modification time)."""

    def __init__(self) -> None:
        self._seen: dict[str, tuple[int, int, str]] = {}

    def digest(self, path: Path) -> str:
        try:
            stat = path.stat()
        except OSError:
            return "missing"
        seen = self._seen.get(str(path))
        if seen and seen[:2] == (stat.st_size, stat.st_mtime_ns):
            return seen[2]
        try:
            digest = hashlib.sha256(path.read_bytes()).hexdigest()
        except OSError:
            digest = "unreadable"
        self._seen[str(path)] = (stat.st_size, stat.st_mtime_ns, digest)
        return digest


def _references(text: str) -> list[tuple[str, str]]:
    """``_REFERENCE.findall(text)``, found quicker: the pattern is only tried where ``src``, ``href``, ``data`` or
    ``url(`` starts (found by ``str.find`` in the lower-cased text), not at every character (60 us -> 10 us for
    a 1 kB card face)."""
    lowered = text.lower()
    if len(lowered) != len(text):  # a letter whose lower case is longer (U+0130): the indexes would not match
        return _REFERENCE.findall(text)
    starts = []
    for word in ("src", "href", "data", "url("):
        at = lowered.find(word)
        while at != -1:
            starts.append(at)
            at = lowered.find(word, at + 1)
    found = []
    end = 0
    for at in sorted(starts):
        if at < end:
            continue
        match = _REFERENCE.match(text, at)
        if match:
            found.append((match.group(1) or "", match.group(2) or ""))
            end = match.end()
    return found


#: the references found in texts, by a digest of the text and the base URL (a watching build and ``printer serve``
#: ask again for every face they did not change); by digest, so that what is kept is small however large the faces
_FOUND: collections.OrderedDict[bytes, tuple[Path, ...]] = collections.OrderedDict()
#: texts whose references are kept at most (the least recently used go first)
FOUND_KEPT = 20_000
_FOUND_LOCK = threading.Lock()


def referenced_files(text: str, base_url: str) -> tuple[Path, ...]:
    """The local files ``text`` (HTML or CSS) names through ``src``/``href``/``data`` and ``url()``, resolved."""
    digest = hashlib.blake2b(base_url.encode(), digest_size=16)
    digest.update(b"\0" + text.encode())
    key = digest.digest()
    with _FOUND_LOCK:
        found = _FOUND.get(key)
        if found is not None:
            _FOUND.move_to_end(key)
            return found
    found = _referenced_files(text, base_url)
    with _FOUND_LOCK:
        _FOUND[key] = found
        if len(_FOUND) > FOUND_KEPT:
            _FOUND.popitem(last=False)
    return found


def _referenced_files(text: str, base_url: str) -> tuple[Path, ...]:
    found = []
    for groups in _references(text):
        ref = (groups[0] or groups[1]).strip()
        if ref and not ref.startswith(("data:", "#")):
            path = _local_file(ref, base_url)
            if path is not None:
                found.append(path)
    return tuple(found)


@functools.lru_cache(maxsize=4096)
def _local_file(ref: str, base_url: str) -> Path | None:
    """The local file ``ref`` names from ``base_url``, or ``None`` (another scheme): each reference resolved once,
    not once per face naming it (900 faces naming the same icons: 0.06 s of a one-card edit's build)."""
    url = urlparse(urljoin(base_url, ref))
    return Path(url2pathname(unquote(url.path))) if url.scheme == "file" else None


class FaceIdentity:
    """What names a face by its content, for the face cache and the local server's pictures alike: a job's
    *context* (:meth:`context`: its options and the content of its stylesheets and of the files they name) and a
    face's *key* in it (:meth:`key`: its HTML and the content of the files it names), SHA-256 in hex. ``files``
    reads each file's content digest once per size and modification time."""

    def __init__(self, files: FileHashes | None = None) -> None:
        self.files = files if files is not None else FileHashes()

    def context(self, parts: Iterable[object], stylesheets: Iterable[Path]) -> str:
        """The context digest of ``parts`` (options, versions, sizes; by ``repr``) and the files ``stylesheets``
        (stylesheets, templates), with the files each names (``url()``, ``src``)."""
        h = hashlib.sha256()
        for part in parts:
            h.update(repr(part).encode())
        for sheet in stylesheets:
            h.update(str(sheet).encode() + self.files.digest(sheet).encode())
            try:
                text = sheet.read_text(encoding="utf-8", errors="replace")
            except OSError:
                continue
            for path in referenced_files(text, sheet.as_uri()):
                h.update(str(path).encode() + self.files.digest(path).encode())
        return h.hexdigest()

    def key(self, html: str, context: str, base_url: str) -> str:
        """The key of a face of ``html`` (its relative references read from ``base_url``) in ``context``."""
        h = hashlib.sha256(context.encode())
        h.update(html.encode())
        for path in referenced_files(html, base_url):
            if ".cache/art/" not in path.as_posix():  # prepared art is named by its source's size and time
                h.update(str(path).encode() + self.files.digest(path).encode())
        return h.hexdigest()


def _open_store(folder: Path, size_limit: int) -> Any:
    """The face store under ``folder`` (a ``diskcache.Cache``). A store whose database is not one (truncated,
    overwritten: a ``sqlite3.DatabaseError`` other than an ``OperationalError``, which a lock raises) holds nothing
    a build needs: its files are removed and an empty store made, so the build lays its faces out again."""
    import sqlite3

    import diskcache

    def store() -> Any:
        return diskcache.Cache(
            str(folder), size_limit=size_limit, eviction_policy="least-recently-used", disk=_no_pickle_disk()
        )

    try:
        return store()
    except sqlite3.DatabaseError as exc:
        if isinstance(exc, sqlite3.OperationalError):  # locked, or not openable: another process's, not broken
            raise
        for name in ("cache.db", "cache.db-wal", "cache.db-shm"):
            (folder / name).unlink(missing_ok=True)
        return store()


class FaceCache:
    """Laid-out faces by key (see the module docstring), stored under ``folder``."""

    def __init__(self, folder: Path, size_limit: int = SIZE_LIMIT):
        self.store = _open_store(Path(folder), size_limit)
        self.files = FileHashes()
        self.identity = FaceIdentity(self.files)
        self.hits = 0
        self.misses = 0
        self._blobs: dict[str, bytes] = {}  # one bytes object per batch, so that a build opens each batch PDF once
        #: each batch's warnings by its blob, found once a process: its faces (hundreds a batch) share them, and a
        #: batch that gave none has no entry to look up (a lookup in the store for each face, 900 a one-card edit)
        self._warnings: dict[str, list[Problem]] = {}
        #: the sheets' chrome's key by a digest of what its HTML is made from, found by this process's builds
        #: (:meth:`printer.sheets.output.cached.CachedFaces.chrome_key_of`): a watch renders that HTML once
        self.chrome_keys: dict[str, tuple[str, list[tuple[str, int | None, int | None]]]] = {}
        #: the PDFs this process's builds wrote: target -> (file number, size, times), digest, SHA-256 state
        #: (:func:`printer.sheets.output.imposition.previous_output` hashes again only a file it did not write)
        self.written: dict[str, tuple[tuple[int, int, int, int], str, Any]] = {}
        # entries read or written by this process (face, warnings and HTML entries: their keys name their
        # content, so a copy kept here is as good as the stored one): a watching process reads each once
        self._copies: dict[str, object] = {}
        self.folder = Path(folder)
        self._used: set[str] = set()  # entries read or written since the last save of the recent file
        self._recent: set[str] | None = None  # the recent file's entries, read when an entry is first asked for
        self._deferred: list[tuple[str, str]] | None = None  # entries to write together (:meth:`deferred`)

    @property
    def _seen(self) -> dict[str, object]:
        """This process's copies of entries, the recent file's put in the first time (an up-to-date build, which
        asks for no entry, does not read it: 0.05 s for 900 cards)."""
        if self._recent is None:
            self._recent = set(self._read_recent())
        return self._copies

    def _read_recent(self) -> list[str]:
        """Put the recent file's entries into this process's copies (an entry it holds already is kept); their
        names (none when it is unreadable)."""
        path = self.folder / RECENT_FILE
        try:
            if path.stat().st_size > RECENT_LIMIT:
                return []
            entries = json.loads(path.read_bytes())
            decoded = {name: _decode(name, value) for name, value in entries.items()}
        except Exception:  # absent, damaged or not ours: the store answers instead
            return []
        for name, value in decoded.items():
            self._copies.setdefault(name, value)
        return list(decoded)

    def save_recent(self) -> None:
        """Write the entries this process used since the last save to the recent file (atomically), when they
        are not the ones it holds already."""
        from printer.fsutil import atomic_write_bytes

        used, self._used = self._used, set()
        if not used or used == self._recent:  # nothing used: the recent file may be unread
            return
        try:
            entries = {name: _encode(name, self._seen[name]) for name in sorted(used) if name in self._seen}
            atomic_write_bytes(self.folder / RECENT_FILE, json.dumps(entries, ensure_ascii=False).encode())
            self._recent = used
        except Exception:  # a full disk costs the next build its speed only
            pass

    def _get(self, name: str) -> Any:
        """The stored entry ``name`` (``None`` when absent), from this process's copy when it has one."""
        self._used.add(name)
        if name in self._seen:
            return self._seen[name]
        stored = self.store.get(name)
        value = _decode(name, json.loads(stored)) if isinstance(stored, str) else None
        if value is not None:
            if len(self._seen) >= MEMORY_ENTRIES:
                self._seen.clear()
            self._seen[name] = value
        return value

    def _set(self, name: str, value: object) -> None:
        text = json.dumps(_encode(name, value), ensure_ascii=False)
        if self._deferred is not None:
            self._deferred.append((name, text))
            if len(self._deferred) >= DEFERRED_MOST:  # written now: a large build's faces are not all held
                self._write(self._deferred)
                self._deferred = []
        else:
            self.store.set(name, text)
        self._used.add(name)
        if len(self._seen) >= MEMORY_ENTRIES:
            self._seen.clear()
        self._seen[name] = value

    @contextlib.contextmanager
    def deferred(self) -> Iterator[None]:
        """Inside, the entries set are kept in this process (read back from its copies) and written to the store
        together, in one transaction, as it ends or :data:`DEFERRED_MOST` at a time: the HTML and keys of a build's
        card fronts, one entry each, took 0.048 s for 900 written one by one and 0.018 s together. A failure to
        write them is ignored, as any failure to store is: the next build lays those faces out again."""
        if self._deferred is not None:  # inside another: written when that one ends
            yield
            return
        self._deferred = []
        try:
            yield
        finally:
            entries, self._deferred = self._deferred, None
            self._write(entries)

    def _write(self, entries: list[tuple[str, str]]) -> None:
        """Write ``entries`` (name, stored text) to the store in one transaction."""
        if not entries:
            return
        try:
            with self.store.transact():
                for name, text in entries:
                    self.store.set(name, text)
        except Exception:  # a full disk or a locked database only costs the next build its speed
            pass

    def _forget(self, name: str) -> None:
        self._seen.pop(name, None)
        self.store.delete(name)

    def close(self) -> None:
        self.save_recent()
        self.store.close()

    def context(self, parts: Iterable[object], stylesheets: Iterable[Path], base_url: str) -> str:
        """The job's context digest: ``parts`` (options, versions, sizes) and the stylesheets with what they name
        (:meth:`FaceIdentity.context`)."""
        return self.identity.context(parts, stylesheets)

    def key(self, html: str, context: str, base_url: str) -> str:
        """The key of a face of ``html`` in a job of ``context`` (:meth:`FaceIdentity.key`)."""
        return self.identity.key(html, context, base_url)

    def get(self, key: str) -> tuple[bytes, int, dict[str, float], dict[str, Overflow], list[Problem]] | None:
        """``(batch pdf, page index, text-fit sizes by box name, unfit boxes by name, the batch's warnings)``,
        or ``None`` for a miss."""
        try:
            entry = self._get("face:" + key)
            if entry is None:
                self.misses += 1
                return None
            blob, index, sizes, unfit = entry
            data = self._blobs.get(blob) or self.store.get("blob:" + blob)
            if blob not in self._blobs and (not isinstance(data, bytes) or hashlib.sha256(data).hexdigest() != blob):
                self.store.delete("blob:" + blob)
                self._forget("face:" + key)
                self.misses += 1
                return None
        except Exception:  # a damaged entry (unpickling fails, a half-written file): rebuilt, never trusted
            self.misses += 1
            return None
        self._blobs[blob] = data
        self.hits += 1
        warnings = self._warnings.get(blob)
        if warnings is None:
            try:
                warnings = self._get("warnings:" + blob) or []
            except Exception:
                warnings = []
            self._warnings[blob] = warnings
        elif warnings:
            self._used.add("warnings:" + blob)  # kept in the recent file as a lookup would keep it
        return data, index, sizes, unfit, warnings

    def put(
        self,
        data: bytes,
        faces: dict[str, tuple[int, dict[str, float], dict[str, Overflow]]],
        warnings: list[Problem] | None = None,
    ) -> None:
        """Store a laid-out batch ``data``, the ``warnings`` laying it out gave, and, for each face key,
        ``(page index, sizes, unfit)``."""
        blob = hashlib.sha256(data).hexdigest()
        try:
            with self.store.transact():  # one transaction for the batch and its faces (450 a worker's batch)
                self.store.set("blob:" + blob, data)
                self._warnings[blob] = list(warnings or [])
                if warnings:
                    self._set("warnings:" + blob, list(warnings))
                for key, (index, sizes, unfit) in faces.items():
                    self._set("face:" + key, (blob, index, sizes, unfit))
        except Exception:  # a full disk or a locked database only costs the next build its speed
            pass

    def get_blob(self, key: str) -> bytes | None:
        """A whole document stored by :meth:`put_blob` (the sheets without their faces), checked, or ``None``."""
        try:
            entry = self.store.get("doc:" + key)
            if not isinstance(entry, bytes):
                return None
            digest, data = entry[:64].decode("ascii"), entry[64:]
            if hashlib.sha256(data).hexdigest() != digest:
                self.store.delete("doc:" + key)
                return None
            return data
        except Exception:
            return None

    def put_blob(self, key: str, data: bytes) -> None:
        """Store a whole document under ``key`` with its own digest."""
        try:
            self.store.set("doc:" + key, hashlib.sha256(data).hexdigest().encode("ascii") + data)
        except Exception:
            pass

    def get_html(self, key: str) -> tuple[str, list[Problem]] | None:
        """A card's front HTML and the renderer's warnings for it, stored by :meth:`put_html`, or ``None``."""
        try:
            entry = self._get("html:" + key)
            if isinstance(entry, tuple) and len(entry) == 2 and isinstance(entry[0], str):
                return entry
        except Exception:
            pass
        return None

    def put_html(self, key: str, html: str, warnings: list[Problem]) -> None:
        """Keep a card's front HTML and the warnings rendering it gave, under ``key``."""
        try:
            self._set("html:" + key, (html, list(warnings)))
        except Exception:
            pass

    def get_text(self, key: str) -> str | None:
        """A text stored by :meth:`put_text` under ``key`` (the sheets' key by what their HTML is made from), or
        ``None``."""
        try:
            entry = self._get("text:" + key)
            return entry if isinstance(entry, str) else None
        except Exception:
            return None

    def put_text(self, key: str, text: str) -> None:
        """Keep ``text`` under ``key``."""
        try:
            self._set("text:" + key, text)
        except Exception:
            pass

    def get_ident(self, key: str) -> FaceKeyEntry | None:
        """A card front's face key stored by :meth:`put_ident` under ``key``, or ``None``."""
        try:
            entry = self._get("ident:" + key)
            return entry if isinstance(entry, FaceKeyEntry) else None
        except Exception:
            return None

    def put_ident(self, key: str, entry: FaceKeyEntry) -> None:
        """Keep a card front's face key (:class:`FaceKeyEntry`) under ``key``."""
        try:
            self._set("ident:" + key, entry)
        except Exception:
            pass


@dataclass(frozen=True)
class FaceKeyEntry:
    """A card front's key in the face cache, kept so that a build whose card, templates and context did not change
    need not find it again from the face's HTML (:meth:`FaceIdentity.key`: the HTML read for the files it names,
    each file's content hashed): ``html`` is the hex digest of the HTML it was found from
    (:func:`printer.sheets.faces.store.html_digest`), ``face`` the key, and ``files`` the path, size (bytes) and
    modification time (ns) of each file the HTML names, as they were: the entry holds only while each is as it
    was."""

    html: str
    face: str
    files: tuple[tuple[str, int, int], ...]


def _encode(name: str, value: Any) -> Any:
    """An entry as JSON data (see :func:`_decode`)."""
    from dataclasses import asdict

    kind = name.split(":", 1)[0]
    if kind == "face":
        blob, index, sizes, unfit = value
        return [blob, index, sizes, {box: asdict(over) for box, over in unfit.items()}]
    if kind == "html":
        html, warnings = value
        return [html, [p.as_dict() for p in warnings]]
    if kind == "warnings":
        return [p.as_dict() for p in value]
    if kind == "ident":
        return [value.html, value.face, [list(f) for f in value.files]]
    if kind == "text":
        return str(value)
    raise ValueError(f"no JSON form for {kind!r} entries")


def _decode(name: str, data: Any) -> Any:
    """An entry from its JSON data; raises on anything not of the entry's shape."""
    from printer.problems import Problem, Severity
    from printer.sheets.fit import Overflow

    def problems(items: list[dict[str, Any]]) -> list[Problem]:
        return [
            Problem(str(p["where"]), str(p["message"]), p.get("hint"), Severity(p["severity"]), str(p["code"]))
            for p in items
        ]

    kind = name.split(":", 1)[0]
    if kind == "face":
        blob, index, sizes, unfit = data
        if not isinstance(blob, str) or not isinstance(index, int) or not isinstance(sizes, dict):
            raise ValueError(name)
        return blob, index, {str(k): float(v) for k, v in sizes.items()}, {k: Overflow(**v) for k, v in unfit.items()}
    if kind == "html":
        html, warnings = data
        if not isinstance(html, str):
            raise ValueError(name)
        return html, problems(warnings)
    if kind == "warnings":
        return problems(data)
    if kind == "text":
        if not isinstance(data, str):
            raise ValueError(name)
        return data
    if kind == "ident":
        html, face, files = data
        if not isinstance(html, str) or not isinstance(face, str) or not isinstance(files, list):
            raise ValueError(name)
        return FaceKeyEntry(html, face, tuple((str(f), int(size), int(time)) for f, size, time in files))
    raise ValueError(name)


def _no_pickle_disk() -> type[Any]:
    """A ``diskcache.Disk`` that never unpickles: an entry stored as a pickle reads as missing (see the module
    docstring). Keys are strings, values bytes or strings, so printer's own entries are never pickled."""
    import diskcache
    from diskcache.core import MODE_PICKLE

    class _NoPickle(diskcache.Disk):  # type: ignore[misc]  # diskcache has no types: its Disk is Any to mypy
        def fetch(self, mode: int, filename: str | None, value: Any, read: bool) -> Any:
            if mode == MODE_PICKLE:
                raise OSError("a pickled cache entry: not read (printer writes none)")  # diskcache: a miss
            return super().fetch(mode, filename, value, read)

        def get(self, key: Any, raw: bool) -> Any:
            if not raw:
                raise OSError("a pickled cache key: not read (printer writes none)")
            return super().get(key, raw)

    return _NoPickle
