"""The output steps of a build once its faces are laid out: the sheets without their faces
(:mod:`~printer.sheets.output.chrome`), the faces kept in and read from the face cache
(:mod:`~printer.sheets.output.cached`), the faces imposed on the sheets and written
(:mod:`~printer.sheets.output.imposition`), and what the build leaves for a later one
(:mod:`~printer.sheets.output.outcome`)."""
