"""Versions of a card set: the build manifest, what changed since a git revision or a manifest, and reprints.

- Every build writes a manifest beside its PDF (:func:`make_manifest`, :func:`after_sheets`, :mod:`printer.sheets.manifest`).
- :func:`changes` compares the cards now with the cards at ``--since REF``: a git revision of the project
  (its files read from git's objects into a temporary folder, the old cards read and their faces rendered
  there with the current printer, so that only the project's changes count) or a manifest file written by
  an earlier build (no old values then: a field is named as changed, its new value shown).
- ``build --since REF`` prints the cards whose printed face changed (or that are new), with their backs,
  and a changelog page (:func:`reprint_items`, :mod:`printer.sheets.changelog`).
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from printer.limits import over
from printer.problems import WARNING, Problem, UsageError

if TYPE_CHECKING:
    from printer.project import Game, Project
    from printer.sheets.changes import CardChange
    from printer.sheets.faces.items import PrintItem
    from printer.sheets.job import SheetJob
    from printer.sheets.options import PrintOptions


def make_manifest(
    made: list[dict[str, Any]],
    project: Project,
    game: Game,
    job: SheetJob,
    items: Sequence[PrintItem],
    per_sheet: int,
    target: Path,
) -> None:
    """Append to ``made`` the manifest (:func:`printer.sheets.manifest.manifest`) of ``target`` printing ``items``
    ``per_sheet`` a sheet through ``job``. A build calls it while its faces are laid out
    (:func:`printer.sheets.assemble.build_sheets`' ``meanwhile``), so that it costs no time of its own, and
    writes it once the PDF is written (:func:`after_sheets`)."""
    from printer.sheets.manifest import FileDigests, manifest

    files = FileDigests(project.build_dir / ".cache", job.engine.base.resolve().as_uri() + "/")
    made.append(manifest(job, items, project.root, game.id, per_sheet, target.name, _version(project), files))
    if job.renderer.lang:  # a build in one language (--lang): what printer changes compares it in
        made[-1]["lang"] = job.renderer.lang
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
    unknown game, a language the game does not declare (or ``all``), a revision git does not know (with a hint)
    or a file that is not a manifest."""
    from printer.gitrevision import bad_revision, checkout
    from printer.sheets.changes import compare

    game = project.game(game_id)
    if lang is not None:
        from printer.api.languages import ALL, build_languages

        if lang == ALL:
            hint = "e.g. --lang ja; printer build GAME --since REF --lang all reprints each language"
            raise UsageError("--lang all: changes compares one language", [Problem("--lang", "one language", hint)])
        lang = build_languages(project, [game], lang)[game.id][0]  # a usage error for a language not declared
    now, values, problems = snapshot(project, game, options or {}, lang)
    report = ChangesReport(game.id, since, version=_version(project), problems=problems)
    manifest_file = Path(since)
    if since.endswith(".json") or manifest_file.is_file():
        kept = _read_manifest(manifest_file if manifest_file.is_absolute() else Path.cwd() / manifest_file, since)
        if kept.get("game") != game.id:
            raise bad_revision(since, f"a manifest of {kept.get('game')!r}, not of {game.id!r}")
        limit = project.limits.cards_per_build  # a build's manifest holds no more (its reprint would list them)
        if len(kept["cards"]) > limit:
            problem = over("cards_per_build", len(kept["cards"]), limit, since, "cards in the manifest")
            raise UsageError(problem.message, [problem])
        report.old_version = kept.get("version")
        was = kept.get("lang") if isinstance(kept.get("lang"), str) else None
        if was != lang:  # every face would differ by its language alone
            said = f"--lang {was}" if was else "no --lang"
            hint = f"compare it with --lang {was}" if was else "compare it without --lang"
            report.problems.append(
                Problem(
                    since,
                    f"the manifest is of a build with {said}, compared here with "
                    f"{f'--lang {lang}' if lang else 'no --lang'}",
                    hint,
                    WARNING,
                    code="since-lang",
                )
            )
        for card_id in _components(project, game, options or {}, values):  # on no card sheet, in no manifest
            if card_id not in kept["cards"]:  # (a decklist's manifest holds them, printed as proxies)
                now["cards"].pop(card_id, None)
        report.changes = compare(kept, now, None, values)
        return report
    with checkout(project.root, since) as old_root:
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


def _components(project: Project, game: Game, options: dict[str, Any], values: dict[str, dict[str, Any]]) -> set[str]:
    """The ids among ``values`` (card id -> data) of the cards the game prints as tokens, tiles or boards
    (printer.toml ``[games.<id>.components.*]``): a build writes them to its components PDF, not its manifest."""
    from printer.sheets.components import read_components
    from printer.sheets.options import resolve_options

    where = str(project.root / "printer.toml")
    opts = resolve_options(project.settings, game.settings, game.card_size, options, where, project.limits)
    declared, problems = read_components(
        game.settings.get("components"), game.id, where, opts.paper, opts.margin, project.limits.size_mm
    )
    if not declared or problems:
        return set()
    return {card_id for card_id, data in values.items() if any(c.holds(data) for c in declared)}


def snapshot(
    project: Project, game: Game, options: dict[str, Any], lang: str | None = None
) -> tuple[dict[str, Any], dict[str, dict[str, Any]], list[Problem]]:
    """``game``'s cards as a manifest holds them, every face rendered (not laid out), with each card's data by
    id, and the problems met (the cards that fail to load or render are left out); with ``lang``, the cards in
    that language (their translations' problems are the build's to report)."""
    from printer.cards.catalog import load_cards
    from printer.problems import PrinterError
    from printer.sheets import job as sheet_job
    from printer.sheets.faces import items as print_items
    from printer.sheets.manifest import FaceDigests, FileDigests, card_entries, template_digests
    from printer.sheets.options import resolve_options

    where = str(project.root / "printer.toml")
    opts = resolve_options(project.settings, game.settings, game.card_size, options, where, project.limits)
    sets, problems = load_cards(project, [game.cards], game.id)
    cards = sets.get(game.id)
    job = sheet_job.make_job(project, game, opts, [game.cards.resolve()], lang=lang)
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
    for item in print_items.items_for_cards(list(cards), cards):
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
    if where.file.startswith(prefix):
        where = replace(where, file=f"{since}:{where.file[len(prefix) :]}")
    return replace(problem, where=where, severity=WARNING)


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


def after_sheets(  # noqa: PLR0913  the sheets stage's results, handed on whole to the reprint step
    project: Project,
    game: Game,
    job: SheetJob,
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
        page, lang = layout.page, job.renderer.lang  # printer's words in the build's language (--lang)
        html = changelog_html(game.name, reprint.since, reprint.reprint, removed, versions, build_date(), page, lang)
        problems += append_changelog(target, html, project.root)
    try:
        if not made:
            make_manifest(made, project, game, job, items, layout.per_sheet, target)
        outcome.paths.append(write_manifest(target, made[0]))
    except OSError as exc:
        where = str(target.with_name(target.stem + ".manifest.json"))
        problems.append(Problem(where, f"the manifest could not be written: {exc.strerror or exc}", code="manifest"))
    return problems
