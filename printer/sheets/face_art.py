"""The art of a card face as its templates ask for it (``art_url``, ``art_for``, ``art_missing``): prepared for its
box by :mod:`printer.sheets.images`, with warnings for missing, unreadable or low-resolution art. A part of
:class:`printer.sheets.render.Renderer`."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from printer.cards.model import Card
from printer.problems import WARNING, Location, Problem, RenderError
from printer.sheets.images import FITS, LOW_DPI, MIN_DPI, ArtCache, needed_px


class FaceArt:
    """The art methods of :class:`~printer.sheets.render.Renderer` (which sets these attributes)."""

    problems: list[Problem]
    art_cache: ArtCache | None
    allowed_roots: list[Path]
    header_dpi: bool
    unknown_icon_calls: int
    _art_sizes: dict[Path, tuple[int, int] | None]
    _low_dpi_seen: dict[Path, tuple[Location, set[Location], tuple[float, tuple[int, int], tuple[float, float]]]]
    _unreadable_art: set[Path]

    def _art_missing(self, card: Card) -> str | None:
        art = card.art_path()
        return art.name if art is not None and (not art.is_file() or art in self._unreadable_art) else None

    def _art_url(self, card: Card) -> str | None:
        art = card.art_path()
        if art is None:
            return None
        if not art.is_file():
            problem = Problem(
                card.record.where(".art"),
                f"art file not found: {art}; printing a placeholder",
                severity=WARNING,
                code="missing-art",
            )
            if problem not in self.problems:
                self.problems.append(problem)
            return None
        resolved = art.resolve()
        if not any(resolved.is_relative_to(Path(root).resolve()) for root in self.allowed_roots):
            message = f"art file {resolved} is outside the project (through '..', an absolute path or a symbolic link)"
            raise RenderError(
                message,
                [
                    Problem(
                        card.record.where(".art"), message, "put the art inside the project folder", code="art-outside"
                    )
                ],
            )
        return resolved.as_uri()

    def _art_for(self, card: Card) -> Callable[..., str | None]:
        """The template function ``art_for(width_mm, height_mm, fit="cover")`` for ``card``."""

        def art_for(width_mm: float, height_mm: float, fit: str = "cover") -> str | None:
            # wrong arguments are the template's error, whether or not the card has art (validate renders without
            # preparing art: it must fail where build does)
            try:
                width_mm, height_mm = float(width_mm), float(height_mm)
            except (TypeError, ValueError):
                raise ValueError(f"art_for({width_mm!r}, {height_mm!r}): width and height are lengths in mm") from None
            if fit not in FITS or not (width_mm > 0 and height_mm > 0):
                raise ValueError(f"art_for({width_mm:g}, {height_mm:g}, fit={fit!r}): a box over 0 mm, fit {FITS}")
            url, art = self._art_url(card), card.art_path()
            if url is not None and art is not None and art.suffix.lower() == ".svg" and self._broken_svg(art):
                return None  # validation reported it at the card's art field; the template shows art_missing
            if url is not None and art is not None and self.art_cache is None and self.header_dpi:
                self._header_dpi(card, art, (width_mm, height_mm), fit)
            if url is None or art is None or self.art_cache is None:
                return url
            try:
                prepared = self.art_cache.prepare(art, (float(width_mm), float(height_mm)), fit)
            except (OSError, ValueError) as exc:
                self._unreadable_art.add(art)
                problem = Problem(
                    card.record.where(".art"),
                    f"art cannot be read: {exc}; printing a placeholder",
                    severity=WARNING,
                    code="bad-art",
                )
                if problem not in self.problems:
                    self.problems.append(problem)
                return None
            if prepared.dpi is not None and prepared.source_px is not None and prepared.dpi < LOW_DPI:
                self._low_dpi(card, art, prepared.dpi, prepared.source_px, (float(width_mm), float(height_mm)))
            return prepared.path.as_uri()

        return art_for

    def _broken_svg(self, art: Path) -> bool:
        """Whether the SVG art at ``art`` cannot be drawn (:func:`printer.cards.art.svg_problem`), found once."""
        if art not in self._unreadable_art and art not in self._art_sizes:
            from printer.cards.art import svg_problem

            if svg_problem(art):
                self._unreadable_art.add(art)
            self._art_sizes[art] = None
        return art in self._unreadable_art

    def _header_dpi(self, card: Card, art: Path, box: tuple[float, float], fit: str) -> None:
        """Low-dpi art found from the image's header alone (its pixel size), as :meth:`ArtCache.prepare` finds it."""
        from printer.cards.art import open_image
        from printer.sheets.images import effective_dpi

        if art.suffix.lower() == ".svg":
            return
        if art not in self._art_sizes:
            try:
                with open_image(art) as image:
                    self._art_sizes[art] = image.size
            except OSError:  # reported as unreadable art by validation
                self._art_sizes[art] = None
        size = self._art_sizes[art]
        if size is not None and effective_dpi(size, box, fit) < LOW_DPI:
            self._low_dpi(card, art, effective_dpi(size, box, fit), size, box)

    def _low_dpi(self, card: Card, art: Path, dpi: float, px: tuple[int, int], box: tuple[float, float]) -> None:
        """Report art printing under :data:`LOW_DPI`: one ``low-dpi`` warning per art file, at the first card using
        it, for the lowest dpi it prints at, with the number of cards and the pixel size that would do."""
        self.unknown_icon_calls += 1
        key = art.resolve()
        seen = self._low_dpi_seen.get(key)
        cards = ({card.where} | seen[1]) if seen is not None else {card.where}
        worst = (dpi, px, box) if seen is None or dpi < seen[2][0] else seen[2]
        where = seen[0] if seen is not None else card.record.where(".art")
        self._low_dpi_seen[key] = (where, cards, worst)
        (dpi, px, box), need = worst, needed_px(worst[2])
        on = f", on {len(cards)} cards" if len(cards) > 1 else ""
        problem = Problem(
            where,
            f"art {art.name} is {dpi:.0f} dpi at its printed size {box[0]:g} x {box[1]:g} mm ({px[0]} x {px[1]} px){on}",
            f"{need[0]} x {need[1]} px or more would print at {MIN_DPI} dpi",
            WARNING,
            "low-dpi",
        )
        at = next((i for i, p in enumerate(self.problems) if p.where == where and p.code == "low-dpi"), None)
        if at is None:
            self.problems.append(problem)
        else:
            self.problems[at] = problem
