"""Jinja2 rendering: card faces and the HTML of whole card sheets.

One sandboxed, autoescaping Jinja2 environment per game, whose search path
is the game's template folders (the project's first, then printer's bundled
ones: see :class:`printer.project.Game`). A game's folder holds:

- ``card.html.j2``: the front of a card (``card-<type>.html.j2`` overrides it
  for one card type, lower-case, spaces as ``-``);
- ``back.html.j2``: a card back, given the back's name as ``back``;
- ``card.css``: the styles of both;
- ``icons/<name>.svg``: the icons card text can use as ``{name}``.

The common ``sheet.html.j2`` places the faces on sheets. Template variables
are documented in each bundled template's header comment.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import jinja2
from jinja2.sandbox import SandboxedEnvironment
from markupsafe import Markup

from .cards import Card
from .errors import WARNING, Problem, RenderError, did_you_mean
from .layout import SheetLayout
from .markup import RenderEnv, to_html
from .project import Game


@dataclass
class Face:
    """One card face placed on a sheet: trim box at (x, y) mm, size (w, h) mm."""

    html: Markup
    x: float
    y: float
    w: float
    h: float
    rotate: int = 0
    label: str = ""


@dataclass
class Sheet:
    """One page of faces; ``side`` is ``front`` or ``back``."""

    side: str
    faces: list[Face] = field(default_factory=list)
    number: int = 1


class Renderer:
    """Renders a game's cards to HTML with its templates.

    Problems found while rendering (unknown icons, missing art) are
    collected in ``problems`` as warnings. Template errors raise
    :class:`RenderError` naming the template file and line.
    """

    def __init__(self, game: Game, allowed_roots: list[Path]):
        self.game = game
        self.allowed_roots = allowed_roots
        self.problems: list[Problem] = []
        self.env = SandboxedEnvironment(
            loader=jinja2.FileSystemLoader([str(d) for d in game.template_dirs]),
            autoescape=True,
            undefined=jinja2.StrictUndefined,
            trim_blocks=True,
            lstrip_blocks=True,
        )
        self.env.filters["markup"] = self._markup_filter
        self.env.globals["icon_url"] = self.icon_url
        self._icons: dict[str, str | None] = {}

    # -- resources ---------------------------------------------------------

    def find_file(self, relative: str) -> Path | None:
        """The first file ``relative`` on the template search path."""
        for folder in self.game.template_dirs:
            candidate = folder / relative
            if candidate.is_file():
                return candidate
        return None

    def icon_url(self, name: str) -> str | None:
        if name not in self._icons:
            path = self.find_file(f"icons/{name}.svg")
            self._icons[name] = path.resolve().as_uri() if path else None
        return self._icons[name]

    def icon_names(self) -> list[str]:
        names = set()
        for folder in self.game.template_dirs:
            if (folder / "icons").is_dir():
                names |= {p.stem for p in (folder / "icons").glob("*.svg")}
        return sorted(names)

    def stylesheets(self) -> list[str]:
        return [p.resolve().as_uri() for p in [self.find_file("card.css")] if p]

    # -- text --------------------------------------------------------------

    def markup(self, text: str, where: str) -> Markup:
        """Card text to HTML; unknown icons become warnings located at ``where``."""
        env = RenderEnv(icon_url=self.icon_url)
        html = to_html(text, env)
        for name in dict.fromkeys(env.unknown_icons):
            self.problems.append(Problem(where, f"unknown icon {{{name}}}",
                                         did_you_mean(name, self.icon_names()) or "icons: " + ", ".join(self.icon_names()),
                                         WARNING, "unknown-icon"))
        return html

    def _markup_filter(self, text: object) -> Markup:
        return self.markup(str(text), "template")

    # -- faces -------------------------------------------------------------

    def _template(self, names: list[str]) -> jinja2.Template:
        try:
            return self.env.select_template(names)
        except jinja2.TemplateSyntaxError as exc:
            raise RenderError(str(exc), [Problem(f"{exc.filename}:{exc.lineno}", f"template syntax error: {exc.message}",
                                                 code="template")]) from None
        except jinja2.TemplateNotFound:
            dirs = ", ".join(str(d) for d in self.game.template_dirs)
            raise RenderError(f"no template {names[-1]}", [Problem(f"templates/{self.game.id}", f"no template {' or '.join(names)}",
                                                                   f"looked in {dirs}", code="template")]) from None

    def _render(self, template: jinja2.Template, where: str, **context) -> Markup:
        try:
            return Markup(template.render(**context))
        except jinja2.UndefinedError as exc:
            raise RenderError(str(exc), [Problem(f"{template.filename}", f"template error: {exc.message}",
                                                 f"while rendering {where}", code="template")]) from None
        except jinja2.TemplateError as exc:
            raise RenderError(str(exc), [Problem(f"{template.filename}", f"template error: {exc}",
                                                 f"while rendering {where}", code="template")]) from None

    def front(self, card: Card) -> Markup:
        """The HTML of a card's front."""
        data = dict(card.data)
        data.setdefault("copies", 1)
        context = {
            "card": data,
            "name": card.name,
            "text": self.markup(card.get("text", ""), card.record.where(".text")),
            "flavor": self.markup(card.get("flavor", ""), card.record.where(".flavor")),
            "art_url": self._art_url(card),
            "game": self.game,
            "type_class": _slug(card.type),
        }
        names = [f"card-{_slug(card.type)}.html.j2", "card.html.j2"]
        return self._render(self._template(names), card.where, **context)

    def placeholder(self, name: str, reason: str) -> Markup:
        """A labelled stand-in front for a card that could not be found."""
        template = self._template(["placeholder.html.j2"])
        return self._render(template, name, name=name, reason=reason, game=self.game)

    def back(self, back: str) -> Markup:
        """The HTML of the back named ``back``."""
        return self._render(self._template(["back.html.j2"]), f"back {back!r}", back=back, game=self.game)

    def back_name(self, card: Card | None) -> str:
        """The back a card prints with: its ``back`` field, else the game's mapping, else ``default``.

        The mapping is ``printer.toml``'s ``[games.<id>]`` keys ``back_field``
        (the card field that decides) and the table ``backs`` (field value to
        back name).
        """
        if card is None:
            return "placeholder"
        if card.get("back"):
            return card["back"]
        field_name = self.game.settings.get("back_field")
        backs = self.game.settings.get("backs", {})
        if field_name and card.get(field_name) in backs:
            return backs[card[field_name]]
        return "default"

    def _art_url(self, card: Card) -> str | None:
        art = card.art_path()
        if art is None:
            return None
        if not art.is_file():
            self.problems.append(Problem(card.record.where(".art"), f"art file not found: {art}; printing a placeholder",
                                         severity=WARNING, code="missing-art"))
            return None
        return art.resolve().as_uri()

    # -- sheets ------------------------------------------------------------

    def document(self, sheets: list[Sheet], layout: SheetLayout, marks: bool = True, title: str = "") -> str:
        """The whole HTML document of ``sheets``, one page each."""
        template = self._template(["sheet.html.j2"])
        xs, ys = layout.cut_lines()
        gx, gy = layout.origin
        gw, gh = layout.grid_size
        return str(self._render(template, "sheet", sheets=sheets, page=layout.page, marks=marks,
                                cut_xs=xs, cut_ys=ys, grid=(gx, gy, gw, gh), title=title,
                                stylesheets=self.stylesheets(), game=self.game))


def _slug(text: str) -> str:
    return "-".join(text.lower().split())
