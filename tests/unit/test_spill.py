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


def test_a_full_disk_part_way_loses_no_offsets(tmp_path, monkeypatch):
    """pwrite writing part of the buffer and then failing: what was written stays readable, the rest is still
    buffered, and later puts land after it."""
    monkeypatch.setattr(spill_module, "BUFFER", 10)
    spill = Spill(tmp_path)
    real = os.pwrite
    calls = []

    def flaky(fd, data, offset):
        calls.append(len(data))
        if len(calls) == 1:
            return real(fd, bytes(data[:4]), offset)
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(spill_module.os, "pwrite", flaky)
    with pytest.raises(OSError):
        spill.put(b"0123456789AB")
    monkeypatch.setattr(spill_module.os, "pwrite", real)
    later = spill.put(b"xyz")
    assert spill.get(later) == b"xyz" and spill.size == 15
    assert spill.get(0 << 32 | 12) == b"0123456789AB"


def test_too_large_is_refused_as_an_os_error(tmp_path):
    class Huge(bytes):
        def __len__(self):
            return 1 << 32

    with pytest.raises(OSError):
        Spill(tmp_path).put(Huge(b"x"))
