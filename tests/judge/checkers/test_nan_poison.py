"""A NaN never written is told apart from a NaN the kernel computed (#37, item 4)."""

from __future__ import annotations

import pytest
import torch

from judge import grader
from judge.checkers import close
from judge.problem import dtypes, loader
from judge.problem.schema import Check
from judge.verdicts import Verdict

NAN_KERNEL = """import torch
import triton
import triton.language as tl


@triton.jit
def add_kernel(a_ptr, b_ptr, c_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    a = tl.load(a_ptr + offs, mask=mask)
    b = tl.load(b_ptr + offs, mask=mask)
    zero = a - a
    tl.store(c_ptr + offs, a + b + zero / zero, mask=mask)  # 0/0: NaN everywhere


def solve(a: torch.Tensor, b: torch.Tensor, c: torch.Tensor, n: int):
    add_kernel[(triton.cdiv(n, 256),)](a, b, c, n, BLOCK=256)
"""


@pytest.mark.parametrize("dtype", [torch.float32, torch.float16, torch.bfloat16])
def test_the_poison_is_a_nan_of_its_own(dtype: torch.dtype) -> None:
    t = torch.empty(5, dtype=dtype)
    dtypes.poison(t)
    assert bool(torch.isnan(t).all())
    assert dtypes.still_poison(t, 3) is True
    t[3] = torch.tensor(0.0) / torch.tensor(0.0)  # a NaN made by arithmetic
    t[4] = torch.tensor(float("inf")) - torch.tensor(float("inf"))
    assert dtypes.still_poison(t, 3) is False
    assert dtypes.still_poison(t, 4) is False
    assert dtypes.still_poison(t, 0) is True
    assert bool(dtypes.unwritten(t).all())  # every NaN still counts as unwritten for the probes


def test_fp8_has_a_single_nan() -> None:
    t = torch.empty(2, dtype=torch.float8_e4m3fn)
    dtypes.poison(t)
    assert dtypes.still_poison(t, 0) is None


def test_close_says_never_written_or_computed() -> None:
    expected = torch.ones(4)
    got = torch.empty(4)
    dtypes.poison(got)
    got[:2] = 1.0
    ok, message, _ = close.compare("c", got, expected, 1.0, Check())
    assert not ok and "first at [2]" in message
    assert "still the NaN the output is filled with before each call, bit for bit" in message
    got[2] = torch.tensor(0.0) / torch.tensor(0.0)
    ok, message, _ = close.compare("c", got, expected, 1.0, Check())
    assert not ok and "a NaN your kernel computed, not the untouched poison" in message


def test_a_grading_names_a_computed_nan() -> None:
    res = grader.grade(loader.resolve("vector-add"), NAN_KERNEL, "triton", device="cpu", mode="run")
    assert res.verdict == Verdict.WRONG_ANSWER
    assert "a NaN your kernel computed, not the untouched poison" in res.message, res.message
