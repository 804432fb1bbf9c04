"""The stages of one game's build after its plan (:func:`printer.api.plan.make_plan`): faces, sheets, outputs.

:func:`_build_game` runs them in turn, each taking what the one before made: the plan
(:class:`~printer.sheets.plan.BuildPlan`), then the faces (:class:`Faces`: the print job that renders them,
the items, ``--since``'s reprint), then the sheets (the PDF, its manifest, the components' PDF), then the
outputs (exports, a preset's files, the budgets) and the :class:`~printer.api.results.GameBuild`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from printer.api.common import WRITTEN_BUT, _strictly
from printer.api.plan import make_plan
from printer.api.results import GameBuild
from printer.api.runtime import Runtime
from printer.paths import output_path
from printer.problems import ERROR, Problem, counted, errors
from printer.project import Game, Project

if TYPE_CHECKING:
    from printer.api.build import Progress
    from printer.sheets.components import Component
    from printer.sheets.faces.items import PrintItem
    from printer.sheets.job import SheetJob
    from printer.sheets.options import PrintOptions
    from printer.sheets.plan import BuildPlan, BuildRequest
    from printer.sheets.verify import Verify


def _build_game(
    project: Project,
    game: Game,
    request: BuildRequest,
    progress: Progress | None = None,
    runtime: Runtime | None = None,
    tidy: bool = True,
) -> GameBuild:
    """One game's build, stage by stage: plan, faces, sheets, outputs (see the module docstring); ``runtime``'s
    workers lay the faces out and its cache holds them (default: this process, no cache)."""
    runtime = runtime if runtime is not None else Runtime()
    plan = make_plan(project, game, request, runtime.ready)
    outcome = GameBuild(game.id, lang=request.lang, notes=list(plan.notes))
    if plan.failure is not None:
        outcome.problems, outcome.failure = list(plan.problems), plan.failure
        return outcome
    faces = _faces(project, plan, outcome)
    if faces is None:
        return outcome
    found = _sheets(project, plan, faces, outcome, progress, runtime, tidy)
    return _outputs(project, plan, faces, found, outcome)


@dataclass(frozen=True)
class Faces:
    """The faces stage's result: the print job that renders the faces (``job``), the ``items`` and ``components``
    to print (a reprint's changed cards only), the ``target`` PDF and its number of ``sheets``, the ``reprint``
    (:func:`printer.api.versions.reprint_items`, ``None`` without ``--since``) and every ``problem`` so far."""

    job: SheetJob
    items: list[PrintItem]
    components: list[tuple[Any, list[PrintItem]]]
    target: Path
    sheets: int
    reprint: Any
    problems: list[Problem]


def faces_job(
    project: Project,
    game: Game,
    request: BuildRequest,
    opts: PrintOptions,
    locate: Callable[[Any, str], str | None] | None = None,
) -> SheetJob:
    """The print job that renders and lays out ``game``'s faces at ``opts`` (:func:`printer.api.plan.print_options`)
    as ``request`` asks: files read from the project and :func:`printer.api.plan.read_roots`, every face in
    ``request.lang``, the PDF written for ``request.icc``; ``locate`` places a translated field's problems.
    The faces stage's job, and ``printer serve``'s for each game (its pictures and each card's HTML)."""
    from printer.api.plan import read_roots
    from printer.sheets import job as sheet_job

    roots = read_roots(game, request)
    job = sheet_job.make_job(project, game, opts, roots, cmyk_profile=request.icc, lang=request.lang)
    job.renderer.locate = locate
    return job


def _faces(project: Project, plan: BuildPlan, outcome: GameBuild) -> Faces | None:
    """The print job for ``plan``'s faces and, with ``--since``, the cards whose printed face changed (``None``,
    with a note in ``outcome``, when none did)."""
    game, request, suffix = plan.game, plan.request, plan.suffix
    job = faces_job(project, game, request, plan.opts, plan.locate)
    assert plan.target is not None
    items, target, n_sheets, problems = list(plan.items), plan.target, plan.sheets, list(plan.problems)
    components = [(c, list(its)) for c, its in plan.components]
    reprint = None
    if request.since and not request.deck_file:  # a reprint: the cards whose printed face changed
        from printer.api.versions import reprint_items

        items, reprint = reprint_items(project, game, plan.opts, request.since, items, request.options, request.lang)
        problems += reprint.problems
        whole = target.with_name(f"{target.stem}-components.pdf")
        pieces = {item.card.id for _, its in components for item in its if item.card is not None}
        changed = [c.name for c in reprint.reprint if c.id in pieces]  # tokens, tiles, boards: not in a reprint
        if changed:
            outcome.notes = [
                *outcome.notes,
                f"{game.id}{suffix}: {counted(len(changed), 'component')} changed ({', '.join(changed)}), not in the "
                f"reprint: print them from {whole.name} of a whole build",
            ]
        target, components = target.with_name(f"{target.stem}-reprint.pdf"), []  # beside the whole PDF
        n_sheets = -(-len(items) // plan.layout.per_sheet)
        if not items:
            note = f"{game.id}{suffix}: nothing to reprint: no card's printed face changed since {request.since}"
            outcome.problems, outcome.notes = problems, [*outcome.notes, note]
            return None
    return Faces(job, items, components, target, n_sheets, reprint, problems)


def _sheets(
    project: Project,
    plan: BuildPlan,
    faces: Faces,
    outcome: GameBuild,
    progress: Progress | None,
    runtime: Runtime,
    tidy: bool,
) -> list[Problem]:
    """The card sheets' PDF (:func:`printer.sheets.assemble.build_sheets`), its manifest and changelog, and the
    components' PDF; returns their problems."""
    from functools import partial

    from printer.api.versions import after_sheets, make_manifest
    from printer.sheets import assemble
    from printer.sheets.output.outcome import SheetsOutcome
    from printer.sheets.parallel import Workplace

    game, request, layout = plan.game, plan.request, plan.layout
    job, items, components, target = faces.job, faces.items, faces.components, faces.target
    label = f"{game.id}{plan.suffix}: {counted(len(items), 'card')}"
    checked = assemble.Checked()
    manifest: list[dict[str, Any]] = []  # made while the faces are laid out
    update = progress(label, faces.sheets) if progress else None
    written = (
        assemble.build_sheets(
            job,
            items,
            layout,
            assemble.SheetsRequest(target, game.name, request.strict, tidy, _verify(request)),
            Workplace(runtime.workers, plan.spec, runtime.cache),
            update,
            checked=checked,
            meanwhile=partial(make_manifest, manifest, project, game, job, items, layout.per_sheet, target),
        )
        if items or not components
        else SheetsOutcome()
    )
    found, outcome.untidy_faces, outcome.write_whole = written.problems, written.untidy_faces, written.write_whole
    outcome.named_files = written.named
    if items and not (request.strict and found):
        found += after_sheets(project, game, job, items, layout, target, faces.reprint, outcome, manifest)
    if components and not (request.strict and found):
        found += _build_components(
            project,
            game,
            plan.opts,
            components,
            layout.page,
            plan.out_dir,
            plan.extra_roots,
            outcome,
            runtime,
            plan.locate,
        )
    outcome.stats = {**job.engine.stats, **outcome.stats}
    if request.verify:
        outcome.faces_checked, outcome.sheets_checked = checked.faces, checked.pages
        outcome.stats["faces checked"], outcome.stats["sheets checked"] = checked.faces, checked.pages
    return found


def _outputs(project: Project, plan: BuildPlan, faces: Faces, found: list[Problem], outcome: GameBuild) -> GameBuild:
    """The exports and a preset's files beside the PDF, the budgets checked, and ``outcome`` filled in."""
    from printer.sheets.export import EXPORTERS, ExportRequest

    game, request, layout, opts = plan.game, plan.request, plan.layout, plan.opts
    job, items, components, target = faces.job, faces.items, faces.components, faces.target
    if not (request.strict and found):
        export_request = ExportRequest(
            plan.out_dir,
            target.stem,
            request.dpi,
            request.png_bleed,
            request.strict,
            layout=layout,
            title=game.name,
            deck=request.deck_file.stem if request.deck_file else None,
            image_url_base=request.image_url_base,
            components=tuple(components),
            component_job=_component_jobs(
                project, game, opts, layout.page, plan.extra_roots, request.lang, plan.locate
            )[0]
            if components
            else None,
        )
        for kind in _export_kinds(request, opts, bool(items)):
            exported = EXPORTERS[kind](job, items, export_request)
            outcome.exports.append(exported.summary)
            outcome.paths += exported.paths
            found += exported.problems
        if request.preset:
            from printer.sheets.export.presets import export_preset

            made = export_preset(request.preset, job, items, plan.out_dir, target.stem, request.icc, request.strict)
            outcome.exports += made.summary
            outcome.paths += made.paths
            found += made.problems
    if request.max_size or request.min_dpi:
        from printer.sheets.export.preflight import budget_problems

        found += budget_problems([target, *outcome.paths], request.max_size, request.min_dpi)
    problems = faces.problems + _unique(found, faces.problems)
    if request.min_dpi:
        problems = [_art_budget(p, request.min_dpi) for p in problems]
    outcome.problems = _strictly(problems, request.strict)
    if errors(outcome.problems):
        if all(p.code.startswith(WRITTEN_BUT) for p in errors(outcome.problems)):
            outcome.failure = "written, but not as the print shop takes it (the errors above)"
        else:
            outcome.failure = "not printed (--strict)" if request.strict else "not printed"
        return outcome
    if not items and components:
        target = outcome.paths[0]
    outcome.target, outcome.cards, outcome.sheets = target, len(items), faces.sheets
    outcome.grid = f"{layout.per_sheet} slots" if layout.explicit is not None else f"{layout.cols}x{layout.rows}"
    outcome.backs = opts.describe_backs()
    if target not in outcome.paths:
        outcome.paths.insert(0, target)
    return outcome


def _export_kinds(request: BuildRequest, opts: PrintOptions, cards: bool) -> list[str]:
    """The exports a build writes, in order: those asked for, the cut files, Cricut's with ``cricut`` registration
    marks and ``cards`` on the sheets; ``tts-save`` stands for ``tts`` (it writes the tts sheets too)."""
    kinds = dict.fromkeys([*request.exports, *(f"cut-{f}" for f in request.cut_files)])
    if opts.registration == "cricut" and cards:  # Design Space takes an image and a cut file per sheet
        kinds["cricut"] = None
    if "tts-save" in kinds:
        kinds.pop("tts", None)
    return list(kinds)


def _verify(request: BuildRequest) -> Verify | None:
    """What ``request.verify`` asks the build to check (:mod:`printer.sheets.verify`), or ``None``."""
    from printer.sheets.verify import Verify

    if isinstance(request.verify, Verify):
        return request.verify
    return Verify() if request.verify else None


def _art_budget(problem: Problem, min_dpi: float) -> Problem:
    """A ``low-dpi`` art warning (the art file's own pixels at its printed size) as an error when under ``min_dpi``.

    The art printer prepares for a card is resampled to 300 dpi, so the PDF's
    images alone cannot show art that is too small: its warning can.
    """
    import re

    if problem.code != "low-dpi":
        return problem
    found = re.search(r" is (\d+(?:\.\d+)?) dpi", problem.message)
    if found is not None and float(found.group(1)) >= min_dpi - 0.5:
        return problem
    return Problem(problem.where, f"{problem.message}: below --min-dpi {min_dpi:g}", problem.hint, ERROR, "budget-dpi")


def _build_components(  # noqa: PLR0913  one game's build state, passed on by the pipeline's output stage
    project: Project,
    game: Game,
    opts: PrintOptions,
    components: list[tuple[Any, list[PrintItem]]],
    page: tuple[float, float],
    out_dir: Path,
    extra: list[Path],
    outcome: GameBuild,
    runtime: Runtime,
    locate: Callable[[Any, str], str | None] | None = None,
) -> list[Problem]:
    """``<game>-components.pdf`` (``<game>-ja-components.pdf`` in one language, ``outcome.lang``): the components'
    sheets (:func:`printer.sheets.components.build_components`)."""
    from printer.sheets.components import build_components

    job_for, spec_for = _component_jobs(project, game, opts, page, extra, outcome.lang, locate)
    suffix = f"-{outcome.lang}" if outcome.lang else ""
    target = output_path(out_dir, f"{game.id}{suffix}-components.pdf")
    made, problems = build_components(
        components, job_for, page, target, game.name, runtime.workers, spec_for, runtime.cache
    )
    counts = ", ".join(counted(n, name) for name, n in made.counts.items())
    fronts = sum(1 for s in made.sheets if s.side == "front")
    for name, value in made.stats.items():
        outcome.stats[f"components: {name}"] = value
    outcome.named_files = sorted({*outcome.named_files, *made.named})  # for the up-to-date check
    boards = f", {made.board_pages} of them a board's pages" if made.board_pages else ""
    outcome.exports.append(f"{target}: components {counts} on {counted(fronts, 'sheet')}{boards}")
    outcome.paths.append(target)
    return problems


def component_options(opts: PrintOptions, component: Component, page: tuple[float, float]) -> PrintOptions:
    """The print options of ``component``'s pieces: ``opts`` with the component's trim size as the card size, on
    ``page`` (width, height in mm: the cards' sheet as laid out, :attr:`printer.sheets.layout.SheetLayout.page`) as
    given. A component's sheets print with them, and ``printer serve`` shows its pieces with them."""
    from dataclasses import replace

    return replace(opts, card=component.size, paper=page, orientation="as-given")


def _component_jobs(
    project: Project,
    game: Game,
    opts: PrintOptions,
    page: tuple[float, float],
    extra: list[Path],
    lang: str | None = None,
    locate: Callable[[Any, str], str | None] | None = None,
) -> tuple[Callable[[Any], Any], Callable[[Any], Any]]:
    """``(job_for, spec_for)``: a component's print job (its card size the component's trim size, its templates
    shown ``component``, its faces in ``lang``) and the :class:`~printer.sheets.parallel.JobSpec` workers rebuild it
    from."""
    from printer.sheets import job as sheet_job
    from printer.sheets.parallel import JobSpec

    def options(component: Any) -> PrintOptions:
        return component_options(opts, component, page)

    def job_for(component: Any) -> sheet_job.SheetJob:
        job = sheet_job.make_job(project, game, options(component), extra, lang=lang)
        job.renderer.component, job.renderer.locate = component.view(), locate
        return job

    def spec_for(component: Any) -> JobSpec:
        return JobSpec(str(project.root), game.id, options(component), tuple(str(r) for r in extra))

    return job_for, spec_for


def _unique(found: list[Problem], already: list[Problem]) -> list[Problem]:
    """``found`` without repeats, and without problems already reported at the same place for the same reason."""
    seen = {(p.where, p.code) for p in already}
    out = []
    for p in found:
        if (p.where, p.code) not in seen:
            seen.add((p.where, p.code))
            out.append(p)
    return out
