"""Versions of a card set: the build manifest, what changed since a git revision or a manifest, and reprints.

- Every build writes a manifest beside its PDF (:func:`make_manifest`, :func:`after_sheets`, :mod:`printer.sheets.manifest`).
- :func:`changes` compares the cards now with the cards at ``--since REF``: a git revision of the project
  (its files read from git's objects into a temporary folder, the old cards read and their faces rendered
  there with the current printer, so that only the project's changes count) or a manifest file written by
  an earlier build (no old values then: a field is named as changed, its new value shown).
- ``build --since REF`` prints the cards whose printed face changed (or that are new), with their backs,
  and a changelog page (:func:`reprint_items`, :mod:`printer.sheets.changelog`).
"""

from __future__ import annotations

import os
import subprocess
import tempfile
import threading
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from printer.limits import over
from printer.problems import WARNING, Problem, UsageError

if TYPE_CHECKING:
    from printer.project import Game, Project
    from printer.sheets.changes import CardChange
    from printer.sheets.faces.items import PrintItem
    from printer.sheets.job import SheetJob
    from printer.sheets.options import PrintOptions

#: git, run without a shell in the project's folder, with no file-system monitor nor hooks the repository's config
#: may name (the commands run are ``rev-parse``, ``ls-tree`` and ``cat-file``, which run no filter either), and no
#: transport: a partial clone would fetch a missing object from its remote, running the ``uploadpack`` or
#: ``sshCommand`` its config names (these settings on the command line win over the repository's)
_NO_TRANSPORT = tuple(
    arg
    for name in ("", "file.", "git.", "ssh.", "http.", "https.", "ext.")
    for arg in ("-c", f"protocol.{name}allow=never")
)
_GIT = ("git", "-c", "core.fsmonitor=false", "-c", "core.hooksPath=/dev/null", *_NO_TRANSPORT, "-C")


def _git_env() -> dict[str, str]:
    """The environment git runs in: ours, with lazy fetching of a partial clone's missing objects off."""
    return {**os.environ, "GIT_NO_LAZY_FETCH": "1"}


#: seconds a git command may take, and the bytes and files of the project at a revision that are read
GIT_TIMEOUT, ARCHIVE_LIMIT, ARCHIVE_FILES = 60, 2 * 2**30, 100_000


def make_manifest(
    made: list[dict[str, Any]],
    project: Project,
    game: Game,
    job: SheetJob,
    items: Sequence[PrintItem],
    per_sheet: int,
    target: Path,
) -> None:
    """Append to ``made`` the manifest (:func:`printer.sheets.manifest.manifest`) of ``target`` printing ``items``
    ``per_sheet`` a sheet through ``job``. A build calls it while its faces are laid out
    (:func:`printer.sheets.assemble.build_sheets`' ``meanwhile``), so that it costs no time of its own, and
    writes it once the PDF is written (:func:`after_sheets`)."""
    from printer.sheets.manifest import FileDigests, manifest

    files = FileDigests(project.build_dir / ".cache", job.engine.base.resolve().as_uri() + "/")
    made.append(manifest(job, items, project.root, game.id, per_sheet, target.name, _version(project), files))
    if job.renderer.lang:  # a build in one language (--lang): what printer changes compares it in
        made[-1]["lang"] = job.renderer.lang
    files.save()


def _version(project: Project) -> str | None:
    version = project.settings.get("version")
    return None if version is None else str(version)


@dataclass
class ChangesReport:
    """What changed in ``game``'s cards since ``since``: ``changes`` (:class:`printer.sheets.changes.CardChange`,
    sorted by card id), the versions before and now, and ``problems`` met reading either side (warnings)."""

    game: str
    since: str
    changes: list[CardChange] = field(default_factory=list)
    old_version: str | None = None
    version: str | None = None
    problems: list[Problem] = field(default_factory=list)

    @property
    def reprint(self) -> list[CardChange]:
        """The changes whose printed face changed (new cards too): what ``build --since`` prints."""
        return [c for c in self.changes if c.reprint]


def changes(
    project: Project, game_id: str, since: str, options: dict[str, Any] | None = None, lang: str | None = None
) -> ChangesReport:
    """``game_id``'s cards compared with ``since``: a git revision (``HEAD~1``, a tag) of the repository the
    project is in, or the path of a manifest an earlier build wrote. ``options`` are the sheet options as
    ``build`` takes them (the faces' size and bleed count); ``lang`` compares the cards in that language, as
    ``build --lang`` prints them (:mod:`printer.api.languages`), then and now. Raises :class:`UsageError` for an
    unknown game, a language the game does not declare (or ``all``), a revision git does not know (with a hint)
    or a file that is not a manifest."""
    from printer.sheets.changes import compare

    game = project.game(game_id)
    if lang is not None:
        from printer.api.languages import ALL, build_languages

        if lang == ALL:
            hint = "e.g. --lang ja; printer build GAME --since REF --lang all reprints each language"
            raise UsageError("--lang all: changes compares one language", [Problem("--lang", "one language", hint)])
        lang = build_languages(project, [game], lang)[game.id][0]  # a usage error for a language not declared
    now, values, problems = snapshot(project, game, options or {}, lang)
    report = ChangesReport(game.id, since, version=_version(project), problems=problems)
    manifest_file = Path(since)
    if since.endswith(".json") or manifest_file.is_file():
        kept = _read_manifest(manifest_file if manifest_file.is_absolute() else Path.cwd() / manifest_file, since)
        if kept.get("game") != game.id:
            raise _bad_revision(since, f"a manifest of {kept.get('game')!r}, not of {game.id!r}")
        limit = project.limits.cards_per_build  # a build's manifest holds no more (its reprint would list them)
        if len(kept["cards"]) > limit:
            problem = over("cards_per_build", len(kept["cards"]), limit, since, "cards in the manifest")
            raise UsageError(problem.message, [problem])
        report.old_version = kept.get("version")
        was = kept.get("lang") if isinstance(kept.get("lang"), str) else None
        if was != lang:  # every face would differ by its language alone
            said = f"--lang {was}" if was else "no --lang"
            hint = f"compare it with --lang {was}" if was else "compare it without --lang"
            report.problems.append(
                Problem(
                    since,
                    f"the manifest is of a build with {said}, compared here with "
                    f"{f'--lang {lang}' if lang else 'no --lang'}",
                    hint,
                    WARNING,
                    code="since-lang",
                )
            )
        for card_id in _components(project, game, options or {}, values):  # on no card sheet, in no manifest
            if card_id not in kept["cards"]:  # (a decklist's manifest holds them, printed as proxies)
                now["cards"].pop(card_id, None)
        report.changes = compare(kept, now, None, values)
        return report
    with _checkout(project, since) as old_root:
        from printer.project import load_project

        old_values: dict[str, dict[str, Any]] = {}
        old: dict[str, Any] = {"cards": {}}
        try:
            old_project = load_project(old_root)
        except UsageError as exc:
            report.problems += [_at_revision(p, old_root, since) for p in exc.problems]
            old_project = None
        if old_project is not None and game.id in old_project.games:
            old, old_values, more = snapshot(old_project, old_project.games[game.id], options or {}, lang)
            report.problems += [_at_revision(p, old_root, since) for p in more]
            report.old_version = _version(old_project)
    report.changes = compare(old, now, old_values, values)
    return report


def _components(project: Project, game: Game, options: dict[str, Any], values: dict[str, dict[str, Any]]) -> set[str]:
    """The ids among ``values`` (card id -> data) of the cards the game prints as tokens, tiles or boards
    (printer.toml ``[games.<id>.components.*]``): a build writes them to its components PDF, not its manifest."""
    from printer.sheets.components import read_components
    from printer.sheets.options import resolve_options

    where = str(project.root / "printer.toml")
    opts = resolve_options(project.settings, game.settings, game.card_size, options, where, project.limits)
    declared, problems = read_components(
        game.settings.get("components"), game.id, where, opts.paper, opts.margin, project.limits.size_mm
    )
    if not declared or problems:
        return set()
    return {card_id for card_id, data in values.items() if any(c.holds(data) for c in declared)}


def snapshot(
    project: Project, game: Game, options: dict[str, Any], lang: str | None = None
) -> tuple[dict[str, Any], dict[str, dict[str, Any]], list[Problem]]:
    """``game``'s cards as a manifest holds them, every face rendered (not laid out), with each card's data by
    id, and the problems met (the cards that fail to load or render are left out); with ``lang``, the cards in
    that language (their translations' problems are the build's to report)."""
    from printer.cards.catalog import load_cards
    from printer.problems import PrinterError
    from printer.sheets import job as sheet_job
    from printer.sheets.faces import items as print_items
    from printer.sheets.manifest import FaceDigests, FileDigests, card_entries, template_digests
    from printer.sheets.options import resolve_options

    where = str(project.root / "printer.toml")
    opts = resolve_options(project.settings, game.settings, game.card_size, options, where, project.limits)
    sets, problems = load_cards(project, [game.cards], game.id)
    cards = sets.get(game.id)
    job = sheet_job.make_job(project, game, opts, [game.cards.resolve()], lang=lang)
    if cards is not None and lang is not None:
        from printer.api.languages import cards_in

        cards = cards_in(project, game, cards, [game.cards], lang)
    digests = FaceDigests(job, project.root, FileDigests(None))
    data: dict[str, Any] = {
        "cards": {},
        "stylesheets": digests.stylesheets,
        "templates": template_digests(job, digests),
    }
    values: dict[str, dict[str, Any]] = {}
    if cards is None:
        return data, values, problems
    for item in print_items.items_for_cards(list(cards), cards):
        if item.card is None or item.card.id in values:
            continue
        try:
            data["cards"].update(card_entries(job, [item], digests, 0))
        except PrinterError as exc:
            problems += exc.problems or [Problem(item.card.where, str(exc), code="template")]
            continue
        data["cards"][item.card.id]["copies"] = item.card.copies
        values[item.card.id] = dict(item.card.data)
    return data, values, problems + list(job.renderer.problems)


def _read_manifest(path: Path, given: str) -> dict[str, Any]:
    from printer.sheets.manifest import read_manifest

    try:
        return read_manifest(path)
    except ValueError as exc:
        hint = "give a git revision (HEAD~1, a tag) or a manifest a build wrote (build/<game>.manifest.json)"
        problem = Problem(given, f"--since {given}: {exc}", hint, code="bad-since")
        raise UsageError(problem.message, [problem]) from None


def _at_revision(problem: Problem, root: Path, since: str) -> Problem:
    """``problem`` with its place in the temporary checkout named as the revision's (``HEAD~1:cards/x.json``)."""
    where = problem.where
    prefix = str(root) + os.sep
    if where.startswith(prefix):
        where = f"{since}:{where[len(prefix) :]}"
    return replace(problem, where=where, severity=WARNING)


def _git(root: Path, *args: str) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(  # noqa: S603, S607
        [*_GIT, str(root), *args], capture_output=True, timeout=GIT_TIMEOUT, check=False, env=_git_env()
    )


def _bad_revision(since: str, why: str) -> UsageError:
    hint = "give a git revision of the project's repository (HEAD~1, a tag, a commit) or a manifest file (build/<game>.manifest.json)"
    problem = Problem("--since", f"--since {since}: {why}", hint, code="bad-since")
    return UsageError(problem.message, [problem])


class _checkout:
    """The project's files at the git revision ``since``, in a temporary folder removed afterwards (the
    project's folder inside it is what ``with`` gives).

    The files are read as git stores them (``ls-tree``, then ``cat-file --batch``), never through ``git archive``
    or a checkout, which would run the filters (``smudge``, ``process``) and ``export-subst`` that a stranger's
    repository may name. Their count and total size are checked from the listing before any is written; a path
    git would not check out (``..``, absolute) is refused; a symbolic link is kept only when its real path stays
    in the folder."""

    def __init__(self, project: Project, since: str):
        self.project, self.since = project, since
        self.folder: tempfile.TemporaryDirectory[str] | None = None

    def __enter__(self) -> Path:
        root, since = self.project.root, self.since
        if since.startswith("-") or not since.strip() or any(c in since for c in "\n\r\0"):
            raise _bad_revision(since, "not a revision")
        try:
            found = _git(root, "rev-parse", "--verify", "--quiet", "--end-of-options", f"{since}^{{commit}}")
            prefix = _git(root, "rev-parse", "--show-prefix")
        except (OSError, subprocess.TimeoutExpired) as exc:
            raise _bad_revision(since, f"git could not be run ({exc})") from None
        if prefix.returncode != 0:
            raise _bad_revision(since, "the project is not in a git repository")
        if found.returncode != 0:
            raise _bad_revision(since, "no such revision in the project's git repository")
        commit = found.stdout.decode().strip()
        tree = f"{commit}:{prefix.stdout.decode().strip()}"  # the project's folder at the revision
        self.folder = tempfile.TemporaryDirectory(prefix="printer-since-")
        files = Path(self.folder.name) / "files"
        try:
            blobs, links = _listing(root, tree, since)
            _unpack(root, blobs, links, files, since)
        except BaseException:
            self.__exit__()
            raise
        if not (files / "printer.toml").is_file():
            self.__exit__()
            raise _bad_revision(since, "the project has no printer.toml at that revision")
        return files

    def __exit__(self, *exc: object) -> None:
        if self.folder is not None:
            self.folder.cleanup()
            self.folder = None


class _Git:
    """``git ARGS`` run in ``root`` with its output read as it comes (``out``), killed after :data:`GIT_TIMEOUT`
    seconds (``timed_out``); ``stdin`` is a file to read requests from."""

    def __init__(self, root: Path, args: Sequence[str], stdin: Any = subprocess.DEVNULL):
        self.errors = tempfile.TemporaryFile()  # a file, not a pipe: git's messages never fill it and stall git
        self.proc = subprocess.Popen(  # noqa: S603 (no shell; git found on PATH as every git command)
            [*_GIT, str(root), *args], stdin=stdin, stdout=subprocess.PIPE, stderr=self.errors, env=_git_env()
        )
        self.out = self.proc.stdout
        self.timed_out = False
        self.timer = threading.Timer(GIT_TIMEOUT, self._kill)
        self.timer.start()

    def _kill(self) -> None:
        self.timed_out = True
        self.proc.kill()

    def close(self, stop: bool = False) -> tuple[int, str]:
        """Wait for git to end (killed at once with ``stop``, else when its time is up); its exit code and the
        start of its error output."""
        if stop:
            self.proc.kill()
        self.out.close()  # type: ignore[union-attr]
        self.proc.wait()  # the timer kills a git that does not end in time
        self.timer.cancel()
        self.errors.seek(0)
        err = self.errors.read(300).decode(errors="replace").strip()
        self.errors.close()
        return self.proc.returncode, err


def _listing(root: Path, tree: str, since: str) -> tuple[list[tuple[str, str]], list[tuple[str, str]]]:
    """The files of ``tree``: (object id, path) of its blobs and of its symbolic links, their count and total
    size checked against :data:`ARCHIVE_FILES` and :data:`ARCHIVE_LIMIT` as they are listed."""
    git = _Git(root, ["ls-tree", "-r", "-z", "-l", "--full-tree", "--end-of-options", tree])
    blobs: list[tuple[str, str]] = []
    links: list[tuple[str, str]] = []
    total, rest, problem = 0, b"", None
    try:
        while problem is None and (chunk := git.out.read(1 << 16)):  # type: ignore[union-attr]
            *entries, rest = (rest + chunk).split(b"\0")
            for entry in entries:
                head, _, name = entry.partition(b"\t")
                fields = head.split()
                if len(fields) != 4 or not (fields[3].isdigit() or fields[3] == b"-"):
                    problem = f"git ls-tree gave a line printer cannot read: {entry[:100]!r}"
                    break
                mode, kind, oid, size = fields
                path = name.decode("utf-8", "surrogateescape")
                if kind != b"blob" or not _safe_path(path):
                    continue  # a submodule, or a path git would not check out
                (links if mode == b"120000" else blobs).append((oid.decode(), path))
                total += int(size)
                if len(blobs) + len(links) > ARCHIVE_FILES:
                    problem = f"the project has more than {ARCHIVE_FILES:,} files at {since}"
                elif total > ARCHIVE_LIMIT:
                    problem = f"the project's files at {since} are larger than {ARCHIVE_LIMIT // 2**30} GB"
    finally:
        code, err = git.close(stop=problem is not None)
    if problem is not None:
        raise _bad_revision(since, problem)
    if git.timed_out:
        raise _bad_revision(since, f"git ls-tree took more than {GIT_TIMEOUT} s")
    if code != 0:
        raise _bad_revision(since, f"git ls-tree failed: {err}")
    return blobs, links


def _safe_path(path: str) -> bool:
    parts = path.split("/")
    return bool(path) and not path.startswith("/") and all(p not in ("", ".", "..") for p in parts)


def _unpack(root: Path, blobs: list[tuple[str, str]], links: list[tuple[str, str]], files: Path, since: str) -> None:
    """Write ``blobs`` under ``files``, then the ``links`` whose real path stays under it."""
    requests = files.parent / "objects"
    requests.write_text("".join(f"{oid}\n" for oid, _ in [*blobs, *links]), encoding="ascii")
    files.mkdir()
    with requests.open("rb") as stdin:
        git = _Git(root, ["cat-file", "--batch"], stdin)
        try:
            for oid, path in blobs:
                size = _object_size(git, oid, since)
                _write_blob(files / path, git.out, size)
            targets = [(path, git.out.read(_object_size(git, oid, since) + 1)[:-1]) for oid, path in links]  # type: ignore[union-attr]
        except (OSError, ValueError) as exc:
            code, err = git.close(stop=True)
            if git.timed_out:
                raise _bad_revision(since, f"git cat-file took more than {GIT_TIMEOUT} s") from None
            raise _bad_revision(since, f"the project's files could not be read: {err or exc}") from None
        code, err = git.close()
    if code != 0:
        raise _bad_revision(since, f"git cat-file failed: {err}")
    home = os.path.realpath(files)
    for path, target in targets:
        link = files / path
        if link.exists() or link.is_symlink():
            continue
        link.parent.mkdir(parents=True, exist_ok=True)
        link.symlink_to(os.fsdecode(target))
    for path, _ in targets:  # every link made, each one's real path is checked: a link out is removed
        link = files / path
        if link.is_symlink() and not Path(os.path.realpath(link)).is_relative_to(home):
            link.unlink()


def _object_size(git: _Git, oid: str, since: str) -> int:
    header = git.out.readline().split()  # type: ignore[union-attr]
    if len(header) != 3 or header[0].decode() != oid:
        raise ValueError(f"git gave no object {oid}")
    return int(header[2])


def _write_blob(path: Path, out: Any, size: int) -> None:
    """Copy ``size`` bytes of ``out`` (and the newline after them) to the new file ``path``."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o644)
    with os.fdopen(fd, "wb") as file:
        while size > 0:
            chunk = out.read(min(size, 1 << 20))
            if not chunk:
                raise ValueError("git's output ended early")
            file.write(chunk)
            size -= len(chunk)
    out.read(1)


def reprint_items(
    project: Project,
    game: Game,
    opts: PrintOptions,
    since: str,
    items: list[PrintItem],
    options: dict[str, Any],
    lang: str | None = None,
) -> tuple[list[PrintItem], ChangesReport]:
    """The ``items`` whose card's printed face changed since ``since`` (new cards too), and the report; ``lang``:
    the faces in that language (``build --lang``)."""
    report = changes(project, game.id, since, options, lang)
    wanted = {c.id for c in report.reprint}
    return [item for item in items if item.card is not None and item.card.id in wanted], report


def after_sheets(
    project: Project,
    game: Game,
    job: SheetJob,
    items: Sequence[PrintItem],
    layout: Any,
    target: Path,
    reprint: ChangesReport | None,
    outcome: Any,
    made: list[dict[str, Any]],
) -> list[Problem]:
    """Once ``target``'s sheets are written: a reprint's changelog page appended (``reprint``), then the
    manifest written beside it (the one in ``made``, else made now: :func:`make_manifest`; its path added to
    ``outcome.paths``); returns the problems."""
    from printer.sheets.manifest import write_manifest
    from printer.sheets.render import build_date

    problems: list[Problem] = []
    if not target.is_file():
        return problems
    if reprint is not None:
        from printer.sheets.changelog import append_changelog, changelog_html

        removed = [c for c in reprint.changes if c.status == "removed"]
        versions = (reprint.old_version, reprint.version)
        page, lang = layout.page, job.renderer.lang  # printer's words in the build's language (--lang)
        html = changelog_html(game.name, reprint.since, reprint.reprint, removed, versions, build_date(), page, lang)
        problems += append_changelog(target, html, project.root)
    try:
        if not made:
            make_manifest(made, project, game, job, items, layout.per_sheet, target)
        outcome.paths.append(write_manifest(target, made[0]))
    except OSError as exc:
        where = str(target.with_name(target.stem + ".manifest.json"))
        problems.append(Problem(where, f"the manifest could not be written: {exc.strerror or exc}", code="manifest"))
    return problems
