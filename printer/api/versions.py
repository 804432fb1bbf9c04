"""Versions of a card set: the build manifest, what changed since a git revision or a manifest, and reprints.

- Every build writes a manifest beside its PDF (:func:`make_manifest`, :func:`after_sheets`, :mod:`printer.sheets.manifest`).
- :func:`changes` compares the cards now with the cards at ``--since REF``: a git revision of the project
  (its files taken with ``git archive`` into a temporary folder, the old cards read and their faces rendered
  there with the current printer, so that only the project's changes count) or a manifest file written by
  an earlier build (no old values then: a field is named as changed, its new value shown).
- ``build --since REF`` prints the cards whose printed face changed (or that are new), with their backs,
  and a changelog page (:func:`reprint_items`, :mod:`printer.sheets.changelog`).
"""

from __future__ import annotations

import os
import subprocess
import tarfile
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from printer.problems import WARNING, Problem, UsageError

if TYPE_CHECKING:
    from printer.project import Game, Project
    from printer.sheets.changes import CardChange
    from printer.sheets.compose import PrintItem, PrintJob
    from printer.sheets.options import PrintOptions

#: git, run without a shell in the project's folder, with no file-system monitor the repository's config may name
_GIT = ("git", "-c", "core.fsmonitor=false", "-C")
#: seconds a git command may take, and the bytes of the project's files at a revision that are read
GIT_TIMEOUT, ARCHIVE_LIMIT = 60, 2 * 2**30


def make_manifest(
    made: list[dict[str, Any]],
    project: Project,
    game: Game,
    job: PrintJob,
    items: Sequence[PrintItem],
    per_sheet: int,
    target: Path,
) -> None:
    """Append to ``made`` the manifest (:func:`printer.sheets.manifest.manifest`) of ``target`` printing ``items``
    ``per_sheet`` a sheet through ``job``. A build calls it while its faces are laid out
    (:func:`printer.sheets.assemble.build_sheets`' ``meanwhile``), so that it costs no time of its own, and
    writes it once the PDF is written (:func:`after_sheets`)."""
    from printer.sheets.manifest import FileDigests, manifest

    files = FileDigests(project.build_dir / ".cache", job.base.resolve().as_uri() + "/")
    made.append(manifest(job, items, project.root, game.id, per_sheet, target.name, _version(project), files))
    files.save()


def _version(project: Project) -> str | None:
    version = project.settings.get("version")
    return None if version is None else str(version)


@dataclass
class ChangesReport:
    """What changed in ``game``'s cards since ``since``: ``changes`` (:class:`printer.sheets.changes.CardChange`,
    sorted by card id), the versions before and now, and ``problems`` met reading either side (warnings)."""

    game: str
    since: str
    changes: list[CardChange] = field(default_factory=list)
    old_version: str | None = None
    version: str | None = None
    problems: list[Problem] = field(default_factory=list)

    @property
    def reprint(self) -> list[CardChange]:
        """The changes whose printed face changed (new cards too): what ``build --since`` prints."""
        return [c for c in self.changes if c.reprint]


def changes(
    project: Project, game_id: str, since: str, options: dict[str, Any] | None = None, lang: str | None = None
) -> ChangesReport:
    """``game_id``'s cards compared with ``since``: a git revision (``HEAD~1``, a tag) of the repository the
    project is in, or the path of a manifest an earlier build wrote. ``options`` are the sheet options as
    ``build`` takes them (the faces' size and bleed count); ``lang`` compares the cards in that language, as
    ``build --lang`` prints them (:mod:`printer.api.languages`), then and now. Raises :class:`UsageError` for an
    unknown game, a revision git does not know (with a hint) or a file that is not a manifest."""
    from printer.sheets.changes import compare

    game = project.game(game_id)
    now, values, problems = snapshot(project, game, options or {}, lang)
    report = ChangesReport(game.id, since, version=_version(project), problems=problems)
    manifest_file = Path(since)
    if since.endswith(".json") or manifest_file.is_file():
        kept = _read_manifest(manifest_file if manifest_file.is_absolute() else Path.cwd() / manifest_file, since)
        if kept.get("game") != game.id:
            raise _bad_revision(since, f"a manifest of {kept.get('game')!r}, not of {game.id!r}")
        report.old_version = kept.get("version")
        report.changes = compare(kept, now, None, values)
        return report
    with _checkout(project, since) as old_root:
        from printer.project import load_project

        old_values: dict[str, dict[str, Any]] = {}
        old: dict[str, Any] = {"cards": {}}
        try:
            old_project = load_project(old_root)
        except UsageError as exc:
            report.problems += [_at_revision(p, old_root, since) for p in exc.problems]
            old_project = None
        if old_project is not None and game.id in old_project.games:
            old, old_values, more = snapshot(old_project, old_project.games[game.id], options or {}, lang)
            report.problems += [_at_revision(p, old_root, since) for p in more]
            report.old_version = _version(old_project)
    report.changes = compare(old, now, old_values, values)
    return report


def snapshot(
    project: Project, game: Game, options: dict[str, Any], lang: str | None = None
) -> tuple[dict[str, Any], dict[str, dict[str, Any]], list[Problem]]:
    """``game``'s cards as a manifest holds them, every face rendered (not laid out), with each card's data by
    id, and the problems met (the cards that fail to load or render are left out); with ``lang``, the cards in
    that language (their translations' problems are the build's to report)."""
    from printer.cards.catalog import load_cards
    from printer.problems import PrinterError
    from printer.sheets import compose
    from printer.sheets.manifest import FaceDigests, FileDigests, card_entries, template_digests
    from printer.sheets.options import resolve_options

    where = str(project.root / "printer.toml")
    opts = resolve_options(project.settings, game.settings, game.card_size, options, where, project.limits)
    sets, problems = load_cards(project, [game.cards], game.id)
    cards = sets.get(game.id)
    job = compose.make_job(project, game, opts, [game.cards.resolve()], lang=lang)
    if cards is not None and lang is not None:
        from printer.api.languages import cards_in

        cards = cards_in(project, game, cards, [game.cards], lang)
    digests = FaceDigests(job, project.root, FileDigests(None))
    data: dict[str, Any] = {
        "cards": {},
        "stylesheets": digests.stylesheets,
        "templates": template_digests(job, digests),
    }
    values: dict[str, dict[str, Any]] = {}
    if cards is None:
        return data, values, problems
    for item in compose.items_for_cards(list(cards), cards):
        if item.card is None or item.card.id in values:
            continue
        try:
            data["cards"].update(card_entries(job, [item], digests, 0))
        except PrinterError as exc:
            problems += exc.problems or [Problem(item.card.where, str(exc), code="template")]
            continue
        data["cards"][item.card.id]["copies"] = item.card.copies
        values[item.card.id] = dict(item.card.data)
    return data, values, problems + list(job.renderer.problems)


def _read_manifest(path: Path, given: str) -> dict[str, Any]:
    from printer.sheets.manifest import read_manifest

    try:
        return read_manifest(path)
    except ValueError as exc:
        hint = "give a git revision (HEAD~1, a tag) or a manifest a build wrote (build/<game>.manifest.json)"
        problem = Problem(given, f"--since {given}: {exc}", hint, code="bad-since")
        raise UsageError(problem.message, [problem]) from None


def _at_revision(problem: Problem, root: Path, since: str) -> Problem:
    """``problem`` with its place in the temporary checkout named as the revision's (``HEAD~1:cards/x.json``)."""
    where = problem.where
    prefix = str(root) + os.sep
    if where.startswith(prefix):
        where = f"{since}:{where[len(prefix) :]}"
    return replace(problem, where=where, severity=WARNING)


def _git(root: Path, *args: str) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run([*_GIT, str(root), *args], capture_output=True, timeout=GIT_TIMEOUT, check=False)  # noqa: S603, S607


def _bad_revision(since: str, why: str) -> UsageError:
    hint = "give a git revision of the project's repository (HEAD~1, a tag, a commit) or a manifest file (build/<game>.manifest.json)"
    problem = Problem("--since", f"--since {since}: {why}", hint, code="bad-since")
    return UsageError(problem.message, [problem])


class _checkout:
    """The project's files at the git revision ``since``, in a temporary folder removed afterwards (the
    project's folder inside it is what ``with`` gives)."""

    def __init__(self, project: Project, since: str):
        self.project, self.since = project, since
        self.folder: tempfile.TemporaryDirectory[str] | None = None

    def __enter__(self) -> Path:
        root, since = self.project.root, self.since
        if since.startswith("-") or not since.strip():
            raise _bad_revision(since, "not a revision")
        try:
            found = _git(root, "rev-parse", "--verify", "--quiet", "--end-of-options", f"{since}^{{commit}}")
            prefix = _git(root, "rev-parse", "--show-prefix")
        except (OSError, subprocess.TimeoutExpired) as exc:
            raise _bad_revision(since, f"git could not be run ({exc})") from None
        if prefix.returncode != 0:
            raise _bad_revision(since, "the project is not in a git repository")
        if found.returncode != 0:
            raise _bad_revision(since, "no such revision in the project's git repository")
        commit = found.stdout.decode().strip()
        self.folder = tempfile.TemporaryDirectory(prefix="printer-since-")
        folder = Path(self.folder.name)
        archive = folder / "project.tar"
        with archive.open("wb") as out:
            try:
                done = subprocess.run(  # noqa: S603, S607 ("." is the project's folder: git runs in it)
                    [*_GIT, str(root), "archive", "--format=tar", commit, "--", "."],
                    stdout=out, stderr=subprocess.PIPE, timeout=GIT_TIMEOUT, check=False,
                )  # fmt: skip
            except subprocess.TimeoutExpired:
                self.__exit__()
                raise _bad_revision(since, f"git archive took more than {GIT_TIMEOUT} s") from None
        if done.returncode != 0:
            self.__exit__()
            raise _bad_revision(since, "git archive failed: " + done.stderr.decode(errors="replace").strip()[:300])
        if archive.stat().st_size > ARCHIVE_LIMIT:
            self.__exit__()
            raise _bad_revision(since, f"the project's files at {since} are larger than {ARCHIVE_LIMIT // 2**30} GB")
        files = folder / "files"
        with tarfile.open(archive) as tar:
            tar.extractall(files, filter="data")  # noqa: S202 (the data filter keeps every member inside)
        archive.unlink()
        project_root = files  # git archive run in the project's folder gives that folder's files, paths from it
        if not (project_root / "printer.toml").is_file():
            raise _bad_revision(since, "the project has no printer.toml at that revision")
        return project_root

    def __exit__(self, *exc: object) -> None:
        if self.folder is not None:
            self.folder.cleanup()
            self.folder = None


def reprint_items(
    project: Project,
    game: Game,
    opts: PrintOptions,
    since: str,
    items: list[PrintItem],
    options: dict[str, Any],
    lang: str | None = None,
) -> tuple[list[PrintItem], ChangesReport]:
    """The ``items`` whose card's printed face changed since ``since`` (new cards too), and the report; ``lang``:
    the faces in that language (``build --lang``)."""
    report = changes(project, game.id, since, options, lang)
    wanted = {c.id for c in report.reprint}
    return [item for item in items if item.card is not None and item.card.id in wanted], report


def after_sheets(
    project: Project,
    game: Game,
    job: PrintJob,
    items: Sequence[PrintItem],
    layout: Any,
    target: Path,
    reprint: ChangesReport | None,
    outcome: Any,
    made: list[dict[str, Any]],
) -> list[Problem]:
    """Once ``target``'s sheets are written: a reprint's changelog page appended (``reprint``), then the
    manifest written beside it (the one in ``made``, else made now: :func:`make_manifest`; its path added to
    ``outcome.paths``); returns the problems."""
    from printer.sheets.manifest import write_manifest
    from printer.sheets.render import build_date

    problems: list[Problem] = []
    if not target.is_file():
        return problems
    if reprint is not None:
        from printer.sheets.changelog import append_changelog, changelog_html

        removed = [c for c in reprint.changes if c.status == "removed"]
        versions = (reprint.old_version, reprint.version)
        html = changelog_html(game.name, reprint.since, reprint.reprint, removed, versions, build_date(), layout.page)
        problems += append_changelog(target, html, project.root)
    try:
        if not made:
            make_manifest(made, project, game, job, items, layout.per_sheet, target)
        outcome.paths.append(write_manifest(target, made[0]))
    except OSError as exc:
        where = str(target.with_name(target.stem + ".manifest.json"))
        problems.append(Problem(where, f"the manifest could not be written: {exc.strerror or exc}", code="manifest"))
    return problems
