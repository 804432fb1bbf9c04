"""A row of template renders shares one CPU-time watch: each render is still stopped past its limit, in the row,
in a process forked from it, and alone; the process's own timer and handler are as they were afterwards."""

from __future__ import annotations

import os
import signal
import threading
import time

import pytest

from printer.sheets import cputime, sandbox
from printer.sheets.sandbox import TemplateSandbox

LOOP = "{% for i in range(99999) %}{% for j in range(9999) %}{% endfor %}{% endfor %}"


@pytest.fixture
def short_limit(monkeypatch):
    monkeypatch.setattr(sandbox, "RENDER_SECONDS", 0.3)
    return TemplateSandbox()


def _stopped(env) -> float:
    """CPU seconds until a looping render is stopped by its limit."""
    started = time.process_time()
    with pytest.raises(sandbox.RenderLimit, match="ran for more than 0.3 s"):
        sandbox.render_limited(env.from_string(LOOP), {}, 100)
    return time.process_time() - started


def test_a_render_in_a_row_is_stopped_past_its_limit_and_the_others_render(short_limit):
    before = signal.getsignal(signal.SIGPROF)
    with cputime.row(0.3):
        assert signal.getitimer(signal.ITIMER_PROF)[1] == pytest.approx(cputime.CHECK * 0.3)
        for number in range(50):  # quick renders: none stopped, however long the row lasts
            assert sandbox.render_limited(short_limit.from_string("{{ n * 2 }}"), {"n": number}, 100) == str(2 * number)
        assert _stopped(short_limit) < 0.3 + 2 * cputime.CHECK * 0.3 + 0.5
        assert sandbox.render_limited(short_limit.from_string("after"), {}, 100) == "after"
    assert signal.getitimer(signal.ITIMER_PROF) == (0.0, 0.0)
    assert signal.getsignal(signal.SIGPROF) is before


def test_a_row_does_not_stop_a_render_that_waits(short_limit):
    waiting = short_limit.from_string("{% for i in range(3) %}{{ wait() }}{% endfor %}done")
    with cputime.row(0.3):
        assert sandbox.render_limited(waiting, {"wait": lambda: time.sleep(0.2) or ""}, 100) == "done"


def test_a_process_forked_in_a_row_watches_its_renders_itself(short_limit):
    """A forked process inherits no interval timer: its renders set their own again."""
    with cputime.row(0.3):
        read, write = os.pipe()
        child = os.fork()
        if child == 0:  # pragma: no cover (the child reports through the pipe)
            try:
                code = b"stopped" if _stopped(short_limit) < 5 else b"late"
            except BaseException:  # noqa: BLE001
                code = b"failed"
            os.write(write, code)
            os._exit(0)
        os.close(write)
        answer = os.read(read, 16)
        os.close(read)
        os.waitpid(child, 0)
    assert answer == b"stopped"


def test_a_render_alone_and_in_another_thread_is_still_limited(short_limit):
    assert _stopped(short_limit) < 5
    results = []

    def in_thread() -> None:  # no timer off the main thread, but the output checks still run
        with cputime.row(0.3):
            results.append(sandbox.render_limited(short_limit.from_string("{{ 1 + 1 }}"), {}, 100))

    thread = threading.Thread(target=in_thread)
    thread.start()
    thread.join()
    assert results == ["2"]
    assert signal.getitimer(signal.ITIMER_PROF) == (0.0, 0.0)


def test_a_row_leaves_a_callers_profiling_timer_alone(short_limit):
    ticks = []
    previous = signal.signal(signal.SIGPROF, lambda signum, frame: ticks.append(signum))
    try:
        signal.setitimer(signal.ITIMER_PROF, 30.0)
        with cputime.row(0.3):
            assert sandbox.render_limited(short_limit.from_string("{{ 1 + 1 }}"), {}, 100) == "2"
        assert 0 < signal.getitimer(signal.ITIMER_PROF)[0] <= 30.1  # its time left (the clock's tick aside)
        assert signal.getsignal(signal.SIGPROF) is not cputime._past_limit
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
        signal.signal(signal.SIGPROF, previous)
