"""One print job's stages, each owning its part: the faces (:class:`~printer.sheets.faces.registry.FaceRegistry`:
keys, HTML, owners), the layout engine (:class:`~printer.sheets.engine.documents.Engine`: WeasyPrint, the output
settings, the counts) and the text fit (:class:`~printer.sheets.engine.fitter.Fitter`), held together in a
:class:`SheetJob` that nothing writes into. :func:`make_job` makes one for a game of a project."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from printer.limits import DEFAULT as DEFAULT_LIMITS
from printer.project import Game, Project
from printer.sheets.engine.documents import Engine, EngineOptions
from printer.sheets.engine.fitter import Fitter
from printer.sheets.faces.items import allowed_roots
from printer.sheets.faces.registry import FaceRegistry
from printer.sheets.images import ArtCache
from printer.sheets.options import PrintOptions
from printer.sheets.render import Renderer, project_view


@dataclass(frozen=True)
class SheetJob:
    """The stages of one print job: ``faces`` rendered once each and keyed, laid out by ``engine`` with their text
    fitted by ``fitter`` (which both share). ``renderer`` and ``opts`` are the faces'."""

    faces: FaceRegistry
    engine: Engine
    fitter: Fitter

    @property
    def renderer(self) -> Renderer:
        return self.faces.renderer

    @property
    def opts(self) -> PrintOptions:
        return self.faces.opts

    def fresh(self) -> SheetJob:
        """A job on the same renderer, options and output settings holding no face (a worker's, for one batch)."""
        faces, engine = self.faces.fresh(), self.engine.fresh()
        return SheetJob(faces, engine, Fitter(faces, engine))


def new_job(
    renderer: Renderer,
    opts: PrintOptions,
    base: Path | None = None,
    options: EngineOptions | None = None,
    max_html_chars: int = DEFAULT_LIMITS.face_html_total_chars,
) -> SheetJob:
    """A :class:`SheetJob` of ``renderer``'s faces at ``opts``, relative URLs read from ``base`` (default: the
    current folder), documents written with ``options``; ``max_html_chars``: see :class:`FaceRegistry`."""
    faces = FaceRegistry(renderer, opts, base, max_html_chars)
    engine = Engine(renderer.allowed_roots, faces.base, options)
    return SheetJob(faces, engine, Fitter(faces, engine))


def make_job(
    project: Project,
    game: Game,
    opts: PrintOptions,
    extra_roots: Iterable[Path] = (),
    cmyk_profile: Path | None = None,
    lang: str | None = None,
) -> SheetJob:
    """A :class:`SheetJob` for ``game`` with art prepared into ``build/.cache/art`` of the project, writing a CMYK
    PDF/X-4 with ``cmyk_profile`` when given; ``lang``: the language every face is marked with
    (:attr:`Renderer.lang`; ``None``: no mark, as a build without ``--lang``)."""
    cache = ArtCache(project.build_dir / ".cache" / "art", cmyk_profile=cmyk_profile)
    renderer = Renderer(
        game,
        allowed_roots(project, extra_roots),
        art_cache=cache,
        bleed=opts.bleed,
        card_size=opts.card,
        base=project.root,
    )
    renderer.max_chars = project.limits.face_html_chars
    renderer.project = project_view(project.settings)
    from printer.cards.translations import languages

    renderer.lang, renderer.source_lang = lang, languages(project, game.id)[0]
    options = None
    if cmyk_profile is not None:
        from printer.sheets.export.pdfx import cmyk_options

        options = cmyk_options(cmyk_profile)
    return new_job(renderer, opts, project.root, options, project.limits.face_html_total_chars)
