"""The command line agrees with itself: exit codes in every help, --version, python -m printer, completion."""

from __future__ import annotations

import subprocess
import sys

import click
import pytest

from printer.cli import cli


def _commands(group: click.Group, prefix: tuple[str, ...] = ()):
    context = click.Context(group)
    for name in group.list_commands(context):
        command = group.get_command(context, name)
        if isinstance(command, click.Group):
            yield from _commands(command, prefix + (name,))
        else:
            yield prefix + (name,)


@pytest.mark.parametrize("path", list(_commands(cli)), ids=" ".join)
def test_every_command_states_its_exit_codes(run, path):
    result = run(*path, "--help")
    assert result.code == 0
    assert "Exit codes:" in result.out


def test_version_and_python_m_printer():
    done = subprocess.run([sys.executable, "-m", "printer", "--version"], capture_output=True, text=True)
    assert done.returncode == 0 and done.stdout.startswith("printer, version ")


def test_the_program_keeps_main_s_exit_code_and_exit_handlers_and_ends_with_its_objects_frozen(tmp_path):
    """printer.cli.run (the console script, python -m printer): the exit code and output are main's, the exit
    handlers run, and every object alive is frozen on the way out, which spares the interpreter's last walk."""
    code = (
        "import atexit, gc, sys\n"
        "atexit.register(lambda: print('frozen' if gc.get_freeze_count() else 'not frozen'))\n"
        "from printer.cli import run\n"
        "sys.argv = ['printer'] + sys.argv[1:]\n"
        "run()\n"
    )
    ok = subprocess.run([sys.executable, "-c", code, "--version"], capture_output=True, text=True, cwd=tmp_path)
    assert ok.returncode == 0, ok.stderr
    assert ok.stdout.startswith("printer, version ") and ok.stdout.splitlines()[-1] == "frozen"
    usage = subprocess.run([sys.executable, "-c", code, "build", "--no-such-option"], capture_output=True, text=True)
    assert usage.returncode == 2 and usage.stdout.strip() == "frozen" and "no-such-option" in usage.stderr
    bad = tmp_path / "bad"
    (bad / "cards/l5r").mkdir(parents=True)
    (bad / "printer.toml").write_text('[games.l5r]\ncards = "cards/l5r"\n', encoding="utf-8")
    (bad / "cards/l5r/c.json").write_text("{", encoding="utf-8")
    invalid = subprocess.run([sys.executable, "-c", code, "validate"], capture_output=True, text=True, cwd=bad)
    assert invalid.returncode == 1, invalid.stderr
    assert "c.json:1:2" in invalid.stdout + invalid.stderr


@pytest.mark.parametrize("shell,marker", [("bash", "complete -o"), ("zsh", "compdef"), ("fish", "--command printer")])
def test_completion_scripts(run, shell, marker):
    result = run("completion", shell)
    assert result.code == 0 and marker in result.out and "_PRINTER_COMPLETE" in result.out


def test_paper_sizes_agree_between_build_and_rules(run):
    from printer.sheets.layout import PAPER_SIZES

    for command in ("build", "rules"):
        text = " ".join(run(command, "--help").out.split())
        assert all(name in text for name in PAPER_SIZES), command


def test_paths_inside_the_current_folder_are_shown_relative(tmp_path, run):
    assert run("init", tmp_path / "p").code == 0
    crew = tmp_path / "p/cards/p/crew.csv"
    crew.write_text(crew.read_text().replace("Crew,Union", "Crew,Unoin"), encoding="utf-8")
    result = run("validate", cwd=tmp_path / "p")
    assert result.err.startswith("cards/p/crew.csv:D2 ($.faction): error:")


@pytest.mark.slow
def test_align_out_is_a_folder_like_every_other_out(tmp_path, run):
    assert run("init", tmp_path / "p").code == 0
    result = run("--project", tmp_path / "p", "align", "--out", tmp_path / "out")
    assert result.code == 0, result.err
    assert (tmp_path / "out/alignment-a4-long-edge.pdf").is_file()
    outs = {}
    for path in _commands(cli):
        command = cli
        for name in path:
            command = command.get_command(click.Context(command), name)
        for option in command.params:
            if "--out" in getattr(option, "opts", []):
                outs[" ".join(path)] = option.metavar
    assert set(outs.values()) == {"DIR"}, outs


HEAVY = ("weasyprint", "PIL", "pikepdf", "pypdf", "pypdfium2", "jsonschema", "jsonschema_rs", "openpyxl")
PROBE = """
import sys
from printer.cli import main
try:
    main(sys.argv[1:])
except SystemExit:
    pass
print(" ".join(sorted(sys.modules)))
"""


@pytest.mark.parametrize(
    "path", [(), ("build",), ("validate",), ("deck", "check"), ("rules",), ("export", "cards"), ("box",), ("clean",)]
)
def test_help_imports_no_renderer_nor_validator(path):
    """``printer --help`` and a command's help load no PDF, image or schema library: they start fast."""
    done = subprocess.run([sys.executable, "-c", PROBE, *path, "--help"], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    loaded = done.stdout.splitlines()[-1].split()
    heavy = sorted({m.split(".")[0] for m in loaded} & set(HEAVY + ("python_calamine",)))
    assert not heavy, f"printer {' '.join(path)} --help imported {heavy}"
    assert not [m for m in loaded if m.startswith("printer.games")], "the games are loaded only by what needs them"


def test_import_help_loads_the_games_importers_but_not_their_deck_checks():
    """``printer import --help`` lists each game's importers: the games are registered, their checks are not
    imported (:class:`printer.plugins.LazyChecks`) until a deck is checked."""
    done = subprocess.run([sys.executable, "-c", PROBE, "import", "--help"], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    loaded = done.stdout.splitlines()[-1].split()
    assert "printer.games.l5r" in loaded
    assert not [m for m in loaded if m.endswith(".checks")], [m for m in loaded if m.endswith(".checks")]
    assert not sorted({m.split(".")[0] for m in loaded} & set(HEAVY))


def test_lazy_checks_load_on_first_use():
    from printer.plugins import LazyChecks, installed_games

    checks = installed_games()["l5r"].checks
    assert isinstance(checks, LazyChecks) and "l5r.checks" in repr(checks)
    assert all(callable(rule) for rule in checks.values()) and len(checks) == len(list(checks))
