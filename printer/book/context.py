"""What every stage of a rules book shares: the game, its cards, templates, labels and problems.

The book's templates (``rules/*.html.j2``, ``rules/*.css``) are found on the
game's template search path (``templates/<game>/``, ``templates/``, then
printer's bundled ones), so a game or a project can override any of them.
They render in a sandboxed, autoescaping Jinja2 environment of their own;
card faces render through the game's :class:`printer.sheets.render.Renderer`.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import jinja2
from markupsafe import Markup

from printer.book.markdown import rules_markdown
from printer.book.source import Edition
from printer.cards.catalog import load_cards
from printer.cards.markup import RenderEnv, unknown_icon
from printer.cards.model import Card, CardSet
from printer.plugins import installed_games
from printer.problems import WARNING, PrinterError, Problem, RenderError, did_you_mean
from printer.project import Game, Project
from printer.sheets.layout import CARD_SIZES, parse_size
from printer.sheets.render import Renderer, project_view
from printer.sheets.sandbox import TemplateSandbox, template_context, template_problem

if TYPE_CHECKING:
    from printer.sheets.job import SheetJob

#: Words the book prints, per language; a game's ``GameSupport.labels`` override them, and ``labels`` in
#: ``rules.toml`` override both.
LABELS: dict[str, dict[str, str]] = {
    "en": {
        "contents": "Contents",
        "page": "p.",
        "rules_reference": "Rules reference",
        "player_aid": "Player aid",
        "example": "Example",
        "note": "Note",
        "tip": "Tip",
        "important": "Important",
        "variant": "Variant",
        "clarification": "Clarification",
        "card": "Card",
        "type": "Type",
        "set": "Set",
        "number": "No.",
        "icon": "Icon",
        "meaning": "Meaning",
        "markup": "Markup",
        "section": "Part of the deck",
        "cards": "Card types",
        "size": "Size",
        "copy_limit": "Copy limit",
        "unique_limit": "Unique cards",
        "copies": "{n} copies of a card at most",
        "unique_copies": "{n} copy of each Unique card at most",
        "card_pool": "Card pool",
        "banned": "Banned list",
        "no_bans": "No card is banned.",
        "checks": "Further rules",
        "no_cards": "No cards yet.",
        "continued": "continued",
    },
    "ja": {
        "contents": "目次",
        "page": "p.",
        "rules_reference": "ルールリファレンス",
        "player_aid": "プレイヤーエイド",
        "example": "例",
        "note": "注意",
        "tip": "ヒント",
        "important": "重要",
        "variant": "ヴァリアント",
        "clarification": "補足",
        "card": "カード",
        "type": "種類",
        "set": "セット",
        "number": "番号",
        "icon": "アイコン",
        "meaning": "意味",
        "markup": "記法",
        "section": "デッキの区分",
        "cards": "カードの種類",
        "size": "枚数",
        "copy_limit": "同名カード",
        "unique_limit": "ユニーク",
        "copies": "同じカードは{n}枚まで",
        "unique_copies": "ユニークのカードは各{n}枚まで",
        "card_pool": "使用できるカード",
        "banned": "禁止カード",
        "no_bans": "禁止カードはありません。",
        "checks": "その他の条件",
        "no_cards": "カードはまだありません。",
        "continued": "続き",
    },
}


class _NoNestedBlocks:
    """The Markdown renderer's block hook inside a block: each printer block becomes an error box."""

    footnotes: dict[int, str] = {}

    def block(self, info: str, body: str, line: int) -> Markup:
        return Markup('<div class="rb-block-error">printer blocks cannot nest</div>')


class RulesContext:
    """One game's book in the making.

    ``problems`` collects every problem found by any stage; ``file`` is the
    chapter being rendered (for locating problems). Cards are read on first
    use from ``cards_dir`` (default: the game's card folder).
    """

    def __init__(
        self, project: Project, game: Game, edition: Edition | None, roots: list[Path], cards_dir: Path | None = None
    ):
        self.project = project
        self.game = game
        self.edition = edition
        self.roots = roots
        self.cards_dir = cards_dir or game.cards
        self.problems: list[Problem] = []
        self.file: Path | None = None
        self.renderer = Renderer(game, roots)
        self.renderer.project = project_view(project.settings)  # the version stamp, as on the printed cards
        self.renderer.source_lang = _cards_lang(project, game, edition)
        self.card_size = parse_size(game.card_size, CARD_SIZES, "card size", project.limits.size_mm)
        lang = edition.lang if edition else "en"
        key = "ja" if lang.startswith("ja") else "en"
        support = installed_games().get(game.id)
        game_labels = dict(support.labels.get(key, {})) if support else {}
        self.labels = {**LABELS[key], **game_labels, **((edition.settings.get("labels") or {}) if edition else {})}
        self.md = rules_markdown(lang, self.labels, project.limits.markdown_nesting)
        #: the name each card type prints under in this edition (``types`` in rules.toml), else the type itself
        self.type_names: dict[str, str] = dict((edition.settings.get("types") or {}) if edition else {})
        self.env = TemplateSandbox.for_templates(game.template_dirs, roots)
        self._cards: CardSet | None = None
        self._fit_job: SheetJob | None = None

    # -- cards ---------------------------------------------------------------

    @property
    def cards(self) -> CardSet:
        """The game's valid cards (read once); card-file errors land in ``problems``."""
        if self._cards is None:
            if not Path(self.cards_dir).is_dir():
                self._cards = CardSet(self.game.id)
                self.problems.append(
                    Problem(
                        str(self.cards_dir), f"{self.game.id} has no card folder yet", severity=WARNING, code="no-cards"
                    )
                )
            else:
                sets, problems = load_cards(self.project, [Path(self.cards_dir)], self.game.id)
                self.problems += problems
                self._cards = self._in_edition_lang(sets.get(self.game.id) or CardSet(self.game.id))
        return self._cards

    def _in_edition_lang(self, cards: CardSet) -> CardSet:
        """``cards`` in the edition's language (rules.toml ``lang``) when the game declares that language and it is not
        the source: an English edition of a Japanese game embeds the English cards (docs/translations.md). A missing
        translation prints the source text; the problems of translations are ``printer validate``'s to report."""
        from printer.cards.catalog import schema_store
        from printer.cards.translations import languages, load_translations, translatable_fields, translate

        lang = self.edition.lang if self.edition else None
        langs = languages(self.project, self.game.id)
        if not lang or lang == langs[0] or lang not in langs or not len(cards):
            return cards
        store = schema_store(self.project)
        fields = translatable_fields(self.project, self.game.id, store.schema(self.game.schema), store)
        book, _ = load_translations(self.project, [Path(self.cards_dir)], store=store)
        translated, _ = translate(cards, book, lang, fields)
        return translated

    def card_ids(self) -> list[str]:
        return [c.id for c in self.cards]

    def find_card(self, ref: str, where: str) -> Card | None:
        """The card with id (or full name) ``ref``, or ``None`` with a warning naming the closest ids."""
        card = self.cards.by_id(ref) or next(iter(self.cards.by_name(ref)), None)
        if card is None:
            hint = did_you_mean(ref, self.card_ids()) or (
                "did you mean " + " or ".join(repr(n) for n in self.cards.closest_names(ref)) + "?"
                if self.cards.closest_names(ref)
                else None
            )
            self.problems.append(
                Problem(
                    where,
                    f"no {self.game.id} card with id or name {ref!r}; printing a placeholder",
                    hint,
                    WARNING,
                    "unknown-card",
                )
            )
        return card

    def fit_faces(self, faces: list[tuple[Markup, Card | None]]) -> list[Markup]:
        """Card faces ``(html, card or None)`` with their text fitted as on card sheets (:mod:`printer.sheets.fit`).

        A fit box that overflows is shrunk down to its template's minimum
        (``data-fit-min``); one that still overflows is a warning naming the
        card and field, as ``printer build`` gives.
        """
        from printer.sheets.job import new_job
        from printer.sheets.options import PrintOptions

        if self._fit_job is None:
            self._fit_job = new_job(self.renderer, PrintOptions(card=self.card_size, bleed=0.0), self.project.root)
        owners = [
            (str(card.where), card.name, card) if card is not None else ("rules", "card", None) for _, card in faces
        ]
        fitted = self._fit_job.fitter.fit_faces([(html, owner) for (html, _), owner in zip(faces, owners)])
        for problem in self._fit_job.fitter.fit_problems():
            if problem not in self.problems:
                self.problems.append(problem)
        return fitted

    # -- text ------------------------------------------------------------------

    def inline(self, text: str, where: str) -> Markup:
        """One line of rules markup (emphasis, icons, links) to HTML."""
        icons = RenderEnv(icon_url=self.renderer.icon_url)
        html = Markup(self.md.renderInline(text, {"printer": icons}))
        self._unknown_icons(icons, where)
        return html

    def block_text(self, text: str) -> tuple[Markup, RenderEnv]:
        """Markdown paragraphs (a block's caption, an aid's body) to HTML, where a printer block inside is refused
        with an error box in its place (blocks do not nest); returns ``(html, icons)``, ``icons`` holding the icon
        names the text used, for the caller to locate the unknown ones."""
        icons = RenderEnv(icon_url=self.renderer.icon_url)
        return Markup(self.md.render(text, {"printer": icons, "rules": _NoNestedBlocks()})), icons

    def _unknown_icons(self, icons: RenderEnv, where: str) -> None:
        names = self.renderer.icon_names()
        for name in dict.fromkeys(icons.unknown_icons):
            self.problems.append(unknown_icon(where, name, names))

    # -- templates ---------------------------------------------------------------

    def render(self, name: str, **context: object) -> Markup:
        """Render the template ``rules/<name>``; template errors raise :class:`RenderError` naming the file."""
        template = None
        try:
            template = self.env.get_template(f"rules/{name}")
            return Markup(
                template.render(
                    **template_context({"game": self.game.template_view(), "labels": self.labels, **context})
                )
            )
        except jinja2.TemplateSyntaxError as exc:
            raise RenderError(
                str(exc),
                [Problem(f"{exc.filename}:{exc.lineno}", f"template syntax error: {exc.message}", code="template")],
            ) from None
        except jinja2.TemplateNotFound as exc:
            raise RenderError(
                str(exc),
                [
                    Problem(
                        f"templates/rules/{name}",
                        "template not found",
                        "looked in " + ", ".join(str(d) for d in self.game.template_dirs),
                        code="template",
                    )
                ],
            ) from None
        except PrinterError:
            raise
        except Exception as exc:  # a template is user code: any error it raises is reported at its file and line
            filename = getattr(template, "filename", None) or f"templates/rules/{name}"
            problem = template_problem(exc, filename)
            raise RenderError(problem.message, [problem]) from None

    def find_template_file(self, relative: str) -> Path | None:
        """The first ``relative`` file on the game's template search path."""
        return self.renderer.find_file(relative)

    def collect_renderer_problems(self) -> None:
        """Move the card renderer's warnings (unknown icons in card text, missing art) into ``problems``."""
        self.problems += self.renderer.problems
        self.renderer.problems = []


def _cards_lang(project: Project, game: Game, edition: Edition | None) -> str:
    """The language of the cards an edition shows, which their templates see as ``lang``: the edition's (rules.toml
    ``lang``) when the game declares it (see :meth:`RulesContext._in_edition_lang`), else the game's source."""
    from printer.cards.translations import languages

    langs = languages(project, game.id)
    lang = edition.lang if edition else None
    return lang if lang in langs else langs[0]
