"""``printer import`` and ``printer export cards``: card files written from an importer's result, a spreadsheet from card files."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from printer.api.common import check_paths_exist, usage_error
from printer.api.results import (
    CardsExport,
    ImportOutcome,
)
from printer.problems import UsageError, counted, errors
from printer.project import Project

if TYPE_CHECKING:
    from printer.cards.importing import ImportResult


def import_cards(
    project: Project | None,
    game: str,
    result: ImportResult,
    summary: Callable[[list[dict[str, Any]]], str],
    out: Path,
    force: bool = False,
    dry_run: bool = False,
) -> ImportOutcome:
    """Write an importer's ``result`` (``problems``, ``cards``, ``by_file()``) as card files of ``game`` into ``out``.

    ``summary`` is the importer's one-line account of the cards. Card files
    name the game's schema: the project's, else printer's bundled one.
    Files are written atomically; a file that would change needs ``force``
    (see :func:`write_card_files`).
    """
    from printer.cards.importing import card_file_text
    from printer.paths import bundled_schema

    if project is not None and game in project.games:
        schema = project.games[game].schema
    else:
        schema = bundled_schema(game, "card.schema.json")
    files = result.by_file()
    uri = schema.resolve().as_uri()
    texts = {name: card_file_text(game, cards, uri) for name, cards in files.items()}
    status = write_card_files(texts, out, force, dry_run)
    needs_force = [name for name in files if status[name] == "changed" and not force]
    counts = {name: (status[name], len(cards)) for name, cards in files.items()}
    return ImportOutcome(out, counts, needs_force, summary(result.cards), list(result.problems), dry_run)


def export_cards(project: Project, game: str, out: Path, cards_dir: Path | None = None) -> CardsExport:
    """Write ``game``'s cards (from ``cards_dir``, default the game's card folder) to the spreadsheet ``out``.

    ``out`` ends in ``.xlsx``, ``.csv`` or ``.ods`` (:mod:`printer.cards.export`). Cards with errors are reported
    in the result and nothing is written. Raises :class:`UsageError` for another ending, an unknown game, or an
    ``out`` inside the card folder read: there it would replace a card file, or be read beside the cards it holds
    (every card twice).
    """
    from printer.cards.catalog import load_cards, schema_store
    from printer.cards.export import FORMATS
    from printer.cards.export import export_cards as write_sheet
    from printer.paths import is_inside

    if out.suffix.lower() not in FORMATS:
        raise usage_error(f"cannot export to {out.name}", "write a file ending in .xlsx, .csv or .ods")
    spec = project.game(game)
    check_paths_exist([cards_dir] if cards_dir else [], "--cards")
    source = cards_dir or spec.cards
    if is_inside(out, [source]):
        raise usage_error(
            f"{out} is inside the card folder {source}: it would replace a card file or hold every card a second time",
            f"write it outside {source}, then move it there in place of the files it replaces",
            "--to",
        )
    store = schema_store(project)
    sets, problems = load_cards(project, [source], game, store=store)
    if errors(problems):
        return CardsExport(out, 0, problems)
    count = write_sheet(list(sets.get(game, [])), store, spec.schema, out)
    return CardsExport(out, count, problems)


def write_card_files(texts: dict[str, str], out: Path, force: bool, dry_run: bool) -> dict[str, str]:
    """Write ``{file name: text}`` into ``out``; returns ``{file name: status}``.

    A file's status is ``new``, ``changed`` or ``unchanged`` (same text:
    left alone, never rewritten). A file that would change needs ``force``:
    without it a :class:`UsageError` is raised before anything is written,
    except with ``dry_run``, which never writes and lets the caller report. An ``out`` in printer's bundled files
    is a :class:`UsageError` too (:func:`printer.paths.bundled_problem`: no writer changes them).
    """
    from printer.fsutil import atomic_write_text
    from printer.paths import bundled_problem

    if out.exists() and not out.is_dir():
        raise usage_error(f"--out {out} is a file, not a folder")
    bundled = bundled_problem(out, "--out")
    if bundled is not None:
        raise UsageError(bundled.message, [bundled])
    status = {}
    for name, text in texts.items():
        path = out / name
        old = path.read_text(encoding="utf-8", errors="replace") if path.is_file() else None
        status[name] = "new" if old is None else "unchanged" if old == text else "changed"
    conflicts = [name for name, st in status.items() if st == "changed" and not force]
    if conflicts and not dry_run:
        raise usage_error(
            f"{counted(len(conflicts), 'file')} in {out} would be overwritten: " + ", ".join(conflicts),
            "pass --force to overwrite them, or --dry-run to see the changes",
        )
    if not dry_run:
        for name, text in texts.items():
            if status[name] != "unchanged":
                atomic_write_text(out / name, text)
    return status
