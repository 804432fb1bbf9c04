"""``printer preflight PDF --vendor X``: check a PDF against a print-on-demand vendor's profile."""

from __future__ import annotations

from pathlib import Path

import click

from printer import api
from printer.api import counted
from printer.cli.output import EXIT_INVALID, EXIT_OK, report


@click.command(epilog="Exit codes: 0 the vendor takes it, 1 a violation found, 2 usage error.")
@click.argument("pdf", type=click.Path(path_type=Path))
@click.option("--vendor", required=True, metavar="VENDOR", help="drivethrucards, mbprint or printplaygames.")
@click.option(
    "--min-dpi",
    type=click.FloatRange(min=1),
    metavar="N",
    help="Least image resolution at printed size (default: the vendor's).",
)
@click.option("--max-size", metavar="SIZE", help="Largest file, e.g. 100MB (default: the vendor's, if it names one).")
@click.pass_context
def preflight(ctx: click.Context, pdf: Path, vendor: str, min_dpi: float | None, max_size: str | None) -> None:
    """Check a PDF, printer's or anyone's, against what VENDOR accepts.

    Reads the PDF (pikepdf) and reports each violation at its page and
    object: PDF/X version and output intent, RGB anywhere for a CMYK vendor,
    total ink and rich black, fonts not embedded (or not outlined), transparency,
    TrimBox and BleedBox against the vendor's trim and bleed, image
    resolution at printed size, page order and file size. The vendor's
    figures and their sources: docs/print-on-demand.md.
    """
    result = api.preflight(pdf, vendor, min_dpi, max_size)
    n_errors, _ = report(result.problems, False)
    if n_errors:
        click.echo(f"{pdf}: {counted(n_errors, 'problem')} for {result.vendor_name} ({result.source})")
    else:
        click.echo(
            f"{pdf}: {counted(result.pages, 'page')}, nothing {result.vendor_name} would reject ({result.source})"
        )
    ctx.exit(EXIT_INVALID if n_errors else EXIT_OK)


COMMANDS = [preflight]
