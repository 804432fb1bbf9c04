"""Jinja2 rendering: card faces and the HTML of whole card sheets.

One sandboxed, autoescaping Jinja2 environment per game, whose search path
is the game's template folders (the project's first, then printer's bundled
ones: see :class:`printer.project.Game`). A game's folder holds:

- ``card.html.j2``: the front of a card (``card-<type>.html.j2`` overrides it
  for one card type, lower-case, spaces as ``-``);
- ``back.html.j2``: a card back, given the back's name as ``back``;
- ``card.css``: the styles of both, loaded after ``card-common.css`` (the inline-icon and placeholder rules every game shares; found on the same search path, so a project may replace it);
- ``icons/<name>.svg``: the icons card text can use as ``{name}``.

The common ``sheet.html.j2`` places the faces on sheets. Template variables
are documented in each bundled template's header comment.

**The template contract for bleed, safe area and text fit** (the same for
every game; the README section "Writing templates for print" has it with examples):

1. *Root element.* A face template renders one root element with class
   ``card`` that fills its container (``position: absolute; inset: 0``).
   printer puts it in the card's *trim box* (a ``printer-trim`` element in
   a ``printer-face`` one), so every length inside is measured from the
   trim edge, as on the printed card. printer's own elements (sheets,
   faces, trim boxes, marks) are custom elements and ``printer-`` classes
   styled with ``!important``: a game's rules for ``.back``, ``.front``,
   ``.sheet``, ``section``, ``div``, ``body`` or ``@page`` change its own
   faces only, and the sheets' marks and labels are laid out without the
   game's stylesheets.
2. *Bleed.* printer paints the root's ``background`` (colour, gradient or
   image) out to the bleed edge by itself (a ``.card::before`` layer with
   ``background: inherit``): templates must not use ``.card::before``.
   Art or shapes that should also run into the bleed use the helper class
   ``bleed`` (``position: absolute; inset: calc(-1 * var(--bleed))``) or
   the CSS variable ``--bleed`` (the bleed in mm, ``0mm`` when none).
   The face is clipped at the bleed edge (at the shared cut line where
   cards touch).
3. *Safe area.* Text and anything that must not be cut stays at least
   ``var(--safe)`` inside the trim (default 3 mm); the helper class
   ``safe`` is a box exactly on the safe area. ``--trim-width`` and
   ``--trim-height`` give the trim size. Frames and borders may cross it.
4. *Text fit.* A text box that must not overflow gets
   ``data-fit="<field>"`` (the card field it shows, e.g. ``text``: named in
   the warning) and ``data-fit-min="<size>"`` (the smallest font size,
   e.g. ``4.5pt``). It needs a fixed height (``height``, or ``top`` and
   ``bottom``) and ``overflow: hidden``; size everything inside in ``em``.
   printer shrinks the box's font until its content fits, down to the
   minimum, then warns (``--strict``: fails) naming card and field
   (:mod:`printer.sheets.fit`).
5. *Art.* ``art_url`` is the card's art prepared for the bleed box (crop
   to fill); for an art window call ``art_for(width_mm, height_mm,
   fit="cover"|"contain")``, which returns the URL of the art prepared for
   that box (:mod:`printer.sheets.images`), or ``None``; ``art_missing`` is the
   missing file's name (print it on a labelled placeholder).
6. *Icons.* Inline icons are ``img.icon`` sized ``1.05em`` with
   ``vertical-align: -0.17em``: on the baseline at the text's size, in
   Latin and Japanese text alike (keep those two rules).
7. *Markup in other fields.* ``text`` and ``flavor`` come as HTML; any
   other field holding card-text markup goes through the ``markup``
   filter with its path under the card, ``{{ card.upright.text|markup(
   'upright.text') }}``, so an unknown icon is reported at
   ``file::$.cards[3].upright.text`` (at the card without the path).
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from dataclasses import replace
from functools import partial
from pathlib import Path
from typing import Any

import jinja2
from markupsafe import Markup, escape

from printer.cards.markup import RenderEnv, to_html, unknown_icon
from printer.cards.model import Card
from printer.limits import DEFAULT as DEFAULT_LIMITS
from printer.paths import contained, is_inside
from printer.problems import WARNING, Location, PrinterError, Problem, RenderError
from printer.project import Game
from printer.sheets.backs import back_name
from printer.sheets.face_art import FaceArt
from printer.sheets.images import ArtCache
from printer.sheets.sandbox import (
    TemplateHelper,
    TemplateSandbox,
    render_limited,
    template_context,
    template_problem,
)
from printer.sheets.sheet_documents import SheetDocuments
from printer.sheets.spaceless import spaceless


def build_date() -> str:
    """The build's date as templates see it (``project.build_date``): ISO ``YYYY-MM-DD`` in UTC, from the
    ``SOURCE_DATE_EPOCH`` environment variable (seconds since 1970, the reproducible-builds convention:
    https://reproducible-builds.org/specs/source-date-epoch/) when it is set to a number, else today."""
    import datetime
    import os

    epoch = os.environ.get("SOURCE_DATE_EPOCH", "").strip()
    try:
        moment = datetime.datetime.fromtimestamp(int(epoch), datetime.UTC) if epoch else None
    except (ValueError, OverflowError, OSError):
        moment = None
    return (moment or datetime.datetime.now(datetime.UTC)).date().isoformat()


def project_view(settings: dict[str, Any] | None = None) -> dict[str, str | None]:
    """What templates see as ``project``: ``version`` (printer.toml ``[project] version``, as text, or ``None``)
    and ``build_date`` (:func:`build_date`)."""
    version = (settings or {}).get("version")
    return {"version": None if version is None else str(version), "build_date": build_date()}


class Renderer(FaceArt, SheetDocuments):
    """Renders a game's cards to HTML with its templates.

    Problems found while rendering (unknown icons, missing art) are
    collected in ``problems`` as warnings. Template errors raise
    :class:`RenderError` naming the template file and line; so does a file
    a face names that the build could not read, when ``base`` is set.
    """

    def __init__(
        self,
        game: Game,
        allowed_roots: list[Path],
        art_cache: ArtCache | None = None,
        bleed: float = 0.0,
        card_size: tuple[float, float] | None = None,
        base: Path | None = None,
    ):
        self.game = game
        #: the folder a face's relative URLs are read from (the project's); when set, every file a face's HTML
        #: names is checked as soon as it is rendered (:mod:`printer.sheets.references`)
        self.base = base
        self._references: dict[str, str | None] = {}
        self._reference_roots: tuple[str, list[Path]] | None = None
        self._stylesheets_checked = False
        #: the HTML one face may produce, characters (a project's own limit is set by printer.sheets.job.make_job)
        self.max_chars = DEFAULT_LIMITS.face_html_chars
        self.allowed_roots = allowed_roots
        self.art_cache = art_cache
        self.bleed = bleed
        self.card_size = card_size
        self.problems: list[Problem] = []
        self.env = TemplateSandbox.for_templates(game.template_dirs, allowed_roots)
        self.env.filters["markup"] = self._markup_filter
        self.env.filters["spaceless"] = spaceless
        self.env.globals["icon_url"] = self._template_icon_url
        self._icons: dict[str, str | None] = {}
        #: the template each list of names gave (:meth:`_select`), by the list: a card type's own template that
        #: does not exist is not looked for again at each card of that type (a renderer lives for one build, one
        #: validate, or a served game until one of its templates changes)
        self._chosen: dict[tuple[str, ...], str] = {}
        #: how many times rendering met a problem reported once for many cards (an icon ``icon_url`` finds none of,
        #: low-dpi art): :mod:`printer.sheets.preflight` remembers no card that did
        self.unknown_icon_calls = 0
        #: without an art cache (``printer validate``): still read each art file's header to report low-dpi art as
        #: a build would (:mod:`printer.sheets.preflight` sets it, with ``card_size`` and ``bleed``)
        self.header_dpi = False
        #: each art file checked once: its pixel size, or None (unreadable, or an SVG, which has none)
        self._art_sizes: dict[Path, tuple[int, int] | None] = {}
        self._unknown_icons: dict[str, list[str]] = {}  # template line -> the icons icon_url found none of there
        self._rendering: str | Location = (
            ""  # what is being rendered (a card's place, ``back 'x'``): the hint of a template's problem
        )
        #: art printing under LOW_DPI, by file: (where its warning is, the cards using it, its lowest dpi, px, box)
        self._low_dpi_seen: dict[
            Path, tuple[Location, set[Location], tuple[float, tuple[int, int], tuple[float, float]]]
        ] = {}
        self._unreadable_art: set[Path] = set()  # art files Pillow could not read: they print the labelled placeholder
        self._card: Card | None = None  # the card whose front is being rendered (where the markup filter reports)
        #: what templates see as ``component`` (printer.sheets.components: name, kind, shape, width, height) when
        #: this renderer renders a component that is not a card; ``None`` for cards
        self.component: dict[str, Any] | None = None
        #: what templates see as ``project`` (:func:`project_view`; :func:`printer.sheets.job.make_job` sets the
        #: project's version)
        self.project: dict[str, str | None] = project_view()
        #: the language of the faces (a build in one language, ``--lang``): each face's root element carries it
        #: (:func:`printer.sheets.lang.with_lang`); ``None``: no attribute, the faces as a build without ``--lang``
        self.lang: str | None = None
        #: what templates see as ``lang`` when :attr:`lang` is ``None``: the game's source language
        self.source_lang: str | None = None
        #: where a card's field was read when not from the card's own file (a translation): ``locate(card,
        #: field)`` gives the place (``file::$.cards[3].text (ja)``) or ``None`` (the card's own place)
        self.locate: Callable[[Card, str], str | None] | None = None

    # -- resources ---------------------------------------------------------

    def find_file(self, relative: str) -> Path | None:
        """The first file ``relative`` on the template search path; ``None`` when there is none, or when the first
        one found leads out of the allowed roots (a symbolic link out of the project: never read)."""
        path, problem = self.find_contained(relative)
        return None if problem is not None else path

    def find_contained(self, relative: str) -> tuple[Path | None, Problem | None]:
        """The first file ``relative`` on the template search path, and the problem when its real path is outside
        the template folder it was found in and the allowed roots (a symbolic link out of the project:
        :func:`printer.paths.contained`, located at the file); ``(None, None)`` when no folder has it. The template
        folders themselves were checked when the project was read."""
        for folder in self.game.template_dirs:
            candidate = folder / relative
            if candidate.is_file():
                _, problem = contained(folder, relative, "template file", str(candidate), self.allowed_roots)
                return candidate, problem
        return None, None

    def icon_url(self, name: str) -> str | None:
        """The ``file:`` URL of the icon ``name`` (``icons/<name>.svg``), ``None`` when there is none; raises
        :class:`RenderError` when the icon file is a symbolic link out of the project."""
        if name not in self._icons:
            path, problem = self.find_contained(f"icons/{name}.svg")
            if problem is not None:
                raise RenderError(problem.message, [problem])
            self._icons[name] = path.resolve().as_uri() if path else None
        return self._icons[name]

    def _template_icon_url(self, name: object) -> str:
        """The template function ``icon_url(name)``: the URL of ``icons/<name>.svg`` on the template path.

        For an icon there is none of, it returns :data:`MISSING_ICON` (a placeholder picture: the build goes on)
        and reports an ``unknown-icon`` warning at the template's file and line that called it, naming the card
        (or back) it was rendering first: one warning per template line, listing every icon name it asked for in
        vain. ``printer validate`` renders the same templates and reports it at the same place.
        """
        url = self.icon_url(str(name))
        if url is not None:
            return url
        self.unknown_icon_calls += 1
        where, name = _calling_template() or "template", str(name)
        at = next((i for i, p in enumerate(self.problems) if p.where == where and p.code == "unknown-icon"), None)
        names = [*self._unknown_icons.get(where, []), name] if at is not None else [name]
        if at is not None and name in self._unknown_icons.get(where, []):
            return MISSING_ICON
        self._unknown_icons[where] = names
        listed = ", ".join(repr(n) for n in names)
        message = f"icon_url() finds no icon {listed} (no icons/<name>.svg on the template path)"
        if at is None:
            rendering = f"while rendering {self._rendering}" if self._rendering else None
            hint = "; ".join(h for h in (unknown_icon(where, name, self.icon_names()).hint, rendering) if h)
            self.problems.append(Problem(where, message, hint or None, WARNING, "unknown-icon"))
        else:
            self.problems[at] = replace(self.problems[at], message=message)
        return MISSING_ICON

    def icon_names(self) -> list[str]:
        """The icons card text can use (links out of the project left out)."""
        names = set()
        for folder in self.game.template_dirs:
            if (folder / "icons").is_dir():
                names |= {
                    p.stem
                    for p in (folder / "icons").glob("*.svg")
                    if not p.is_symlink() or is_inside(p, self.allowed_roots)
                }
        return sorted(names)

    def stylesheets(self) -> list[str]:
        return [p.resolve().as_uri() for p in (self.find_file("card-common.css"), self.find_file("card.css")) if p]

    # -- text --------------------------------------------------------------

    def markup(self, text: str, where: str | Location | Callable[[], str | Location]) -> Markup:
        """Card text to HTML; unknown icons become warnings located at ``where`` (or where ``where()`` gives,
        asked only then)."""
        env = RenderEnv(icon_url=self.icon_url)
        html = to_html(text, env)
        if env.unknown_icons:
            place = where() if callable(where) else where
            for name in dict.fromkeys(env.unknown_icons):
                self.problems.append(unknown_icon(place, name, self.icon_names()))
        return html

    def _markup_filter(self, text: object, field: str | None = None) -> Markup:
        """The template filter ``markup``: ``{{ card.upright.text|markup('upright.text') }}``.

        Unknown icons are reported at the card being rendered
        (``file::$.cards[3]``), at its field ``field`` when the template
        names it (a path under the card: ``upright.text``,
        ``steps[2].text``); outside a card (a back) at the template line
        that calls the filter.
        """
        card = self._card
        if card is None:
            where: str | Location = _calling_template() or "template"
        elif field:
            where = self.field_where(card, str(field))
        else:
            where = card.where
        return self.markup(str(text), where)

    def field_where(self, card: Card, field: str) -> str | Location:
        """Where ``card``'s ``field`` (a path under the card: ``text``, ``upright.text``, ``steps[2].text``) was
        read: its translation's place when :attr:`locate` knows one, else the card file's."""
        if self.locate is not None:
            found = self.locate(card, field)
            if found is not None:
                return found
        return card.record.where(field if field.startswith("[") else "." + field)

    # -- faces -------------------------------------------------------------

    def _template(self, names: list[str]) -> jinja2.Template:
        try:
            return self._select(names)
        except jinja2.TemplateSyntaxError as exc:
            raise RenderError(
                str(exc),
                [Problem(f"{exc.filename}:{exc.lineno}", f"template syntax error: {exc.message}", code="template")],
            ) from None
        except jinja2.TemplateNotFound:
            dirs = ", ".join(str(d) for d in self.game.template_dirs)
            raise RenderError(
                f"no template {names[-1]}",
                [
                    Problem(
                        f"templates/{self.game.id}",
                        f"no template {' or '.join(names)}",
                        f"looked in {dirs}",
                        code="template",
                    )
                ],
            ) from None
        except Exception as exc:  # a template file that cannot be read (not UTF-8, unreadable)
            found = next((d / n for n in names for d in self.game.template_dirs if (d / n).is_file()), None)
            problem = template_problem(exc, str(found) if found else names[-1])
            raise RenderError(problem.message, [problem]) from None

    def _select(self, names: list[str]) -> jinja2.Template:
        """The first template of ``names`` there is, as ``select_template`` finds it; the one found for the same
        names before is asked for by its own name (Jinja2 still reloads it when its file changed), and looked for
        again from the first name when it is gone."""
        key = tuple(names)
        chosen = self._chosen.get(key)
        if chosen is not None:
            try:
                return self.env.get_template(chosen)
            except jinja2.TemplateNotFound:
                del self._chosen[key]
        template = self.env.select_template(names)
        if template.name is not None:
            self._chosen[key] = template.name
        return template

    def _render(
        self, template: jinja2.Template, where: str | Location, max_chars: int | None = None, **context: Any
    ) -> Markup:
        outer, self._rendering = self._rendering, where
        try:
            return Markup(render_limited(template, template_context(context), max_chars or self.max_chars))
        except PrinterError:
            raise
        except Exception as exc:  # a template is user code: any error it raises is reported at its file and line
            problem = template_problem(exc, template.filename, where)
            raise RenderError(problem.message, [problem]) from None
        finally:
            self._rendering = outer

    def double_sided(self, card: Card | None) -> bool:
        """Whether ``card`` prints itself on both sides: it matches printer.toml's ``[games.<id>]``
        ``double_sided`` table (card field = value or list of values), e.g. a card whose two sides differ only in
        their frame. Its back is its front template again, rendered with ``side = "back"``."""
        spec = self.game.settings.get("double_sided")
        if card is None or not isinstance(spec, dict) or not spec:
            return False
        return all(
            str(card.get(f)) in [str(v) for v in (values if isinstance(values, list) else [values])]
            for f, values in spec.items()
        )

    def front(self, card: Card, side: str = "front") -> Markup:
        """The HTML of a card's front; ``side = "back"`` renders it as the back of a :meth:`double_sided` card
        (templates see ``side``)."""
        data = dict(card.data)
        data.setdefault("copies", 1)
        art_for = self._art_for(card)
        w, h = self.card_size or (0.0, 0.0)
        context = {
            "card": data,
            "name": card.name,
            "text": self.markup(card.get("text", ""), partial(self.field_where, card, "text")),
            "flavor": self.markup(card.get("flavor", ""), partial(self.field_where, card, "flavor")),
            "art_url": _LazyArt(lambda: art_for(w + 2 * self.bleed, h + 2 * self.bleed))
            if self.card_size
            else self._art_url(card),
            "art_for": art_for,
            "art_missing": _LazyArt(lambda: self._art_missing(card)),  # after art_for: unreadable art is missing too
            "game": self.game.template_view(),
            "type_class": _slug(card.type),
            "component": self.component,
            "side": side,
            "project": self.project,
            **self._lang_context(),
        }
        names = [f"card-{_slug(card.type)}.html.j2", "card.html.j2"]
        template = self._template(names)
        outer, self._card = self._card, card
        try:
            where = card.where
            return self._in_lang(self._checked(self._render(template, where, **context), template, where))
        finally:
            self._card = outer

    def _in_lang(self, html: Markup) -> Markup:
        """``html`` with :attr:`lang` on its root element, when set (:func:`printer.sheets.lang.with_lang`)."""
        if self.lang is None:
            return html
        from printer.sheets.lang import with_lang

        return with_lang(html, self.lang)

    def _checked(self, html: Markup, template: jinja2.Template, where: str | Location) -> Markup:
        """``html`` when every file it names can be read; else :class:`RenderError` at the template's lines."""
        if self.base is None:
            return html
        from printer.sheets.references import reference_problems

        if self._reference_roots is None:
            from printer.paths import bundled_root

            roots = [*self.allowed_roots, bundled_root() / "templates"]
            self._reference_roots = (self.base.resolve().as_uri() + "/", [Path(r).resolve() for r in roots])
        base_url, roots = self._reference_roots
        problems = []
        if not self._stylesheets_checked:  # what the stylesheets name, reported with the first face (each reads them)
            from printer.sheets.references import stylesheet_problems

            self._stylesheets_checked = True
            files = [p for p in (self.find_file("card-common.css"), self.find_file("card.css")) if p]
            problems += stylesheet_problems(files, roots)
        problems += reference_problems(html, base_url, roots, template.filename, where, self._references)
        if problems:
            raise RenderError(problems[0].message, problems)
        return html

    def placeholder(self, name: str, reason: str) -> Markup:
        """A labelled stand-in front for a card that could not be found."""
        template = self._template(["placeholder.html.j2"])
        game = self.game.template_view()
        return self._in_lang(
            self._render(
                template, name, name=name, reason=reason, game=game, project=self.project, **self._lang_context()
            )
        )

    @property
    def template_lang(self) -> str | None:
        """What templates see as ``lang``: the build's language, else the game's source language."""
        return self.lang or self.source_lang

    def _lang_context(self) -> dict[str, Any]:
        """``{"lang": ...}`` for a template's context (:attr:`template_lang`); nothing when no language is known (a
        renderer not made by :func:`printer.sheets.job.make_job`), so that ``lang|default('en')`` still works."""
        lang = self.template_lang
        return {"lang": lang} if lang is not None else {}

    def back_of(self, card: Card) -> Markup:
        """The HTML of ``card``'s back: itself again when :meth:`double_sided`, else its named back (:meth:`back_name`)."""
        if self.double_sided(card):
            return self.front(card, side="back")
        return self.back(self.back_name(card))

    def back(self, back: str) -> Markup:
        """The HTML of the back named ``back``."""
        template = self._template(["back.html.j2"])
        where = f"back {back!r}"
        game, lang = self.game.template_view(), self._lang_context()
        html = self._render(
            template, where, back=back, game=game, component=self.component, project=self.project, **lang
        )
        return self._in_lang(self._checked(html, template, where))

    def back_name(self, card: Card | None) -> str:
        """The back a card prints with (:func:`printer.sheets.backs.back_name`)."""
        return back_name(self.game.settings, card)


#: what ``icon_url`` gives for an icon there is none of: a grey circled question mark (SVG, 12 x 12 px: 3.2 mm unless the template sizes it)
MISSING_ICON = (
    "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' width='12' height='12' viewBox='0 0 16 16'%3E"
    "%3Ccircle cx='8' cy='8' r='7' fill='none' stroke='%23888' stroke-width='1.5'/%3E"
    "%3Ctext x='8' y='12' font-size='11' text-anchor='middle' fill='%23888'%3E%3F%3C/text%3E%3C/svg%3E"
)


def _calling_template() -> str | None:
    """``file:line`` of the innermost template frame on the stack (the template line calling a helper), if any."""
    here = inspect.currentframe()
    frame = here.f_back if here is not None else None
    while frame is not None:
        template = frame.f_globals.get("__jinja_template__")
        if template is not None and template.filename:
            return f"{template.filename}:{template.get_corresponding_lineno(frame.f_lineno)}"
        frame = frame.f_back
    return None


class _LazyArt(TemplateHelper):
    """``art_url`` for templates: the art is prepared (and its dpi checked) only if the template uses it."""

    def __init__(self, make: Callable[[], str | None]) -> None:
        self._make = make
        self._done = False
        self._url: str | None = None

    def _get(self) -> str | None:
        if not self._done:
            self._url, self._done = self._make(), True
        return self._url

    def __bool__(self) -> bool:
        return self._get() is not None

    def __str__(self) -> str:
        return self._get() or ""

    def __html__(self) -> str:
        return str(escape(str(self)))


def _slug(text: str) -> str:
    return "-".join(text.lower().split())
