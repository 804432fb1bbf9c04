"""Decklist readers: plain text (with section headers) and JSON decklists, each to a :class:`~printer.decks.readers.text.Decklist`."""
