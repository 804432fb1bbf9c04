"""The problems the API reports and raises, passed on from :mod:`printer.problems`: :class:`Problem`, its
:data:`ERROR` severity, the :class:`PrinterError` and :class:`UsageError` exceptions and :func:`counted`. Every
command imports these, and nothing else with them (a command's start does not load the build's modules)."""

from printer.problems import ERROR, PrinterError, Problem, UsageError, counted

__all__ = ["ERROR", "PrinterError", "Problem", "UsageError", "counted"]
