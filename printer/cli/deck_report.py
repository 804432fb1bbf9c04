"""How ``printer deck check`` prints its verdicts: one deck in full, many decks a line each and a summary."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import TYPE_CHECKING

import click

from printer.api import counted
from printer.cli.output import EXIT_INVALID, EXIT_OK, EXIT_USAGE, report, report_lines

if TYPE_CHECKING:
    from printer.api import DeckCheck, DeckReport


def print_groups(result: DeckReport, strict: bool = False) -> None:
    """A deck's problems on stderr, in three groups: rules broken, unresolved names, warnings (errors with
    ``strict``)."""
    lines = group_lines(result, strict)
    if lines:
        click.echo("\n".join(lines), err=True)


def group_lines(result: DeckReport, strict: bool = False) -> list[str]:
    """What :func:`print_groups` prints, as lines: each group under its title, then one count of them all."""
    groups = [
        ("rules broken:", [v.problem(result.deck) for v in result.violations]),
        ("cards not found in the card data (not counted in the rules above):", result.unresolved),
        ("warnings (errors with --strict):" if strict else "warnings:", result.warnings),
    ]
    lines = []
    for title, problems in groups:
        if problems:
            lines += [title, *report_lines(problems, strict)[0][:-1]]  # without the group's own count
    if lines:
        lines.append(report_lines([p for _, problems in groups for p in problems], strict)[0][-1])
    return lines


def card_problems_note(result: DeckCheck, strict: bool) -> None:
    """The one line saying that some cards were left out because their files have errors."""
    n_bad = len(result.card_problems)
    if n_bad:
        targets = " ".join(str(t) for t in result.card_sources)
        click.echo(
            f"{'error' if strict else 'warning'}: {counted(n_bad, 'problem')} in the card files; "
            f"those cards are left out (run printer validate {targets})",
            err=True,
        )


def print_one(result: DeckCheck, as_json: bool, strict: bool) -> int:
    """One decklist in full (problems, section sizes, verdict); returns the exit code (2: unreadable)."""
    if not result.readable:
        if as_json:
            click.echo(json.dumps(result.report.as_dict(), indent=2, ensure_ascii=False))
        report(result.read_problems, strict)
        return EXIT_USAGE
    card_problems_note(result, strict)
    if as_json:
        click.echo(json.dumps(result.report.as_dict(), indent=2, ensure_ascii=False))
    else:
        print_groups(result.report, strict)
        for line in result.report.summary_lines():
            click.echo(line)
    if result.strict_failed(strict) and not as_json:
        n = len(result.report.warnings) + len(result.card_problems)
        click.echo(f"--strict: not accepted: {counted(n, 'warning')} count as errors")
    return EXIT_OK if result.accepted(strict) else EXIT_INVALID


def print_many(results: Sequence[DeckCheck], as_json: bool, strict: bool) -> int:
    """Each decklist's problems (stderr) and verdict line (stdout), then a summary line; with ``as_json`` one JSON
    array of the reports. Exit 1 when any deck is not legal (an unreadable one included), else 0."""
    from printer.api import decks_summary

    if results:
        card_problems_note(results[0], strict)
    if as_json:
        click.echo(json.dumps([r.report.as_dict() for r in results], indent=2, ensure_ascii=False))
    else:
        for result in results:
            if not result.readable:
                lines = report_lines(result.read_problems, strict)[0]
            else:
                lines = group_lines(result.report, strict)
            if lines:
                click.echo("\n".join(lines), err=True)
            note = " (--strict: warnings count as errors)" if result.strict_failed(strict) else ""
            click.echo(f"{result.deck}: {result.report.verdict()}{note}")
        click.echo(decks_summary(results, strict))
    return EXIT_OK if all(r.accepted(strict) for r in results) else EXIT_INVALID
