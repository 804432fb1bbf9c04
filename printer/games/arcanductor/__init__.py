"""ARCANDUCTOR support: the tarot importer (Major Arcana names and numbers)."""
