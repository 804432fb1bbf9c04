"""What writing a job's sheets gave: its problems and what it left for a later build to tidy."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from printer.problems import Problem


@dataclass
class SheetsOutcome:
    """What :func:`printer.sheets.assemble.build_sheets` gave: the ``problems`` found, and what an untidy build
    (``tidy`` false: a watch's save) left for a tidy one. ``untidy_faces``: faces edits laid out one by one, to be
    laid out again together (:func:`printer.sheets.output.cached.scattered`); ``write_whole``: the PDF, updated edit
    after edit, has grown past :data:`printer.sheets.output.imposition.GROWN` and is to be written whole again.
    ``named``: the files the faces show (each card's art, what their HTML names: :func:`named_files`) and those
    the sheets' own HTML names (an image the sheet template shows), for the up-to-date check (found with the face
    cache only, which that check needs)."""

    problems: list[Problem] = field(default_factory=list)
    untidy_faces: int = 0
    write_whole: bool = False
    named: list[Path] = field(default_factory=list)

    @property
    def untidy(self) -> bool:
        """Whether a tidy build would do more than this one did (lay faces out again together, write the PDF
        whole)."""
        return self.untidy_faces > 0 or self.write_whole
