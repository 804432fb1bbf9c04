"""Exports beside the PDF sheets: one PNG per card, Tabletop Simulator deck sheets, print-shop files, PDF/X-4.

Every export lays faces out through the same :class:`~printer.sheets.compose.PrintJob`
as the sheets (same templates, art cache and text-fit sizes), one card per
page, and turns pages into images with pypdfium2 (PDFium, BSD-3-Clause /
Apache-2.0): printer does not rasterise anything itself.

- :func:`export_png`: one PNG per distinct face at a dpi, trim or with bleed;
- :func:`export_tts`: Tabletop Simulator deck sheets (:mod:`.tts`);
- :func:`export_print_shop`: one card per page with bleed and no marks (:mod:`.printshop`);
- :mod:`.pdfx`: PDF/X-4 output with a user-supplied CMYK ICC profile.
"""

from printer.sheets.export.faces import distinct_faces, face_images
from printer.sheets.export.png import export_png
from printer.sheets.export.printshop import export_print_shop
from printer.sheets.export.tts import export_tts

__all__ = ["distinct_faces", "export_png", "export_print_shop", "export_tts", "face_images"]
