"""Game support: one sub-package per game (deck checks, importers, name rules, labels), the only place that names a game."""
