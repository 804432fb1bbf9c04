"""Importers: turn other tools' card databases into printer card files.

Each importer is a module of pure functions (no click, no file writes) that
reads a foreign export and returns printer cards grouped by output file,
plus the :class:`~printer.errors.Problem` records it found. The
``printer import <source>`` commands in :mod:`printer.commands.importers`
write the files.

- :mod:`printer.importers.oracle` -- the Oracle of the Void L5R CCG export;
- :mod:`printer.importers.res_arcana` -- Res Arcana components (artifacts, mages,
  monuments, places of power, magic items);
- :mod:`printer.importers.via_magica` -- Via Magica portals, bonus cards and animus stones;
- :mod:`printer.importers.tarot` -- the 22 Major Arcana names and numbers for ARCANDUCTOR;
- :mod:`printer.importers.common` -- what they share: reading the source files, one warning per
  field not imported, grouping cards into output files, the card file's text.

Every importer module has ``GAME`` and ``summary(cards)``, and its
``ImportResult`` has ``cards``, ``problems`` and ``by_file()``: what the
``import`` command needs to write each file with
:func:`~printer.importers.common.card_file_text`.
"""
