"""The faces of a build: what it prints (:mod:`~printer.sheets.faces.items`), each distinct face rendered once and
keyed (:mod:`~printer.sheets.faces.registry`), its HTML held compact (:mod:`~printer.sheets.faces.store`)."""
