"""Build options that contradict each other, do nothing or cannot print: a usage error (exit 2) for what cannot be
meant, a located warning for what prints but not as meant."""

from __future__ import annotations

import pytest


@pytest.fixture(scope="module")
def project(tmp_path_factory):
    from helpers import main

    root = tmp_path_factory.mktemp("sense") / "p"
    with pytest.raises(SystemExit) as made:
        main(["init", str(root)])
    assert made.value.code == 0
    return root


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["--flip", "short-edge", "--duplex", "long-edge"], "--flip: error: --flip short-edge and --duplex long-edge"),
        (["--flip", "short-edge", "--duplex", "none"], "disagree"),
        (["--image-url-base", "https://example.org/cards/"], "--image-url-base: error: --image-url-base is for the"),
        (["--sort", ",,,"], "sort: ',,,' names no field"),
        (["--paper", "0x0mm"], "command line: error: paper size '0x0mm': both sides must be over 0"),
        (
            ["--only", "Dawn Runer"],
            "--only: error: no card with id or name 'Dawn Runer' (hint: did you mean 'Dawn Runner'?)",
        ),
    ],
)
def test_what_cannot_be_meant_is_a_usage_error(project, run, tmp_path, args, said):
    result = run("--project", project, "build", "--out", tmp_path, *args)
    assert result.code == 2 and said in result.err, result.err
    assert not list(tmp_path.iterdir())


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["--sort", "titel,cost"], "--sort: warning: sort by 'titel': no card has that field, so it orders nothing"),
        (["--safe", "40"], "--safe: warning: safe 40 mm leaves no room inside the 63 x 88 mm trim"),
        (["--back-offset", "1000,0"], "--back-offset: warning: back offset 1000,0 mm moves every back off the"),
    ],
)
def test_what_prints_but_not_as_meant_is_a_warning_where_it_was_given(project, run, tmp_path, args, said):
    result = run("--project", project, "build", "--out", tmp_path, *args)
    assert result.code == 0 and said in result.err, result.err
    assert run("--project", project, "build", "--out", tmp_path / "strict", "--strict", *args).code == 1


def test_a_card_that_does_not_fit_the_sheet_is_located_where_the_paper_or_margin_was_given(tmp_path, run):
    root = tmp_path / "p"
    assert run("init", root).code == 0
    toml = root / "printer.toml"
    toml.write_text(toml.read_text("utf-8").replace('paper = "A4"', 'paper = "10x10mm"', 1), encoding="utf-8")
    result = run("--project", root, "build")
    assert result.code == 2 and "printer.toml [project]: error: a 63 x 88 mm card does not fit" in result.err
    result = run("--project", root, "build", "--paper", "A4", "--margin", "100")
    assert result.code == 2 and "--paper: error: a 63 x 88 mm card does not fit" in result.err  # paper and margins
