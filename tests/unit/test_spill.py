"""The spill file a build sets card data and face HTML aside in (printer.spill)."""

from __future__ import annotations

import os
import threading

import pytest

from printer import spill as spill_module
from printer.spill import Spill


def test_what_is_put_comes_back_from_the_buffer_and_from_the_file(tmp_path, monkeypatch):
    monkeypatch.setattr(spill_module, "BUFFER", 100)
    spill = Spill(tmp_path)
    blobs = [bytes([i % 256]) * (i * 7 % 61) for i in range(200)]  # empty ones too
    handles = [spill.put(b) for b in blobs]
    assert spill.size == sum(map(len, blobs))
    assert [spill.get(h) for h in handles] == blobs  # the last ones from the buffer, the rest from the file
    assert os.listdir(tmp_path) == []  # the file has no name (or lost it at once): nothing to clean up


def test_threads_putting_at_once_each_get_their_own_bytes_back(tmp_path, monkeypatch):
    monkeypatch.setattr(spill_module, "BUFFER", 512)
    spill = Spill(tmp_path)
    found: dict[int, list[tuple[bytes, int]]] = {}

    def work(n: int) -> None:
        found[n] = [(data, spill.put(data)) for data in (f"{n}:{i};".encode() * (i % 9) for i in range(300))]

    threads = [threading.Thread(target=work, args=(n,)) for n in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert all(spill.get(handle) == data for pairs in found.values() for data, handle in pairs)


def test_a_full_disk_keeps_every_handle_readable_and_refuses_more(tmp_path, monkeypatch):
    """The file taking part of a buffer and then failing: every handle given is still read (from the buffer), and
    the next put is refused, so that its caller keeps the bytes in memory instead."""
    monkeypatch.setattr(spill_module, "BUFFER", 10)
    spill = Spill(tmp_path)
    first = spill.put(b"0123456789AB")  # written to the file: over the buffer's size

    class Full:
        def __init__(self, real):
            self.real = real

        def __getattr__(self, name):
            return getattr(self.real, name)

        def write(self, data):
            self.real.write(bytes(data[:3]))  # part of it, then the disk is full
            raise OSError(28, "No space left on device")

    spill._file = Full(spill._file)
    second = spill.put(b"abcdefghijkl")  # taken: the write fails, the bytes stay in the buffer
    with pytest.raises(OSError, match="cannot be written"):
        spill.put(b"xyz")
    assert spill.get(first) == b"0123456789AB" and spill.get(second) == b"abcdefghijkl"
    assert spill.size == 24


def test_too_large_is_refused_as_an_os_error(tmp_path):
    class Huge(bytes):
        def __len__(self):
            return 1 << 32

    with pytest.raises(OSError):
        Spill(tmp_path).put(Huge(b"x"))
