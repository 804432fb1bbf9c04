"""The HTML of the faces ``printer serve`` shows, held out of memory: :class:`HeldFaces`.

Every card's front and back HTML is kept for as long as the card is shown, so that its picture can be rendered
when a page asks for it. Held as Python strings, a project whose template prints large faces (1,000 cards of 2 MB
each) would take gigabytes; here each face is held as :class:`printer.sheets.faces.store.FaceHtml` holds a build's
faces: the first 2 MB as they are, the rest deflated in a nameless spill file (:class:`printer.spill.Spill`), read
back when a picture is rendered. The spill file is made in ``build/.cache/serve`` (nameless: nothing is left there).
"""

from __future__ import annotations

import threading
from collections.abc import Iterable
from pathlib import Path

from printer.sheets.faces.store import FaceHtml
from printer.spill import Spill


class HeldFaces:
    """Face HTML by picture key, with each face's length in characters (:meth:`chars`). Thread-safe.

    Faces are only added (a picture key names one HTML for good); :meth:`keep` drops all but the faces named,
    once twice as many are held (the spill file is then made again).
    """

    def __init__(self, folder: Path | None = None) -> None:
        #: where the spill file is made, once the faces are over 2 MB (on disk: the system's temporary folder, the
        #: default, may be memory)
        self.folder = folder
        self._lock = threading.Lock()
        self._html: FaceHtml | None = None
        self._chars: dict[str, int] = {}
        self._size = 0  # characters held
        self._spilling = False  # whether a spill file holds the faces

    def _set_aside(self, html: FaceHtml) -> bool:
        """Keep ``html``'s faces in a new spill file from now on; whether it could be made."""
        try:
            if self.folder is not None:
                self.folder.mkdir(parents=True, exist_ok=True)
            html.set_aside(Spill(self.folder))
        except OSError:  # no folder to write in: the faces stay in memory, deflated
            return False
        return True

    def put(self, key: str, html: str) -> None:
        with self._lock:
            if key not in self._chars:
                if self._html is None:
                    self._html = FaceHtml()
                self._html[key] = html
                self._chars[key] = len(html)
                self._size += len(html)
                if not self._spilling and self._size > FaceHtml.RAW_BUDGET:  # past what is held as it is
                    self._spilling = self._set_aside(self._html)

    def get(self, key: str) -> str | None:
        """The HTML of ``key``, or ``None`` when none is held (or the spill file cannot be read)."""
        with self._lock:
            try:
                return None if self._html is None else str(self._html[key])
            except (KeyError, OSError):
                return None

    def chars(self, key: str) -> int:
        """The length of the HTML of ``key`` in characters (0 when none is held)."""
        return self._chars.get(key, 0)

    def __contains__(self, key: object) -> bool:
        return key in self._chars

    def __len__(self) -> int:
        return len(self._chars)

    def keep(self, live: Iterable[str], slack: int = 1_000) -> bool:
        """Drop every face but those of ``live`` once more than ``len(live) + slack`` faces are held; whether
        faces were dropped."""
        live = set(live)
        with self._lock:
            if len(self._chars) <= 2 * len(live) + slack:
                return False
            html, chars = FaceHtml(), dict[str, int]()
            for key in live:
                if key in self._chars and self._html is not None:
                    html[key] = self._html[key]
                    chars[key] = self._chars[key]
            self._html, self._chars, self._size = html, chars, sum(chars.values())
            self._spilling = self._size > FaceHtml.RAW_BUDGET and self._set_aside(html)
            return True
