"""Res Arcana support: the importer of the public component data."""
