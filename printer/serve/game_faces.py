"""One game's faces as ``printer serve`` renders them (:class:`GameFaces`): the game's print job and the fingerprint its
pictures are named by, and the same for each component whose pieces it shows (tokens, tiles, boards), at that
component's trim size."""

from __future__ import annotations

from typing import TYPE_CHECKING

from printer.cards.model import Card
from printer.problems import Problem
from printer.project import Project
from printer.serve.pictures import game_fingerprint, game_job
from printer.sheets.cache import FaceIdentity
from printer.sheets.preflight import declared_components

if TYPE_CHECKING:
    from printer.sheets.job import SheetJob

#: what a picture key is rendered with: ``(game, fingerprint, component)``, the component ``None`` for a card's face
FacePlace = tuple[str, str, str | None]


class GameFaces:
    """One game's renderer, its fingerprint and the HTML memo; the same for each of its components' pieces (tokens,
    tiles, boards: :mod:`printer.sheets.components`), made when a piece is first shown."""

    def __init__(self, project: Project, game_id: str, dpi: int, lang: str | None = None):
        self.project, self.game_id, self.dpi, self.lang = project, game_id, dpi, lang
        self.job = game_job(project, project.games[game_id], lang)
        self.renderer = self.job.renderer
        #: the files' content digests the faces are named by (kept for the game: each file read once per change)
        self.identity = FaceIdentity()
        self.base_url = self.job.engine.base.resolve().as_uri() + "/"
        self.fingerprint = game_fingerprint(self.job, dpi, self.identity)
        #: the faces of each card rendered: (front key, back key, problems, error), by the card's data
        self.html: dict[str, tuple[str | None, str | None, list[Problem], str | None]] = {}
        #: printer.toml's components of the game: a card one holds is a piece, shown as its component's sheets print
        #: it (at the component's trim size, templates shown ``component``)
        self.components = declared_components(project, project.games[game_id])
        self._pieces: dict[str, tuple[SheetJob, str]] = {}  # a component's name -> (its job, its fingerprint)

    def piece_of(self, card: Card) -> str | None:
        """The name of the component ``card`` is a piece of, as a build splits them; ``None``: a card of the sheets."""
        found = next((c for c in self.components if c.holds(card.data)), None)
        return found.name if found is not None else None

    def job_of(self, piece: str | None) -> SheetJob:
        """The job that renders the faces of component ``piece``'s pieces (``None``: of the cards)."""
        return self.job if piece is None else self._piece(piece)[0]

    def fingerprint_of(self, piece: str | None) -> str:
        """The fingerprint (:func:`~printer.serve.pictures.game_fingerprint`) of component ``piece``'s faces
        (``None``: the cards')."""
        return self.fingerprint if piece is None else self._piece(piece)[1]

    def place(self, piece: str | None) -> FacePlace:
        """What a face of component ``piece``'s pieces (``None``: of the cards) is rendered with."""
        return self.game_id, self.fingerprint_of(piece), piece

    def _piece(self, name: str) -> tuple[SheetJob, str]:
        kept = self._pieces.get(name)
        if kept is None:
            component = next(c for c in self.components if c.name == name)
            job = game_job(self.project, self.project.games[self.game_id], self.lang, component)
            kept = self._pieces[name] = (job, game_fingerprint(job, self.dpi, self.identity))
        return kept
