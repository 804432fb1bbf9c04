"""The library API: one plain function per job, each returning a result with its problems as data.

The ``printer`` command is a thin layer over these functions (parse the
options, call one function, print the result, map it to an exit code), and
so is anything else that drives printer: a test, a preview server, a
script::

    from printer import api

    project = api.load_project("my-game")
    report = api.validate(project)
    if report.ok:
        result = api.build(project, api.BuildRequest(games=("starfall",)))
        for game in result.games:
            print(game.target, game.cards, "cards on", game.sheets, "sheets")
    decks = api.check_decks(project, [Path("storm.txt")], "starfall-standard")

Problems are :class:`~printer.problems.Problem` records with a
:class:`~printer.problems.Severity`; nothing here prints or exits. Usage
mistakes (an unknown game, a missing folder) raise
:class:`~printer.problems.UsageError`, which carries its problems too.

Each job lives in its own module (:mod:`printer.api.build`, :mod:`~printer.api.watch`,
:mod:`~printer.api.validate`, :mod:`~printer.api.decks`, :mod:`~printer.api.rules`,
:mod:`~printer.api.box`, :mod:`~printer.api.imports`, :mod:`~printer.api.clean`...), the results they
return in :mod:`printer.api.results`; this module names them all.

Each name is imported when it is first used (``lazy_loader``, from the list of names in ``__init__.pyi``, which
type checkers read): a command loads only the jobs it runs, and ``printer --help`` none.
"""

import lazy_loader

__getattr__, __dir__, __all__ = lazy_loader.attach_stub(__name__, __file__)
