"""Card files known to pass their schema (:class:`Verdicts`), so that reading them again skips the schema check.

Checking cards against their JSON Schema is most of the work of reading them: about a third of the CPU time of
``printer validate --no-render`` on a published catalogue of 3,535 cards. A JSON card file whose every card passed
is remembered by a SHA-256 of everything that verdict depends on:

- the file's bytes;
- the game and the schema file each of its cards was checked against, in order, and that schema's contents;
- the contents of every schema the project's store holds (:meth:`printer.cards.schema.SchemaStore.digest`), which
  its ``$ref`` may reach;
- printer's version and the code that reads and checks cards (:data:`CODE`), and the jsonschema-rs library file.

A file read again with the same digest has its schema check skipped; everything else (duplicate ids, art, the
limits on fields) is checked as before. A file with any problem is never remembered. Spreadsheets are not
remembered: their cells are typed by the schema as they are checked.

Where: ``$XDG_CACHE_HOME/printer/verdicts/known`` (:func:`printer.paths.user_cache_folder`), in a folder of the
user's own made with mode 0700 and refused when another user owns it or others may write to it
(:func:`printer.paths.private_folder`). Never in a project's folder: a project from a stranger could
otherwise ship a verdict that its invalid cards are valid. The digests name content, not places, so one list
serves every project; it keeps the :data:`LIMIT` most recent and is replaced atomically. A list that cannot be
read or written is ignored: the cards are checked, as without it.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Iterable
from importlib.util import find_spec
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from printer.cards.schema import SchemaStore

#: the verdicts kept at most (the oldest go first); a line is 65 bytes
LIMIT = 5_000
#: the modules whose code decides how a card file is read and checked (relative to the package)
CODE = ("cards/load.py", "cards/schema.py", "fastschema.py", "cards/verdicts.py")


def _tag() -> bytes:
    """What every verdict depends on besides the project: printer's version, its checking code and jsonschema-rs."""
    from printer import __version__

    digest = hashlib.sha256(__version__.encode())
    package = Path(__file__).resolve().parent.parent
    for name in CODE:
        try:
            digest.update((package / name).read_bytes())
        except OSError:
            digest.update(b"unreadable")
    try:  # found, not imported: a run whose files all have their verdict never loads it
        origin = find_spec("jsonschema_rs").origin  # type: ignore[union-attr]  # None: caught below
        found = os.stat(origin or "")
        digest.update(f"{origin}\0{found.st_size}\0{found.st_mtime_ns}".encode())
    except (ImportError, AttributeError, OSError, TypeError, ValueError):
        digest.update(b"no jsonschema-rs")
    return digest.digest()


class Verdicts:
    """The card files known to pass their schema (module docstring), for one :class:`SchemaStore`; ``folder`` is
    where the list is kept (default: the user's cache folder)."""

    def __init__(self, store: SchemaStore, folder: Path | None = None) -> None:
        from printer.paths import user_cache_folder

        self.store = store
        self.folder = folder or user_cache_folder("verdicts")
        self._known: dict[str, None] | None = None  # read when first asked
        self._added: list[str] = []
        self._base: bytes | None = None
        self._schemas: dict[Path, bytes] = {}

    def key(self, file: Path, checks: Iterable[tuple[str, Path]]) -> str | None:
        """The digest of ``file``'s verdict when its cards are checked as ``checks`` (a ``(game id, schema file)``
        per card, in order), or ``None`` when the file or a schema cannot be read."""
        if self._base is None:
            self._base = _tag() + self.store.digest().encode()
        digest = hashlib.sha256(self._base)
        try:
            digest.update(hashlib.sha256(file.read_bytes()).digest())
            for game, schema in checks:
                if schema not in self._schemas:
                    self._schemas[schema] = hashlib.sha256(repr(self.store.schema(schema)).encode()).digest()
                digest.update(f"\0{game}\0{schema}\0".encode() + self._schemas[schema])
        except (OSError, ValueError, LookupError):
            return None
        return digest.hexdigest()

    def known(self, key: str) -> bool:
        """Whether a file with the verdict ``key`` passed before."""
        if self._known is None:
            self._known = dict.fromkeys(self._read())
        return key in self._known

    def add(self, key: str) -> None:
        """Remember that a file with the verdict ``key`` passed (kept by :meth:`save`)."""
        if not self.known(key):
            self._added.append(key)
            assert self._known is not None
            self._known[key] = None

    def save(self) -> None:
        """Write the list with what :meth:`add` gave since it was read (atomically; nothing when nothing was added
        or the folder is refused)."""
        if not self._added or self._known is None:
            return
        from printer.fsutil import atomic_write_text
        from printer.paths import private_folder

        if private_folder(self.folder) is None:
            return
        lines = list(dict.fromkeys([*self._read(), *self._added]))[-LIMIT:]
        try:
            atomic_write_text(self.folder / "known", "".join(line + "\n" for line in lines))
        except OSError:
            return
        self._added.clear()

    def _read(self) -> list[str]:
        from printer.paths import private_folder

        if private_folder(self.folder) is None:
            return []
        try:
            with open(self.folder / "known", "rb") as held:
                text = held.read(LIMIT * 66).decode("ascii")
        except (OSError, UnicodeDecodeError):
            return []
        return [line for line in text.split("\n") if len(line) == 64]
