"""The CPU worker's Numba runs on Numba's CUDA simulator, whose shared arrays are allocated by
the first thread of a block to reach the line, with no lock: the judge makes that one step
(languages/numba.py, atomic_shared_arrays). Threads here widen the window as a loaded CI machine
did, where a correct block scan once read another thread's uninitialised array."""

from __future__ import annotations

import threading
import time
from typing import Any

import numpy as np
import pytest

from judge.languages import numba as numba_language


def _allocate_from_many_threads(array: Any, monkeypatch: pytest.MonkeyPatch) -> int:
    """How many distinct arrays 16 threads get from one line of one block."""
    from numba.cuda.simulator import kernelapi

    real_empty = np.empty

    def slow_empty(*a: Any, **k: Any) -> Any:  # a thread switch between look-up and store
        time.sleep(0.01)
        return real_empty(*a, **k)

    monkeypatch.setattr(np, "empty", slow_empty)
    block = kernelapi.FakeCUDAShared(0)
    got: list[int] = []
    start = threading.Barrier(16)

    def thread() -> None:
        start.wait()
        got.append(id(array(block, 8, np.int32)))  # the one line every thread runs

    threads = [threading.Thread(target=thread) for _ in range(16)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    monkeypatch.setattr(np, "empty", real_empty)
    return len(set(got))


def test_a_blocks_threads_share_one_array_per_line(monkeypatch: pytest.MonkeyPatch) -> None:
    from numba.cuda.simulator import kernelapi

    shared: Any = kernelapi.FakeCUDAShared
    original = getattr(shared, "kerneldojo_original", shared.array)
    assert _allocate_from_many_threads(original, monkeypatch) > 1  # the simulator's own race
    numba_language.atomic_shared_arrays()
    numba_language.atomic_shared_arrays()  # twice: patched once
    assert shared.kerneldojo_original is original
    assert _allocate_from_many_threads(shared.array, monkeypatch) == 1


def test_other_lines_still_get_their_own_arrays() -> None:
    from numba.cuda.simulator import kernelapi

    numba_language.atomic_shared_arrays()
    block = kernelapi.FakeCUDAShared(64)
    a = block.array(4, np.float32)
    b = block.array(4, np.float32)
    assert a is not b and a.dtype == np.float32 and a.shape == (4,)
    again = [block.array(4, np.int32) for _ in range(2)]  # one line, run twice: one array
    assert again[0] is again[1]
    dyn = block.array(0, np.dtype(np.float32))  # dynamic shared memory: the block's one buffer
    assert dyn.size == 16
