"""The Numba language's compatibility shim for numba-cuda on NumPy 2.5+ (#41)."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest

from judge.languages import numba as numba_language

ROOT = Path(__file__).resolve().parents[3]


def test_row_stack_is_given_back_when_numpy_lacks_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delattr(np, "row_stack", raising=False)
    numba_language.numpy_row_stack()
    a, b = np.arange(3), np.arange(3, 6)
    assert np.array_equal(np.row_stack((a, b)), np.vstack((a, b)))


def test_row_stack_left_alone_where_numpy_has_it(monkeypatch: pytest.MonkeyPatch) -> None:
    def own(tup: object) -> str:
        return "numpy's own"

    monkeypatch.setattr(np, "row_stack", own, raising=False)
    numba_language.numpy_row_stack()
    assert getattr(np, "row_stack") is own  # noqa: B009 - mypy knows numpy's own only


def test_the_shim_is_looked_at_again_when_numba_cuda_moves_on() -> None:
    """Fails once the GPU worker pins a numba-cuda after the last release known to need the shim:
    then check whether that release still calls numpy.row_stack, and delete the shim if not."""
    pins = (ROOT / "requirements" / "worker-gpu.txt").read_text()
    found = re.search(r"^numba-cuda==(\d+)\.(\d+)\.(\d+)$", pins, re.M)
    assert found, "requirements/worker-gpu.txt pins no numba-cuda"
    pinned = tuple(int(x) for x in found.groups())
    assert pinned <= numba_language.ROW_STACK_NEEDED_THROUGH
