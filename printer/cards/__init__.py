"""Cards: reading card files (JSON) with locations, the card model, JSON Schema validation, card-text markup,
the loaded catalogue of a project, and what importers share."""
