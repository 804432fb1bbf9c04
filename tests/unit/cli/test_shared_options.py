"""Options that several commands take read and behave the same in each."""

from __future__ import annotations


def _option_help(text: str, flag: str) -> str:
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.strip().startswith(flag))
    block = [lines[start]]
    for line in lines[start + 1 :]:
        if line.strip().startswith("-") or not line.strip():
            break
        block.append(line)
    return " ".join(" ".join(block).split())


def test_jobs_reads_the_same_in_build_and_check_print(run):
    build = _option_help(run("build", "--help").out, "-j, --jobs")
    check = _option_help(run("check-print", "--help").out, "-j, --jobs")
    assert build == check
    assert "Processes that lay the faces out (default: one per core; 1: in this process)." in build


def test_jobs_refuses_zero_in_both_commands(run):
    for command in ("build", "check-print"):
        result = run(command, "--jobs", "0")
        assert result.code == 2, (command, result.out)
