"""Arcana Fight! Edelweiss has no importer: its cards are written by hand."""

IMPORTERS = ()
