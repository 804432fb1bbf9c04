"""``printer align``: the duplex alignment test page."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from printer.api.common import usage_error
from printer.api.results import (
    AlignResult,
)
from printer.paths import output_path
from printer.project import Project


def align(
    project: Project, options: dict[str, Any], card_size: str | None = None, out_file: Path | None = None
) -> AlignResult:
    """Print the duplex alignment test page for the project's first game (or ``card_size``).

    ``out_file`` is a folder (the page is ``alignment-<paper>-<duplex>.pdf`` in it; default the project's
    ``build/``) or, ending in ``.pdf``, the file itself.

    ``options`` are sheet options as in :class:`BuildRequest`; a sheet layout file is read as the build reads it,
    and the page is its paper. Raises :class:`UsageError` when the options print no backs (``duplex`` none) or the
    sheet layout file cannot be used (missing, not TOML, outside the project when printer.toml names it).
    """
    from printer.sheets.align import write_alignment_page
    from printer.sheets.faces.items import slug
    from printer.sheets.options import resolve_options

    game = next(iter(project.games.values()), None)
    size = card_size or (game.card_size if game else "poker")
    opts = resolve_options(
        project.settings,
        game.settings if game else {},
        size,
        options,
        str(project.root / "printer.toml"),
        project.limits,
    )
    if opts.duplex == "none":
        raise usage_error("--duplex none prints no backs to align", "use long-edge, short-edge or fold")
    if opts.sheet_layout is not None:  # read as the build reads it: its errors are the build's, its paper the page's
        from dataclasses import replace

        from printer.sheets.options import sheet_layout

        if not options.get("sheet_layout"):  # named by printer.toml: it must lie in the project
            project.contained(opts.sheet_layout, "sheet_layout", str(project.root / "printer.toml"))
        page = sheet_layout(opts, project.root).page
        opts = replace(opts, paper=page, orientation="portrait" if page[0] <= page[1] else "landscape")
    paper = str(options.get("paper") or project.settings.get("paper", "A4"))
    name = f"alignment-{slug(paper)}-{opts.duplex}.pdf"
    if out_file is not None and out_file.suffix.lower() == ".pdf" and not out_file.is_dir():
        target = out_file  # --out FILE.pdf, as earlier versions took it
    else:
        target = output_path(out_file or project.build_dir, name)
    problems = write_alignment_page(project, game, opts, target)
    return AlignResult(target, opts.describe_backs(), opts.back_offset, problems)
