"""Finding and reading a game's rules: editions, their ``rules.toml`` and Markdown chapters.

A game's rules live in ``rules/<game>/`` of the project. That folder is the
main *edition*; every sub-folder holding a ``rules.toml`` is another edition
(a translation, say ``rules/<game>/ja/``). An edition is:

- ``rules.toml`` (optional in the main edition): the book's settings, see
  :data:`SETTINGS`;
- ``*.md``: the chapters, in file-name order (or the order of ``files``);
  each file starts on a new page and its first ``#`` heading is the
  chapter title in the running header;
- ``aids/*.md``: player aids, printed at the game's card size
  (:mod:`printer.book.aids`).

Problems are located as ``file:line:col`` (TOML syntax) or
``file::$.key`` (a wrong setting).
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

from printer.config import key_lines, locate
from printer.jsonvalue import JSONObject
from printer.location import toml_error_place
from printer.paths import contained, is_inside, read_text
from printer.problems import Location, Problem, did_you_mean
from printer.project import Game, Project

RULES_FILE = "rules.toml"
AIDS_FOLDER = "aids"

#: Settings of ``rules.toml``: name -> (type, meaning).
SETTINGS: dict[str, tuple[type | tuple[type, ...], str]] = {
    "title": (str, "the book's title (default: the game's name)"),
    "subtitle": (str, "printed under the title on the cover (default: 'Rules reference')"),
    "lang": (str, "language tag of the text, e.g. en or ja (default: en)"),
    "version": (str, "edition line on the cover, e.g. 'Rules version 1.2'"),
    "credits": (str, "small print at the foot of the cover (markup)"),
    "toc_depth": (int, "heading levels listed in the table of contents, 1 to 3 (default: 2)"),
    "toc_title": (str, "heading of the table of contents (default: 'Contents')"),
    "accent": (str, "accent colour of headings and rules, a CSS colour (default: a dark red)"),
    "cover_cards": (list, "ids of cards shown on the cover"),
    "files": (list, "chapter files in order (default: every *.md, sorted by name)"),
    "aid_copies": (int, "copies of each player aid `printer build` prints (default: 1)"),
    "aid_font_size": (dict, "font size per player aid, e.g. { turn-sequence = '5.4pt' }"),
    "glossary": (dict, "terms and their definitions (markup), for the glossary block"),
    "icons": (dict, "icon name -> what it means, for the icon legend"),
    "labels": (dict, "words the book prints, per language (e.g. { example = 'Example' })"),
    "types": (dict, "the name each card type prints under in this edition, e.g. { Personality = '家臣' }"),
}

_HEX = re.compile(r"^#[0-9a-fA-F]{3,8}$|^[a-z]+$")


@dataclass
class Edition:
    """One rules book of a game: its folder, settings and chapter files."""

    game: Game
    folder: Path
    settings: JSONObject = field(default_factory=dict)
    files: list[Path] = field(default_factory=list)
    name: str = ""  # "" for the main edition, else the sub-folder's name (e.g. "ja")
    #: the project root every file of the edition must lie in (None: files named on the command line)
    root: Path | None = None

    @property
    def lang(self) -> str:
        lang: str = self.settings.get("lang", "en")
        return lang

    @property
    def title(self) -> str:
        title: str = self.settings.get("title", self.game.name)
        return title

    @property
    def aids_folder(self) -> Path:
        return self.folder / AIDS_FOLDER

    def output_name(self) -> str:
        """``<game>-rules.pdf``, or ``<game>-rules-<edition>.pdf`` for another edition."""
        return f"{self.game.id}-rules{'-' + self.name if self.name else ''}.pdf"


def rules_folder(project: Project, game: Game) -> Path:
    """``rules/<game>/`` of the project, or the folder set by the game's ``rules`` key in ``printer.toml``."""
    folder: str = game.settings.get("rules", f"rules/{game.id}")
    return project.root / folder


def find_editions(project: Project, game: Game) -> list[Edition]:
    """The main edition of ``game`` and every sub-folder edition (with a ``rules.toml``), sorted by name.

    Returns ``[]`` when the game has no rules folder. Settings are not read
    yet: call :func:`read_edition` on each.
    """
    folder = rules_folder(project, game)
    if not folder.is_dir():
        return []
    project.contained(folder, f"[games.{game.id}] rules", str(project.root / "printer.toml"))
    found = [Edition(game, folder, root=project.root)]
    for sub in sorted(p for p in folder.iterdir() if p.is_dir() and (p / RULES_FILE).is_file()):
        found.append(Edition(game, sub, name=sub.name, root=project.root))
    return found


def edition_for_paths(game: Game, paths: list[Path]) -> Edition:
    """An edition made of the given Markdown files or one folder (``printer rules GAME PATH...``).

    A folder is read like ``rules/<game>/``; files are used in the order
    given, with the ``rules.toml`` beside the first one when there is one.
    """
    if len(paths) == 1 and paths[0].is_dir():
        return Edition(game, paths[0], name=paths[0].name if (paths[0] / RULES_FILE).is_file() else "")
    edition = Edition(game, paths[0].parent, name="")
    edition.files = list(paths)
    return edition


def read_edition(edition: Edition) -> list[Problem]:
    """Read the edition's ``rules.toml`` and list its chapter files; returns the problems found.

    An unknown setting is an error naming the closest known one, located at its line (``rules.toml:12:1``); a missing
    chapter file or an edition without any Markdown is an error too.
    """
    problems: list[Problem] = []
    path = edition.folder / RULES_FILE
    if path.is_file():
        settings, problems = read_settings(path)
        edition.settings = settings
    if not edition.files:
        listed = edition.settings.get("files")
        if listed:
            for i, name in enumerate(listed):
                file = edition.folder / name
                if edition.root is not None:
                    file, outside = contained(edition.root, file, f"files[{i}]", f"{path}::$.files[{i}]")
                    if outside:
                        problems.append(outside)
                        continue
                if not file.is_file():
                    candidates = [p.name for p in edition.folder.glob("*.md")]
                    problems.append(
                        Problem(
                            f"{path}::$.files[{i}]",
                            f"chapter file {name!r} not found",
                            did_you_mean(name, candidates),
                            code="missing-file",
                        )
                    )
                else:
                    edition.files.append(file)
        else:
            edition.files = sorted(edition.folder.glob("*.md"))
            if edition.root is not None:
                for file in [f for f in edition.files if not is_inside(f, [edition.root])]:
                    _, outside = contained(edition.root, file, file.name, str(file))
                    if outside is not None:
                        problems.append(outside)
                    edition.files.remove(file)
    if not edition.files and not problems:
        problems.append(
            Problem(
                str(edition.folder),
                "no Markdown chapters (*.md) to print",
                f"write the rules in {edition.folder}/*.md",
                code="empty",
            )
        )
    return problems


def read_settings(path: Path) -> tuple[JSONObject, list[Problem]]:
    """The settings of one ``rules.toml`` and the problems in it (syntax, unknown keys, wrong types)."""
    text, problem = read_text(path)
    if text is None:
        return {}, [problem] if problem is not None else []
    try:
        data = tomllib.loads(text)
    except RecursionError:
        return {}, [Problem(str(path), "invalid TOML: nested too deeply", code="toml-syntax")]
    except tomllib.TOMLDecodeError as exc:
        where, reason = toml_error_place(path, exc)
        return {}, [Problem(where, f"invalid TOML: {reason}", code="toml-syntax")]
    problems = []
    settings = {}
    lines = key_lines(text)

    def at(*keys: str) -> Location:  # rules.toml:12:1, the line of the key
        return locate(path, lines, keys)

    for key, value in data.items():
        if key not in SETTINGS:
            problems.append(
                Problem(
                    at(key),
                    f"unknown setting {key!r}",
                    did_you_mean(key, list(SETTINGS)) or "settings: " + ", ".join(SETTINGS),
                    code="unknown-setting",
                )
            )
            continue
        kind, meaning = SETTINGS[key]
        if not isinstance(value, kind) or isinstance(value, bool):
            problems.append(Problem(at(key), f"{key} should be {_kind_name(kind)}", meaning, code="schema"))
            continue
        if key == "toc_depth" and isinstance(value, int) and not 1 <= value <= 3:
            problems.append(Problem(at(key), "toc_depth should be 1, 2 or 3", meaning, code="schema"))
            continue
        if key == "accent" and isinstance(value, str) and not _HEX.match(value):
            problems.append(
                Problem(
                    at(key),
                    f"accent {value!r} is not a CSS colour",
                    "write it as #rrggbb or a colour name",
                    code="schema",
                )
            )
            continue
        if isinstance(value, dict):  # glossary, icons, labels, types, aid_font_size
            bad = [k for k, v in value.items() if not isinstance(v, str)]
            if bad:
                problems.append(Problem(at(key, bad[0]), f"{key} values should be text", meaning, code="schema"))
                continue
        if isinstance(value, list) and not all(isinstance(v, str) for v in value):
            problems.append(Problem(at(key), f"{key} should be a list of text", meaning, code="schema"))
            continue
        settings[key] = value
    return settings, problems


def _kind_name(kind: type | tuple[type, ...]) -> str:
    names: dict[type | tuple[type, ...], str] = {str: "text", int: "a whole number", list: "a list", dict: "a table"}
    return names.get(kind, str(kind))
