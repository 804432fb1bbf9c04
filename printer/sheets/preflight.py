"""What ``printer validate`` checks beyond the schema, so that a valid project also builds.

Each card's front template is rendered to HTML (no PDF) with strict
undefined variables, as ``printer build`` renders it; so is each back the
cards use. A template error (an unknown variable, a missing template, a
syntax error) is reported at the template's file and line with the card it
was rendering; icons named in card text that no ``icons/<name>.svg``
provides and missing art are reported as ``printer build`` reports them
(warnings: build prints a placeholder).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from printer.cards.model import CardSet
from printer.problems import PrinterError, Problem
from printer.project import Project


def preflight(
    project: Project, sets: dict[str, CardSet], paths: list[Path], known: Sequence[Problem] = ()
) -> list[Problem]:
    """Render every card's front and each back in use to HTML; returns the problems found.

    The same template error met by many cards is reported once, with the number of other cards it hits. A problem
    at a place ``known`` already reports (art that validation found missing) is not repeated.
    """
    reported = {p.where for p in known}
    from printer.cards.catalog import art_roots
    from printer.sheets.render import Renderer

    problems: list[Problem] = []
    for game_id, cards in sets.items():
        renderer = Renderer(project.games[game_id], art_roots(project, paths))
        seen: dict[tuple[str, str], list] = {}
        backs: dict[str, object] = {}

        def note(exc: PrinterError, what: str, seen: dict = seen) -> None:
            for problem in exc.problems or [Problem(what, str(exc), code="template")]:
                key = (problem.where, problem.message)
                if key in seen:
                    seen[key][1] += 1
                else:
                    seen[key] = [problem, 0]

        for card in cards:
            try:
                renderer.front(card)
            except PrinterError as exc:
                note(exc, card.where)
            backs.setdefault(renderer.back_name(card), card)
        for back in backs:
            try:
                renderer.back(back)
            except PrinterError as exc:
                note(exc, f"back {back!r}")
        for problem, more in seen.values():
            if more:
                problem = Problem(
                    problem.where,
                    f"{problem.message} (and {more} more card{'s' * (more != 1)})",
                    problem.hint,
                    problem.severity,
                    problem.code,
                )
            problems.append(problem)
        problems += [p for p in renderer.problems if p not in problems]
    return [p for p in problems if p.where not in reported]
