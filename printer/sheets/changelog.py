"""The changelog page of a reprint (``build --since``): each reprinted card and what changed, and the cards
to take out, on a page of the sheets' paper size appended to the reprint's PDF."""

from __future__ import annotations

import io
from collections.abc import Sequence
from pathlib import Path

from markupsafe import Markup, escape

from printer.fsutil import atomic_open
from printer.problems import Problem
from printer.sheets.changes import CardChange
from printer.sheets.words import words, words_lang

_CSS = """
@page { size: %(w).2fmm %(h).2fmm; margin: 14mm 14mm 16mm 14mm;
  @bottom-right { content: counter(page) " / " counter(pages); font-size: 7pt; color: #666; } }
body { font: 9pt/1.35 "DejaVu Sans", "Noto Sans CJK JP", sans-serif; color: #111; }
h1 { font-size: 15pt; margin: 0 0 1mm 0; }
p.sub { margin: 0 0 5mm 0; color: #444; }
table { width: 100%%; border-collapse: collapse; }
th { text-align: left; font-size: 8pt; color: #555; border-bottom: 0.6pt solid #111; padding: 1mm 2mm; }
td { vertical-align: top; border-bottom: 0.3pt solid #bbb; padding: 1.4mm 2mm; }
td.card { width: 36%%; } td.card small { color: #666; display: block; }
td ul { margin: 0; padding-left: 3.5mm; } td li { margin: 0 0 0.6mm 0; }
.status { font-size: 7pt; text-transform: uppercase; letter-spacing: 0.05em; color: #fff; background: #555;
  padding: 0.2mm 1.2mm; border-radius: 0.8mm; }
.added { background: #2a7a3a; } .removed { background: #a33; } .changed { background: #2d5b9a; }
h2 { font-size: 11pt; margin: 6mm 0 2mm 0; }
"""


def changelog_html(
    title: str,
    since: str,
    reprinted: Sequence[CardChange],
    removed: Sequence[CardChange],
    versions: tuple[str | None, str | None],
    date: str,
    page: tuple[float, float],
    lang: str | None = None,
) -> str:
    """The page's HTML: ``title`` (the game's name), the revision or manifest ``since``, the cards
    ``reprinted`` and ``removed``, the project's ``versions`` (before, now), the build ``date`` and the
    ``page`` size in mm; its headings in the words of the build's language ``lang``
    (:mod:`printer.sheets.words`; ``None``: English), the root element carrying that language when not English."""
    w = words(lang)
    old, new = versions
    stamp = f"{old or '?'} → {new}" if new and old != new else (new or "")
    version = w["version"].format(version=stamp) if stamp else ""
    facts = [p for p in (version, date, w["since"].format(since=since)) if p]
    rows = [_row(change, w) for change in reprinted]
    to_cut = w["to_cut_one"] if len(reprinted) == 1 else w["to_cut"].format(count=len(reprinted))
    parts = [
        f"<h1>{escape(title)}: {escape(w['reprint'])}</h1>",
        f'<p class="sub">{escape(" · ".join(facts))}</p>',
        f"<p>{escape(to_cut)}</p>",
        f"<table><tr><th>{escape(w['card'])}</th><th>{escape(w['what_changed'])}</th></tr>"
        + "".join(rows)
        + "</table>",
    ]
    if removed:
        rows = [_row(change, w) for change in removed]
        parts.append(f"<h2>{escape(w['take_out'])}</h2><table>" + "".join(rows) + "</table>")
    css = _CSS % {"w": page[0], "h": page[1]}
    chosen = words_lang(lang)
    root = f'<html lang="{escape(chosen)}">' if chosen else "<html>"
    return f"<!DOCTYPE html>{root}<head><meta charset='utf-8'><style>{css}</style></head><body>{''.join(parts)}</body></html>"


#: lines of changes shown for one card (a card of 1,000 changed fields would otherwise make pages of them, and a
#: build of thousands such cards a changelog WeasyPrint lays out for hours)
LINES_PER_CARD = 12


def _row(change: CardChange, w: dict[str, str]) -> str:
    lines = change.lines() or ([w["new_card"]] if change.status == "added" else [w["gone"]])
    if len(lines) > LINES_PER_CARD:
        lines = [*lines[: LINES_PER_CARD - 1], w["more"].format(count=len(lines) - LINES_PER_CARD + 1)]
    items = "".join(f"<li>{escape(line)}</li>" for line in lines)
    status = f'<span class="status {change.status}">{escape(w.get(change.status, change.status))}</span>'
    card = f"<b>{escape(change.name)}</b> {Markup(status)}<small>{escape(change.id)}</small>"
    return f'<tr><td class="card">{card}</td><td><ul>{items}</ul></td></tr>'


def append_changelog(target: Path, html: str, base: Path) -> list[Problem]:
    """Lay ``html`` out (WeasyPrint, no file or network read) and append its pages to the PDF ``target``,
    atomically; returns the layout's warnings."""
    import pikepdf

    from printer.sheets.pdf import pdf_bytes, render_one

    document, problems = render_one(html, [], base, str(target))
    data, more = pdf_bytes([document], str(target))
    with pikepdf.open(target) as pdf, pikepdf.open(io.BytesIO(data)) as page:
        pdf.pages.extend(page.pages)
        with atomic_open(target) as handle:
            pdf.save(handle)
    return problems + more
