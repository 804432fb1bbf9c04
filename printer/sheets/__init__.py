"""Card sheets: print options and geometry, faces rendered by Jinja2, text fit, art, laid out by WeasyPrint
into the PDF, and the exports beside it (PNG, Tabletop Simulator, print shop, PDF/X-4)."""
