"""Legend of the Five Rings CCG support: the Oracle of the Void importer."""
