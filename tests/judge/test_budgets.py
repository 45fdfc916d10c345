"""The compile budget and the call limit: a slow first call says which budget ran out."""

from __future__ import annotations

import dataclasses

import pytest

from judge import grader
from judge.problem import loader

# Stands for a first call whose compiling or autotuning never ends: it never returns.
SLOW_FIRST_CALL = """
import time
import triton
import triton.language as tl


@triton.jit
def add_kernel(a_ptr, b_ptr, c_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(c_ptr + offs, tl.load(a_ptr + offs, mask=mask) + tl.load(b_ptr + offs, mask=mask), mask=mask)


def solve(a, b, c, n):
    time.sleep(30)
    add_kernel[(triton.cdiv(n, 1024),)](a, b, c, n, BLOCK=1024)
"""


@pytest.mark.timeout(120)
def test_a_first_call_past_the_compile_limit_names_it() -> None:
    p = loader.resolve("vector-add")
    p = dataclasses.replace(
        p,
        tests=p.tests[:1],
        limits=dataclasses.replace(p.limits, compile_s=2.0, call_s=1.0, total_s=60.0),
    )
    res = grader.grade(p, SLOW_FIRST_CALL, "triton", device="cpu", mode="run")
    assert res.verdict == "time_limit_exceeded", res.message
    assert "compile limit (2 s) plus the call limit (1 s)" in res.message
