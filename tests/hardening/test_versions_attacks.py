"""``printer changes --since REF`` and ``build --since REF`` on a stranger's project: its repository (config,
attributes, history) and the REF or manifest given cannot run a program, write outside a temporary folder,
fill the disk or end in a traceback.

- git reads the revision's objects as they are stored (``ls-tree`` and ``cat-file``): no smudge or process
  filter, no ``export-subst``, no file-system monitor the repository's config names runs;
- a REF that is an option, or holds a newline or an option after a space, is refused (exit 2) and runs nothing;
- a revision's file that is a symbolic link out, a path git would never check out, too many or too large files:
  a located problem or a usage error, never a traceback, nothing written outside;
- a manifest given as ``--since FILE`` that is nested too deeply or holds the wrong shapes: exit 2, located.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import time
from pathlib import Path

import pytest

from printer import api, gitrevision

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="needs git")

TOML = '[project]\npaper = "A4"\nversion = "1"\n\n[games.t]\nname = "Tree"\ncard_size = "poker"\n'
CARDS = [{"id": "a", "title": "Ash", "type": "Unit"}, {"id": "b", "title": "Birch", "type": "Unit"}]


def git(root: Path, *args: str) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        ["git", "-c", "user.email=t@example.invalid", "-c", "user.name=T", *args],
        cwd=root,
        check=True,
        capture_output=True,
        timeout=60,
    )


def _project(root: Path, cards: list[dict] = CARDS) -> Path:
    templates = root / "templates" / "t"
    templates.mkdir(parents=True)
    (root / "printer.toml").write_text(TOML, encoding="utf-8")
    (templates / "card.html.j2").write_text('<div class="card">{{ card.title }}</div>\n', encoding="utf-8")
    (templates / "back.html.j2").write_text('<div class="card">back</div>\n', encoding="utf-8")
    (root / "schema" / "t").mkdir(parents=True)
    schema = {"$id": "https://printer.invalid/schema/t/card.schema.json", "allOf": [{"$ref": "../card.schema.json"}]}
    (root / "schema" / "t" / "card.schema.json").write_text(json.dumps(schema), encoding="utf-8")
    _cards(root, cards)
    return root


def _cards(root: Path, cards: list[dict]) -> None:
    (root / "cards" / "t").mkdir(parents=True, exist_ok=True)
    (root / "cards" / "t" / "cards.json").write_text(json.dumps({"game": "t", "cards": cards}), encoding="utf-8")


def _commit(root: Path) -> None:
    (root / ".gitignore").write_text("build/\n")
    git(root, "init", "-q")
    git(root, "add", "-A")
    git(root, "commit", "-qm", "first")


# --- the repository's config and attributes run nothing -------------------------------------------------------


def test_filters_export_subst_and_fsmonitor_of_the_repository_run_nothing(tmp_path, run):
    root = _project(tmp_path / "p", [{"id": "a", "title": "$Format:%H$", "type": "Unit"}])
    (root / ".gitattributes").write_text("* filter=evil export-subst\n")
    _commit(root)
    marker = tmp_path / "PWNED"
    for key in ("filter.evil.smudge", "filter.evil.process", "core.fsmonitor", "core.pager", "diff.evil.textconv"):
        git(root, "config", key, f"sh -c 'echo {key} >> {marker}; cat'")
    git(root, "config", "core.hooksPath", str(tmp_path / "hooks"))
    (tmp_path / "hooks").mkdir()
    for hook in ("post-checkout", "post-index-change", "reference-transaction"):
        (tmp_path / "hooks" / hook).write_text(f"#!/bin/sh\necho {hook} >> {marker}\n")
        (tmp_path / "hooks" / hook).chmod(0o755)
    _cards(root, [{"id": "a", "title": "Ash", "type": "Unit"}])
    result = run("--project", root, "changes", "t", "--since", "HEAD")
    assert not marker.exists(), marker.read_text()
    assert result.code == 0, result.err
    assert 'title: "$Format:%H$" -> "Ash"' in result.out  # the file as committed, not expanded


def test_a_partial_clone_fetches_nothing_and_runs_no_upload_pack_it_names(tmp_path, run):
    origin = _project(tmp_path / "origin")
    _commit(origin)
    git(origin, "config", "uploadpack.allowFilter", "true")
    _cards(origin, [{"id": "a", "title": "Alder", "type": "Unit"}, CARDS[1]])
    git(origin, "commit", "-qam", "second")
    root = tmp_path / "p"
    git(tmp_path, "clone", "-q", "--filter=blob:none", f"file://{origin}", str(root))
    marker = tmp_path / "PWNED"
    git(root, "config", "remote.origin.uploadpack", f"sh -c 'touch {marker}; exec git-upload-pack \"$@\"' x")
    for protocol in ("protocol.allow", "protocol.file.allow"):
        git(root, "config", protocol, "always")
    result = run("--project", root, "changes", "t", "--since", "HEAD~1")
    assert not marker.exists()
    assert result.code == 2 and "Traceback" not in result.err
    assert "hint: give a git revision" in result.err


# --- REFs that are options ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "ref",
    [
        "--output=OUT",
        "-c core.pager=touch OUT",
        "HEAD --upload-pack=touch OUT",
        "HEAD\n--output=OUT",
        "--end-of-options",
        "HEAD:../../",
        " ",
    ],
)
def test_a_ref_that_is_an_option_runs_nothing_and_is_a_usage_error(tmp_path, run, ref):
    root = _project(tmp_path / "p")
    _commit(root)
    out = tmp_path / "OUT"
    result = run("--project", root, "changes", "t", "--since", ref.replace("OUT", str(out)))
    assert result.code == 2, (result.out, result.err)
    assert "hint: give a git revision" in result.err and "Traceback" not in result.err
    assert not out.exists()


# --- the revision's files --------------------------------------------------------------------------------------


def test_a_link_out_of_the_project_at_the_revision_is_not_followed_and_no_traceback(tmp_path, run):
    secret = tmp_path / "secret.json"
    secret.write_text(json.dumps({"game": "t", "cards": [{"id": "s", "title": "SECRET", "type": "Unit"}]}))
    root = _project(tmp_path / "p")
    (root / "cards" / "t" / "leak.json").symlink_to(secret)
    (root / "cards" / "t" / "up.json").symlink_to("../../../secret.json")
    (root / "etc").symlink_to("/etc")
    _commit(root)
    (root / "cards" / "t" / "leak.json").unlink()
    (root / "cards" / "t" / "up.json").unlink()
    result = run("--project", root, "changes", "t", "--since", "HEAD")
    assert "Traceback" not in result.err
    assert result.code in (0, 1), result.err
    assert "SECRET" not in result.out + result.err


def test_too_large_or_too_many_files_at_the_revision_are_refused_before_they_are_written(tmp_path, run, monkeypatch):
    root = _project(tmp_path / "p")
    (root / "big.bin").write_bytes(b"x" * 200_000)
    _commit(root)
    written: list[Path] = []
    real = gitrevision._write_blob
    monkeypatch.setattr(gitrevision, "_write_blob", lambda *a: written.append(a[0]) or real(*a))
    monkeypatch.setattr(gitrevision, "ARCHIVE_LIMIT", 100_000)
    result = run("--project", root, "changes", "t", "--since", "HEAD")
    assert result.code == 2 and "larger than" in result.err and "Traceback" not in result.err
    assert written == []
    monkeypatch.setattr(gitrevision, "ARCHIVE_LIMIT", 10**9)
    monkeypatch.setattr(gitrevision, "ARCHIVE_FILES", 3)
    result = run("--project", root, "changes", "t", "--since", "HEAD")
    assert result.code == 2 and "more than 3 files" in result.err and "Traceback" not in result.err
    assert written == []


def test_git_that_takes_too_long_is_a_usage_error(tmp_path, run, monkeypatch):
    root = _project(tmp_path / "p")
    _commit(root)
    monkeypatch.setattr(gitrevision, "GIT_TIMEOUT", 0.000_001)
    result = run("--project", root, "changes", "t", "--since", "HEAD")
    assert result.code == 2 and "Traceback" not in result.err
    assert "git" in result.err and "hint: give a git revision" in result.err


@pytest.mark.parametrize("slow", ["ls-tree", "cat-file"])
def test_a_git_that_hangs_while_the_files_are_read_is_stopped(tmp_path, run, monkeypatch, slow):
    root = _project(tmp_path / "p")
    _commit(root)
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    real = shutil.which("git")
    (bin_dir / "git").write_text(f'#!/bin/sh\ncase "$*" in *{slow}*) exec sleep 30;; esac\nexec {real} "$@"\n')
    (bin_dir / "git").chmod(0o755)
    monkeypatch.setenv("PATH", f"{bin_dir}:{os.environ['PATH']}")
    monkeypatch.setattr(gitrevision, "GIT_TIMEOUT", 1)
    started = time.monotonic()
    result = run("--project", root, "changes", "t", "--since", "HEAD")
    assert time.monotonic() - started < 10
    assert result.code == 2 and "Traceback" not in result.err
    assert f"git {slow} took more than 1 s" in result.err


def test_the_temporary_checkout_is_removed(tmp_path, monkeypatch):
    root = _project(tmp_path / "p")
    _commit(root)
    temp = tmp_path / "tmp"
    temp.mkdir()
    monkeypatch.setenv("TMPDIR", str(temp))
    monkeypatch.setattr("tempfile.tempdir", None)
    api.changes(api.load_project(root), "t", "HEAD")
    assert list(temp.iterdir()) == []


def test_the_changelog_shows_a_bounded_number_of_lines_per_card():
    from printer.sheets.changelog import LINES_PER_CARD, changelog_html
    from printer.sheets.changes import CardChange, FieldChange

    many = [FieldChange(f"f{n}", "<b>old</b>", "new") for n in range(1_000)]
    cards = [CardChange(f"c{n}", "<script>", "changed", fields=many, sides=["front"]) for n in range(50)]
    html = changelog_html("T", "HEAD", cards, [], ("1", "2"), "2026-01-01", (210, 297))
    assert html.count("<li>") == 50 * LINES_PER_CARD
    assert f"and {1_000 - LINES_PER_CARD + 2} more changes" in html
    assert "<script>" not in html and "<b>old" not in html


@pytest.mark.parametrize("version", ["{ a = 1 }", "[1, 2]", "1.5", "true", '"<script>"'])
def test_templates_get_project_version_as_text_only(tmp_path, run, version):
    from printer.sheets.render import project_view

    root = _project(tmp_path / "p")
    toml = (root / "printer.toml").read_text().replace('version = "1"', f"version = {version}")
    (root / "printer.toml").write_text(toml)
    result = run("--project", root, "validate")
    assert "Traceback" not in result.err and result.code in (0, 1, 2), result.err
    view = project_view(api.load_project(root).settings) if result.code != 2 else project_view({"version": version})
    assert isinstance(view["version"], str) and isinstance(view["build_date"], str)


# --- a manifest given as --since FILE -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "body",
    [
        "[" * 100_000 + "]" * 100_000,
        json.dumps({"format": 1, "game": "t", "cards": {"a": 5}}),
        json.dumps({"format": 1, "game": "t", "cards": {"a": {"fields": [1], "front": 3}}}),
        json.dumps({"format": 1, "game": "t", "cards": {}, "templates": [1], "stylesheets": "x"}),
        json.dumps({"format": 1, "game": "t", "cards": {}, "version": {"x": [1]}}),
        json.dumps({"format": 1, "game": ["t"], "cards": {}}),
    ],
)
def test_a_hostile_manifest_is_a_usage_error(tmp_path, run, body):
    root = _project(tmp_path / "p")
    kept = tmp_path / "old.manifest.json"
    kept.write_text(body)
    result = run("--project", root, "changes", "t", "--since", kept)
    assert result.code == 2, (result.out, result.err)
    assert "Traceback" not in result.err and "--since" in result.err


def test_a_manifest_of_more_cards_than_a_build_prints_is_refused(tmp_path, run):
    root = _project(tmp_path / "p")
    with (root / "printer.toml").open("a") as toml:
        toml.write("\n[limits]\ncards_per_build = 10\n")
    kept = tmp_path / "old.manifest.json"
    cards = {f"gone-{n}": {"name": f"Gone {n}", "fields": {}, "front": "x"} for n in range(11)}
    kept.write_text(json.dumps({"format": 1, "game": "t", "cards": cards}))
    for command in (["changes", "t"], ["build", "t"]):
        result = run("--project", root, *command, "--since", kept)
        assert result.code == 2 and "Traceback" not in result.err, result.err
        assert "cards in the manifest: 11 is over the limit of 10 (limits.cards_per_build)" in result.err
    assert not (root / "build" / "t-reprint.pdf").exists()


def test_a_manifest_that_is_a_fifo_is_refused_unread(tmp_path, run):
    root = _project(tmp_path / "p")
    fifo = tmp_path / "old.manifest.json"
    os.mkfifo(fifo)
    result = run("--project", root, "changes", "t", "--since", fifo)
    assert result.code == 2 and "Traceback" not in result.err
