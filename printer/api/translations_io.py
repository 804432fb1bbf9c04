"""The translators' round trip: ``printer export translations`` and ``printer import translations``.

:func:`export_translations` writes a game's translatable text into one language as a PO file or a workbook
(:mod:`printer.cards.po`, :mod:`printer.cards.translations_xlsx`); :func:`import_translations` merges such a file
back into the game's overlay files (:mod:`printer.cards.translations_merge`), writing nothing when it has an error.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from printer.limits import over
from printer.problems import ERROR, Problem, UsageError, counted, did_you_mean, errors

if TYPE_CHECKING:
    from printer.cards.model import CardSet
    from printer.cards.translations import TranslationBook
    from printer.cards.translations_io import Catalogue
    from printer.project import Project

__all__ = ["TranslationsExport", "TranslationsImport", "export_translations", "import_translations"]


@dataclass
class TranslationsExport:
    """What :func:`export_translations` wrote: ``entries`` (one per card and field) to ``path``, of which
    ``translated`` have a translation, ``stale`` of them made from another source text; ``missing`` have none.
    Nothing is written when ``problems`` hold an error."""

    path: Path
    game: str
    lang: str
    entries: int = 0
    translated: int = 0
    stale: int = 0
    problems: list[Problem] = field(default_factory=list)

    @property
    def missing(self) -> int:
        return self.entries - self.translated


@dataclass
class TranslationsImport:
    """What :func:`import_translations` merged from ``path``: ``files`` maps each overlay file written (or, with
    ``dry_run``, that would be) to ``(status, fields changed)``, status ``new`` or ``changed``; ``changed``
    fields in all, ``unchanged`` entries, ``empty`` entries without a translation. Nothing is written when
    ``problems`` hold an error."""

    path: Path
    game: str | None
    lang: str | None
    files: dict[Path, tuple[str, int]] = field(default_factory=dict)
    changed: int = 0
    unchanged: int = 0
    empty: int = 0
    problems: list[Problem] = field(default_factory=list)
    dry_run: bool = False
    written: bool = False


def _usage(message: str, hint: str | None = None, where: str = "command line") -> UsageError:
    return UsageError(message, [Problem(where, message, hint, code="usage")])


def _target_lang(project: Project, game: str, lang: str, where: str = "--lang") -> tuple[str, tuple[str, ...]]:
    """``lang`` as the game names it (tags compare case- and ``_``/``-``-blind) and the game's languages; a
    :class:`UsageError` for the source language or one the game does not declare."""
    from printer.cards.translations import languages

    langs = languages(project, game)
    norm = {tag.lower().replace("_", "-"): tag for tag in langs}
    found = norm.get(lang.lower().replace("_", "-"))
    if found is None or found == langs[0]:
        said = f"{lang} is the source language of {game}" if found else f"{game} has no language {lang!r}"
        others = ", ".join(langs[1:])
        hint = did_you_mean(lang, list(langs[1:])) or (
            f"its translations: {others}"
            if others
            else f'declare them: [games.{game}] languages = ["{langs[0]}", "ja"]'
        )
        raise _usage(said, hint, where)
    return found, langs


def _game_data(
    project: Project, game: str, cards_dir: Path | None
) -> tuple[CardSet, TranslationBook, tuple[str, ...], dict[str, str], Path, list[Problem]]:
    """The game's cards, translations, translatable fields, the schema's notes on them, its card folder and the
    problems found reading them."""
    from printer.cards.catalog import load_cards, schema_store
    from printer.cards.model import CardSet
    from printer.cards.translations import load_translations, translatable_fields
    from printer.cards.translations_io import field_notes

    spec = project.game(game)
    folder = cards_dir or spec.cards
    store = schema_store(project)
    sets, problems = load_cards(project, [folder], game, store=store)
    book, found = load_translations(project, [folder], cards=sets, store=store)
    fields = translatable_fields(project, game, store.schema(spec.schema), store)
    notes = field_notes(store, spec.schema)
    return sets.get(game, CardSet(game)), book, fields, notes, folder, problems + found


def export_translations(
    project: Project, game: str, lang: str, out: Path, cards_dir: Path | None = None
) -> TranslationsExport:
    """Write ``game``'s translatable text into ``lang`` to ``out`` (``.po``, or ``.xlsx``): for each card (from
    ``cards_dir``, default the game's card folder) and translatable field it has, the source text, the current
    translation (empty when missing; marked fuzzy or stale when made from another source text) and its context.

    Nothing is written when the cards or their translations have errors (in the result's problems). Raises
    :class:`UsageError` for another ending, an unknown game, or a ``lang`` that is the source or not one of the
    game's languages.
    """
    from printer.cards import translations_io as io
    from printer.cards.translations import languages

    suffix = out.suffix.lower()
    if suffix not in (*io.PO_SUFFIXES, ".xlsx"):
        raise _usage(f"cannot export translations to {out.name}", "write a file ending in .po or .xlsx", "--to")
    project.game(game)
    lang, langs = _target_lang(project, game, lang)
    cards, book, fields, notes, _, problems = _game_data(project, game, cards_dir)
    result = TranslationsExport(out, game, lang, problems=problems)
    if errors(problems):
        return result
    if not fields:
        result.problems.append(
            Problem(
                str(project.root / "printer.toml"),
                f"{game} has no translatable field",
                f'mark them in its schema ("x-translatable": true) or in printer.toml: [games.{game}] translatable = '
                '["title", "text"]',
                code="translation-field",
            )
        )
        return result
    entries = io.entries(cards, book, lang, fields, notes, project.root)
    if suffix == ".xlsx":
        from printer.cards.translations_xlsx import write_workbook

        try:
            write_workbook(out, entries, game, lang, languages(project, game)[0])
        except ValueError as exc:  # a control character a workbook cannot hold
            result.problems.append(
                Problem(str(out), f"cannot write the workbook: {exc}", "export a .po file", code="translation-sheet")
            )
            return result
    else:
        from printer.cards.po import po_bytes
        from printer.fsutil import atomic_write_bytes

        atomic_write_bytes(out, po_bytes(entries, game, lang, langs[0]))
    result.entries = len(entries)
    result.translated = sum(bool(e.translation) for e in entries)
    result.stale = sum(e.stale for e in entries)
    return result


def _read(path: Path, project: Project, game: str | None, lang: str | None) -> Catalogue:
    """The translator's file ``path`` as read (its size, and a PO file's entries, bounded before it is parsed)."""
    from printer.cards import translations_io as io
    from printer.cards.translations import languages
    from printer.paths import regular_file_problem

    where = str(path)
    problem = regular_file_problem(path, where)
    try:
        size = path.stat().st_size
    except OSError as exc:
        problem = problem or Problem(where, f"cannot read: {exc.strerror or exc}", code="unreadable")
    else:
        if problem is None and size > io.MAX_FILE_BYTES:
            problem = Problem(
                where,
                f"file is {size:,} bytes, over the limit of {io.MAX_FILE_BYTES:,} bytes for a translations file",
                "split it: export one game and language at a time",
                code="too-large",
            )
    if problem is not None:
        return io.Catalogue(game, lang, [], [problem])
    if path.suffix.lower() in io.PO_SUFFIXES:
        from printer.cards.po import read_po_file

        data = path.read_bytes()
        limit = project.limits.translation_entries
        # every "msgid " counts, wherever it is: Babel strips any white space before a keyword (spaces, tabs,
        # U+3000), so counting line starts only would let a file of indented entries through unparsed
        messages = data.count(b"msgid ") - 1  # the header's msgid "" is not an entry
        if messages > limit:  # counted before Babel parses the file
            return io.Catalogue(
                game, lang, [], [over("translation_entries", messages, limit, where, "entries in the file")]
            )
        return read_po_file(path, data)
    from printer.cards.translations_xlsx import read_workbook

    def game_of(sheet: str) -> tuple[str | None, tuple[str, ...]]:
        """The game a sheet holds (``game``, else the game its name is, cut to Excel's 31 characters) and its
        languages."""
        named = game or next((g for g in sorted(project.games) if g[:31] == sheet), None)
        return named, (languages(project, named) if named in project.games else ())

    return read_workbook(path, game_of, lang)


def import_translations(
    project: Project,
    path: Path,
    game: str | None = None,
    lang: str | None = None,
    cards_dir: Path | None = None,
    dry_run: bool = False,
    strict: bool = False,
) -> TranslationsImport:
    """Merge the translations of the file ``path`` (``.po``, ``.xlsx`` or ``.ods``, as
    :func:`export_translations` writes them) into the overlay files of its game (``game`` and ``lang`` override
    what the file says), each field with the ``from`` digest of the source it was translated from.

    Problems are located in the file (``ja.po:25``, ``ja.xlsx:starfall!F7``): an unknown card id, a field that is
    not translatable, an icon code lost or added, Markdown left unbalanced, more entries than
    ``limits.translation_entries``. When any is an error (a warning too with ``strict``), nothing is written.
    Raises :class:`UsageError` for another ending, a file that names no game or language (and none given), an
    unknown game or a language the game does not translate into.
    """
    from printer.cards.translations_merge import merge
    from printer.fsutil import atomic_write_text

    suffix = path.suffix.lower()
    if suffix not in (".po", ".pot", ".xlsx", ".ods"):
        raise _usage(f"cannot import translations from {path.name}", "read a .po, .xlsx or .ods file", str(path))
    if game is not None:
        project.game(game)
    catalogue = _read(path, project, game, lang)
    game = game or catalogue.game
    result = TranslationsImport(path, game, lang or catalogue.lang, problems=list(catalogue.problems), dry_run=dry_run)
    if errors(catalogue.problems):
        return result
    if game is None:
        raise _usage(f"{path.name} does not say which game it translates", "name it: --game GAME", str(path))
    project.game(game)
    if result.lang is None:
        raise _usage(f"{path.name} does not say which language it holds", "name it: --lang LANG", str(path))
    result.lang, _ = _target_lang(project, game, result.lang, str(path))
    limit = project.limits.translation_entries
    if len(catalogue.entries) > limit:
        result.problems.append(
            over("translation_entries", len(catalogue.entries), limit, str(path), "entries in the file")
        )
        return result
    cards, book, fields, _, folder, problems = _game_data(project, game, cards_dir)
    if errors(problems):
        result.problems += problems
        return result
    merged = merge(project, cards, book, result.lang, fields, catalogue.entries, folder)
    found = [p.with_severity(ERROR) for p in merged.problems] if strict else merged.problems
    result.problems += found
    result.changed, result.unchanged, result.empty = merged.changed, merged.unchanged, merged.empty
    result.files = {change.path: (change.status, change.fields) for change in merged.files}
    if errors(found) or dry_run:
        return result
    for change in merged.files:
        atomic_write_text(change.path, change.text)
    result.written = bool(merged.files)
    return result


def import_summary(result: TranslationsImport) -> str:
    """One line: what the import changed."""
    verb = "would change" if result.dry_run else "changed"
    return (
        f"{result.path}: {result.game} in {result.lang}: {verb} {counted(result.changed, 'field')} in "
        f"{counted(len(result.files), 'file')}, {result.unchanged} unchanged, {result.empty} without a translation"
    )
