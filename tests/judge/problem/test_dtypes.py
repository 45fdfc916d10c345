"""Element types (dtypes.py): sizes, C types, poison values, and guard bands for every dtype."""

from __future__ import annotations

from pathlib import Path

import pytest
import torch

from judge.problem import dtypes
from judge.sandbox import buffers, guards


def test_every_dtype_maps_to_torch_with_its_size() -> None:
    for name, d in dtypes.DTYPES.items():
        t = getattr(torch, name)
        assert torch.empty(0, dtype=t).element_size() == d.itemsize, name
        assert d.integer == (not t.is_floating_point), name


def test_integer_poison_is_0x7f_bytes_and_found_unwritten() -> None:
    assert dtypes.get("int32").poison_int == 0x7F7F7F7F
    assert dtypes.get("uint8").poison_int == 0x7F
    assert dtypes.get("int64").poison_int == 0x7F7F7F7F7F7F7F7F
    for name in ("int8", "uint8", "int32", "uint32", "int64"):
        t = torch.zeros(6, dtype=getattr(torch, name))
        dtypes.poison(t)
        assert bool((t.view(torch.uint8) == 0x7F).all()), name
        t[2] = 1
        assert dtypes.unwritten(t).tolist() == [True, True, False, True, True, True], name


def test_float_poison_is_nan() -> None:
    t = torch.zeros(3, dtype=torch.bfloat16)
    dtypes.poison(t)
    assert bool(torch.isnan(t).all()) and bool(dtypes.unwritten(t).all())


def test_checkable_skips_positions_a_poisoned_output_would_match() -> None:
    e = torch.tensor([0, 127, 5], dtype=torch.int64)
    assert dtypes.checkable(e, "uint8").tolist() == [True, False, True]
    f = torch.tensor([1.0, float("nan"), float("inf")], dtype=torch.float64)
    assert dtypes.checkable(f, "float32").tolist() == [True, False, False]


@pytest.mark.parametrize("name", sorted(dtypes.DTYPES))
def test_guard_bands_catch_a_write_past_the_end_for_every_dtype(name: str, tmp_path: Path) -> None:
    buf = buffers.create((3, 7), name, "cpu", tmp_path, "y")
    t = buf.tensor
    assert t.dtype == getattr(torch, name) and tuple(t.shape) == (3, 7)
    assert t.data_ptr() % 16 == 0
    g = guards.Guarded("y", "output", (3, 7), ("m", "n"), t.element_size(), buf.front, buf.back)
    pattern = guards.Pattern("cpu")
    pattern.fill([g])
    dtypes.poison(t)
    t.fill_(1)  # every element written: the guards stay as they were
    assert pattern.check([g]) is None
    size = t.element_size()
    # The element just after the end, y[m, 0]: every byte of it changed.
    buf.back[:size] = ~buf.back[:size]
    msg = pattern.check([g])
    assert msg is not None and "y: wrote past the end, at y[m, 0]" in msg, msg
    buf.free()


def test_fp8_poison_is_the_byte_0x7f_and_reads_as_nan() -> None:
    t = torch.zeros(4, dtype=torch.float8_e4m3fn)
    dtypes.poison(t)
    assert bool((t.view(torch.uint8) == 0x7F).all())
    assert bool(dtypes.unwritten(t).all())
    assert dtypes.get("float8_e4m3fn").c_type == "__nv_fp8_e4m3"
