"""Via Magica support: the importer of the public component data."""
