"""Whole HTML documents of a game's templates: sheets of placed faces (``sheet.html.j2``), the duplex alignment page
and a tuck box net. A part of :class:`printer.sheets.render.Renderer`."""

from __future__ import annotations

from typing import Any

import jinja2
from markupsafe import Markup

from printer.project import Game
from printer.sheets.layout import SheetLayout
from printer.sheets.placed import Sheet, geometry_classes


class SheetDocuments:
    """The document methods of :class:`~printer.sheets.render.Renderer` (which gives these attributes and methods)."""

    game: Game
    lang: str | None
    max_chars: int

    def _template(self, names: list[str]) -> jinja2.Template:
        raise NotImplementedError

    def _render(self, template: jinja2.Template, where: str, max_chars: int | None = None, **context: Any) -> Markup:
        raise NotImplementedError

    def stylesheets(self) -> list[str]:
        raise NotImplementedError

    def document(
        self,
        sheets: list[Sheet],
        layout: SheetLayout,
        marks: bool = True,
        title: str = "",
        css: str = "",
        label: bool = True,
    ) -> str:
        """The whole HTML document of ``sheets``, one page of ``layout.page`` each.

        Each sheet's own ``marks`` are drawn; with ``marks`` true and a front
        sheet that has none, the layout's crop marks are. ``css`` is added
        after the game's stylesheet (text-fit sizes); ``label`` prints the
        small sheet label at the bottom edge. The game's stylesheets are
        linked only when a sheet holds a face: the sheets' *chrome* (marks,
        guides, labels, drawn over the imposed faces) is out of their reach.
        """
        from printer.sheets.words import board_caption, words, words_lang

        template = self._template(["sheet.html.j2"])
        if words_lang(self.lang):  # a board page's caption in the build's language
            for sheet in sheets:
                if sheet.board is not None:
                    sheet.caption = board_caption(*sheet.board, lang=self.lang)
        if marks:
            for sheet in sheets:
                if sheet.side == "front" and not sheet.marks:
                    sheet.marks = layout.crop_marks()
        placement_css, placements = geometry_classes(sheets)
        return str(
            self._render(
                template,
                "sheet",
                self.max_chars * (1 + sum(len(s.faces) for s in sheets)),
                sheets=sheets,
                page=layout.page,
                title=title,
                css=Markup(css),
                placement_css=Markup(placement_css),
                placements=placements,
                label=label,
                words=words(self.lang),
                words_lang=words_lang(self.lang),
                stylesheets=self.stylesheets() if any(sheet.faces for sheet in sheets) else [],
                game=self.game.template_view(),
            )
        )

    def alignment_document(
        self,
        page: tuple[float, float],
        flip: str,
        offset: tuple[float, float],
        targets: list[tuple[float, float]],
        backs: list[tuple[float, float]],
        card: tuple[float, float],
        fold: str | None = None,
    ) -> str:
        """The duplex alignment test page (``alignment.html.j2``): crosses on the front, scales behind them.

        ``targets`` are the crosses' centres on the front and ``backs`` where
        each should land on the back page (mm, already mirrored and moved by
        ``offset``); ``card`` is a trim size outlined around the centre target.
        """
        template = self._template(["alignment.html.j2"])
        return str(
            self._render(
                template,
                "alignment page",
                page=page,
                flip=flip,
                offset=offset,
                targets=targets,
                backs=backs,
                card=card,
                fold=fold,
                game=self.game.template_view(),
            )
        )

    def box_document(
        self,
        pages: list[dict[str, Any]],
        page: tuple[float, float],
        art: str | None,
        title: str,
        details: str,
        notch: float,
    ) -> str:
        """A tuck box net (``box.html.j2``): ``pages`` of pieces (offset, cut outline, folds, panels, all mm).

        ``art`` is a ``data:`` URL of the card back drawn on the front and back
        panels (or ``None``); ``title`` the game's name; ``details`` a line
        for the back panel. See :mod:`printer.box`.
        """
        from printer.sheets.words import words_lang

        template = self._template(["box.html.j2"])
        return str(
            self._render(
                template,
                "box",
                pages=pages,
                page=page,
                art=art,
                title=title,
                details=details,
                notch=notch,
                words_lang=words_lang(self.lang),
                game=self.game.template_view(),
            )
        )
