"""Rules references and player aids, printed from Markdown with the game's own cards and icons.

A designer writes a game's rules as Markdown chapters in ``rules/<game>/``
(see :mod:`.source` for the folder, ``rules.toml`` and editions); printer
renders them with markdown-it-py (:mod:`.markdown`), expands the
``printer`` blocks (card embeds, icon legend, glossary, card index, format
summary: :mod:`.blocks`), and prints a book with a cover, a table of
contents with page numbers, running headers and page numbers
(:mod:`.book`, templates ``templates/rules/``). Player aids
(``rules/<game>/aids/*.md``) print at the game's card size on card sheets
(:mod:`.aids`)::

    from printer.book import find_editions, read_edition, build_book, aid_items

    for edition in find_editions(project, game):
        problems = read_edition(edition)
        problems += build_book(project, game, edition, Path("build") / edition.output_name(), (210, 297), roots)
    items, problems = aid_items(project, game)     # printer.sheets.faces.items.PrintItem list

Each name is imported when it is first used (``lazy_loader``, from the list in ``__init__.pyi``, which type
checkers read): a module of the book (``printer.book.source``) loads without markdown-it and the templates, so that
a build of a game without rules or aids does not import them.
"""

import lazy_loader

__getattr__, __dir__, __all__ = lazy_loader.attach_stub(__name__, __file__)
