"""printer: card data validated by JSON Schema, printed to PDF card sheets, decks checked against their format."""

__version__ = "0.1.0"
