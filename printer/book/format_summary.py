"""The format summary block: deck formats printed from the same data ``printer deck check`` uses.

Formats are read through :mod:`printer.decks` (``available_formats`` and
``load_format_file``), so the book and the deck checker cannot disagree:
deck sections with their sizes and card types, the copy limit, the Unique
limit, cards that raise limits, the card pool, the banned list and the
named checks (each described by its docstring's first sentence).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from printer.book.context import RulesContext
from printer.plugins import find_check
from printer.problems import WARNING, Problem, did_you_mean

if TYPE_CHECKING:
    from printer.decks.formats import Format


@dataclass
class FormatSummary:
    """What the ``format`` block prints of one format (all texts plain, escaped by the template)."""

    id: str
    name: str
    description: str = ""
    sections: list[dict[str, str]] = field(default_factory=list)  # name, size, types
    limits: list[str] = field(default_factory=list)
    allowances: list[str] = field(default_factory=list)
    pool: str = ""
    banned: list[dict[str, str]] = field(default_factory=list)  # name, note
    checks: list[str] = field(default_factory=list)


_SOURCE_NOTE = re.compile(r"\s*\((?:seed|source|issue)\b[^)]*\)", re.I)


def _first_sentence(text: str | None) -> str:
    """The first sentence, without the data's source notes ("(source: ...)") that players need not read."""
    text = _SOURCE_NOTE.sub("", " ".join((text or "").split()))
    end = text.find(". ")
    return text if end < 0 else text[: end + 1]


def format_summaries(ctx: RulesContext, ids: list[str], where: str) -> list[FormatSummary]:
    """The summaries of the formats ``ids`` (default: every format whose ``game`` is the book's game).

    An unknown id or an invalid format file is a warning at ``where``.
    """
    from printer.decks import FormatError, available_formats, load_format_file
    from printer.plugins import all_checks

    roots = [ctx.project.root]
    known = available_formats(roots)
    formats = []
    if ids:
        for ref in ids:
            if ref not in known:
                ctx.problems.append(
                    Problem(
                        where,
                        f"unknown format {ref!r}",
                        did_you_mean(ref, list(known)) or ("formats: " + ", ".join(sorted(known)) if known else None),
                        WARNING,
                        "unknown-format",
                    )
                )
                continue
            formats.append((ref, known[ref]))
    else:
        formats = sorted(known.items())
    summaries = []
    for _format_id, path in formats:
        try:
            fmt = load_format_file(path, roots)
        except FormatError as exc:
            ctx.problems += [p.with_severity(WARNING) for p in exc.problems]
            continue
        if not ids and fmt.game != ctx.game.id:
            continue
        summaries.append(_summary(ctx, fmt, all_checks()))
    if not summaries:
        ctx.problems.append(
            Problem(
                where,
                f"no deck format for {ctx.game.id}",
                f"add one to schema/{ctx.game.id}/formats/",
                WARNING,
                "no-format",
            )
        )
    return summaries


def _summary(ctx: RulesContext, fmt: Format, checks: Mapping[str, Callable[..., object]]) -> FormatSummary:
    labels = ctx.labels
    summary = FormatSummary(fmt.id, fmt.name, _SOURCE_NOTE.sub("", fmt.description or ""))
    for section in fmt.sections:
        names = [ctx.type_names.get(t, t) for t in section.types or ()]
        types = ", ".join(names) if names else (section.deck or "")
        summary.sections.append({"name": section.name, "size": section.bounds(), "types": types})
    if fmt.copy_limit:
        summary.limits.append(labels["copies"].format(n=fmt.copy_limit))
    if fmt.unique_limit:
        summary.limits.append(labels["unique_copies"].format(n=fmt.unique_limit))
    for allowance in getattr(fmt, "allowances", []) or []:
        note = _first_sentence(allowance.note) or str(allowance.limit)
        summary.allowances.append(f"{allowance.granted_by} — {note}")
    summary.pool = fmt.legal_description()
    summary.banned = [{"name": ban.name, "note": ban.note or ""} for ban in fmt.banned.values()]
    summary.checks = [
        _first_sentence(getattr(find_check(name, fmt.game), "__doc__", None)) or name for name in fmt.checks
    ]
    return summary
