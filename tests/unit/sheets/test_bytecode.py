"""Compiled templates are kept in the user's cache folder, never a project's, and never trusted blindly."""

from __future__ import annotations

import os
from pathlib import Path

import jinja2
import pytest

from printer.sheets import bytecode
from printer.sheets.sandbox import TemplateSandbox


def _env(templates: Path, cache: bytecode.Compiled) -> TemplateSandbox:
    return TemplateSandbox(loader=jinja2.FileSystemLoader(str(templates)), bytecode_cache=cache)


@pytest.fixture
def templates(tmp_path):
    folder = tmp_path / "templates"
    folder.mkdir()
    (folder / "card.html.j2").write_text("<b>{{ card.title|upper }}</b>", encoding="utf-8")
    return folder


def _compiles(monkeypatch) -> list[str]:
    """The templates compiled from their source from now on."""
    compiled: list[str] = []
    original = TemplateSandbox.compile

    def compile(self, source, name=None, filename=None, *args, **kwargs):
        compiled.append(name)
        return original(self, source, name, filename, *args, **kwargs)

    monkeypatch.setattr(TemplateSandbox, "compile", compile)
    return compiled


def test_a_later_process_loads_the_compiled_template(tmp_path, templates, monkeypatch):
    folder = tmp_path / "cache"
    compiled = _compiles(monkeypatch)
    first = _env(templates, bytecode.Compiled(lambda: folder)).get_template("card.html.j2")
    assert compiled == ["card.html.j2"] and len(list(folder.glob("*.jbc"))) == 1
    assert oct(folder.stat().st_mode & 0o777) == "0o700"
    later = _env(templates, bytecode.Compiled(lambda: folder)).get_template("card.html.j2")  # a new process's
    assert compiled == ["card.html.j2"]
    assert later.render(card={"title": "Kaiu"}) == first.render(card={"title": "Kaiu"}) == "<b>KAIU</b>"


def test_an_edited_template_is_compiled_again(tmp_path, templates, monkeypatch):
    folder = tmp_path / "cache"
    _env(templates, bytecode.Compiled(lambda: folder)).get_template("card.html.j2")
    (templates / "card.html.j2").write_text("<i>{{ card.title }}</i>", encoding="utf-8")
    compiled = _compiles(monkeypatch)
    template = _env(templates, bytecode.Compiled(lambda: folder)).get_template("card.html.j2")
    assert compiled == ["card.html.j2"] and template.render(card={"title": "Kaiu"}) == "<i>Kaiu</i>"


def test_a_damaged_file_is_compiled_again_and_replaced(tmp_path, templates, monkeypatch):
    folder = tmp_path / "cache"
    _env(templates, bytecode.Compiled(lambda: folder)).get_template("card.html.j2")
    (kept,) = folder.glob("*.jbc")
    data = kept.read_bytes()
    kept.write_bytes(data[: len(data) // 2])
    compiled = _compiles(monkeypatch)
    template = _env(templates, bytecode.Compiled(lambda: folder)).get_template("card.html.j2")
    assert compiled == ["card.html.j2"] and template.render(card={"title": "a"}) == "<b>A</b>"
    assert kept.read_bytes() == data


@pytest.mark.skipif(not hasattr(os, "getuid"), reason="POSIX permissions")
def test_a_folder_others_may_write_to_is_not_used(tmp_path, templates, monkeypatch):
    folder = tmp_path / "cache"
    folder.mkdir()
    folder.chmod(0o777)
    _env(templates, bytecode.Compiled(lambda: folder)).get_template("card.html.j2")
    assert list(folder.iterdir()) == []
    link = tmp_path / "link"
    link.symlink_to(tmp_path / "elsewhere", target_is_directory=True)
    (tmp_path / "elsewhere").mkdir(mode=0o700)
    _env(templates, bytecode.Compiled(lambda: link)).get_template("card.html.j2")
    assert list((tmp_path / "elsewhere").iterdir()) == []  # a link is not followed


def test_a_linked_file_in_the_folder_is_not_read(tmp_path, templates, monkeypatch):
    folder = tmp_path / "cache"
    _env(templates, bytecode.Compiled(lambda: folder)).get_template("card.html.j2")
    (kept,) = folder.glob("*.jbc")
    real = tmp_path / "real.jbc"
    kept.rename(real)
    kept.symlink_to(real)
    compiled = _compiles(monkeypatch)
    _env(templates, bytecode.Compiled(lambda: folder)).get_template("card.html.j2")
    assert compiled == ["card.html.j2"]


def test_the_folder_is_the_users_and_its_tag_follows_the_code(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    from printer.sheets import sizes

    code = (str(sizes.__file__),)
    folder = bytecode.user_folder("autoescape", code)
    assert folder is not None and folder.parent == tmp_path / "printer" / "jinja"
    assert bytecode.code_tag("autoescape", code) != bytecode.code_tag("autoescape trim_blocks", code)
    assert bytecode.code_tag("autoescape", code) != bytecode.code_tag("autoescape", (str(bytecode.__file__),))
    assert bytecode.code_tag("autoescape", (str(tmp_path / "gone.py"),)) == ""  # no cache folder then
    from printer.sheets import sandbox

    assert sandbox.COMPILED.where is not None  # every for_templates environment shares it
    env = TemplateSandbox.for_templates([tmp_path], [tmp_path])
    assert env.bytecode_cache is sandbox.COMPILED


def test_memory_only_without_a_folder(templates, monkeypatch):
    cache = bytecode.Compiled()
    _env(templates, cache).get_template("card.html.j2")
    compiled = _compiles(monkeypatch)
    _env(templates, cache).get_template("card.html.j2")  # another environment of the same process
    assert compiled == [] and cache.folder is None
