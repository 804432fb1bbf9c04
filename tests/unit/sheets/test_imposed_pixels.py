"""The imposed sheets look as the sheets did when each was laid out whole.

A build lays each distinct face out once and imposes it on the sheets (printer.sheets.impose); before that, each
sheet was one WeasyPrint page holding its faces, marks and labels. This test builds the bundled examples, then lays
the same sheets out whole (the job's own sheet HTML, faces fitted, as :meth:`SheetJob.document_html` writes it),
turns both PDFs into pictures with pdftoppm at 100 dpi and compares them pixel by pixel.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from PIL import Image, ImageChops

from printer.sheets.pdf import pdf_bytes, render_documents

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(shutil.which("pdftoppm") is None, reason="pdftoppm (poppler-utils) is not installed"),
]

REPO = Path(__file__).resolve().parents[3]


def pictures(pdf: Path, out: Path) -> list[Image.Image]:
    subprocess.run(["pdftoppm", "-r", "100", "-png", str(pdf), str(out)], check=True)
    return [Image.open(p).convert("RGB") for p in sorted(out.parent.glob(out.name + "-*.png"))]


@pytest.mark.parametrize("game", ["l5r", "res-arcana", "via-magica"])
def test_imposed_sheets_match_sheets_laid_out_whole(game, tmp_path, monkeypatch):
    import printer.sheets.assemble as assemble
    import printer.sheets.compose as compose
    from printer.cli import main

    calls = []
    original = assemble.build_sheets
    monkeypatch.setattr(assemble, "build_sheets", lambda job, items, layout, *a, **k: calls.append((job, items, layout)) or original(job, items, layout, *a, **k))  # fmt: skip
    with pytest.raises(SystemExit) as done:
        main(["--project", str(REPO), "build", game, "--out", str(tmp_path), "--no-cache"])
    assert done.value.code == 0
    job, items, layout = calls[0]
    sheets = compose.layout_sheets(job.faces, items, layout)
    html = job.fitter.document_html(sheets, layout)
    documents, _ = render_documents(
        [html], job.renderer.allowed_roots, job.engine.base, "whole", **job.engine.render_options
    )
    whole_pdf = tmp_path / "whole.pdf"
    whole_pdf.write_bytes(pdf_bytes(documents, "whole", **job.engine.write_options)[0])
    imposed = pictures(tmp_path / f"{game}.pdf", tmp_path / "imposed")
    whole = pictures(whole_pdf, tmp_path / "whole")
    assert len(imposed) == len(whole) > 0
    for page, (a, b) in enumerate(zip(imposed, whole), 1):
        assert a.size == b.size, page
        diff = ImageChops.difference(a, b).convert("L")
        histogram = diff.histogram()
        pixels = a.size[0] * a.size[1]
        off = sum(histogram[17:])  # pixels more than 16 levels (of 255) apart
        assert off / pixels < 0.002, f"page {page}: {off} of {pixels} pixels differ by more than 16 levels"
        assert sum(i * n for i, n in enumerate(histogram)) / pixels < 1.0, f"page {page}: mean difference too high"
