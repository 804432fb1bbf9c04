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
"""

from printer.book.aids import Aid, aid_items, load_aids, render_aid
from printer.book.blocks import BLOCKS, Block, parse_block
from printer.book.book import PageLayout, build_book, page_layout
from printer.book.context import LABELS, RulesContext
from printer.book.markdown import ADMONITIONS, Chapter, Heading, render_chapter, rules_markdown
from printer.book.source import Edition, edition_for_paths, find_editions, read_edition, rules_folder

__all__ = [
    "ADMONITIONS",
    "Aid",
    "BLOCKS",
    "Block",
    "Chapter",
    "Edition",
    "Heading",
    "LABELS",
    "PageLayout",
    "RulesContext",
    "aid_items",
    "build_book",
    "edition_for_paths",
    "find_editions",
    "load_aids",
    "page_layout",
    "parse_block",
    "read_edition",
    "render_aid",
    "render_chapter",
    "rules_folder",
    "rules_markdown",
]
