"""Importers: turn other tools' card databases into printer card files.

Each importer is a module of pure functions (no click, no file writes) that
reads a foreign export and returns printer cards grouped by output file,
plus the :class:`~printer.errors.Problem` records it found. The
``printer import <source>`` commands in :mod:`printer.commands.importers`
write the files.

- :mod:`printer.importers.oracle` -- the Oracle of the Void L5R CCG export.
"""
