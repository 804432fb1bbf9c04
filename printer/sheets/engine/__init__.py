"""The layout engine: WeasyPrint behind one interface (:class:`~printer.sheets.engine.documents.Engine`) and text
fit as a loop of layouts through it (:class:`~printer.sheets.engine.fitter.Fitter`)."""
