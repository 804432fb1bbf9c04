"""printer.watching: changes are kept from the moment the watch starts, grouped, and a dead watch is said."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import pytest

from printer.watching import Changes, ChangesLost


def test_files_changed_before_the_wait_are_given_at_once_in_one_group(tmp_path: Path):
    with Changes(tmp_path, lambda path: not path.endswith(".tmp")) as changes:
        assert changes.wait_ready()
        for name in ("a.json", "b.json", "c.tmp"):  # as while a build runs: nobody waits yet
            (tmp_path / name).write_text("{}", encoding="utf-8")
            time.sleep(0.2)
        started = time.monotonic()
        found = changes.wait(5)
        assert time.monotonic() - started < 0.5
        assert {Path(p).name for p in found} == {"a.json", "b.json"}  # c.tmp is not wanted
        assert changes.wait(0.3) == set()  # nothing more came


def test_a_wait_ends_when_stop_is_set(tmp_path: Path):
    stop = threading.Event()
    threading.Timer(0.2, stop.set).start()
    with Changes(tmp_path, lambda path: True) as changes:
        started = time.monotonic()
        assert changes.wait(None, stop) == set()
        assert time.monotonic() - started < 2


def test_a_watch_that_ended_by_itself_is_raised_in_the_waiting_thread(tmp_path: Path):
    def broken(*args, **kwargs):
        raise OSError("inotify watch limit reached")
        yield  # a generator, as watchfiles.watch is

    changes = Changes(tmp_path, lambda path: True)
    changes._watch = broken
    with changes, pytest.raises(ChangesLost, match="inotify watch limit reached"):
        changes.wait(5)


def test_without_watchfiles_the_watch_is_a_usage_error_that_says_what_to_install(tmp_path: Path, monkeypatch):
    import sys

    from printer.problems import UsageError

    monkeypatch.setitem(sys.modules, "watchfiles", None)  # as if not installed: importing it raises ImportError
    with pytest.raises(UsageError) as raised:
        Changes(tmp_path, lambda path: True)
    assert raised.value.exit_code == 2 and "printer[serve]" in (raised.value.problems[0].hint or "")
