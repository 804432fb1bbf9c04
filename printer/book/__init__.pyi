"""The names of :mod:`printer.book`, each imported when first used (see ``__init__.py``)."""

from .aids import Aid, aid_items, load_aids, render_aid
from .blocks import BLOCKS, Block, parse_block
from .book import PageLayout, build_book, page_layout
from .context import LABELS, RulesContext
from .markdown import ADMONITIONS, Chapter, Heading, render_chapter, rules_markdown
from .source import Edition, edition_for_paths, find_editions, read_edition, rules_folder

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
