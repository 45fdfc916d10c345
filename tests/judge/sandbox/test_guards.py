"""Guard bands around shared buffers (guards.py, buffers.create): writes out of bounds are
found after the call and reported with the buffer, the side and the index."""

from __future__ import annotations

import dataclasses
import math
from pathlib import Path

import pytest
import torch

from judge import grader
from judge.problem import loader
from judge.sandbox import buffers, guards

UNMASKED_ADD = """
import triton
import triton.language as tl


@triton.jit
def add_kernel(a_ptr, b_ptr, c_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(c_ptr + offs, tl.load(a_ptr + offs) + tl.load(b_ptr + offs))


def solve(a, b, c, n):
    add_kernel[(triton.cdiv(n, 1024),)](a, b, c, n, BLOCK=1024)
"""

BEFORE_START = """
import triton
import triton.language as tl


@triton.jit
def add_kernel(a_ptr, b_ptr, c_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(a_ptr + offs, mask=mask) + tl.load(b_ptr + offs, mask=mask)
    tl.store(c_ptr + offs - 3, x, mask=mask & (offs >= 1))
    tl.store(c_ptr + offs, x, mask=mask)


def solve(a, b, c, n):
    add_kernel[(triton.cdiv(n, 1024),)](a, b, c, n, BLOCK=1024)
"""

# Right in bounds; past the end it copies what it reads past the end of a into c (as a
# LayerNorm whose overrunning rows get rstd = 0 writes beta's guard into y's): with one pattern
# for every guard the write left c's guard as it was and the kernel was accepted.
COPIES_A_GUARD = """
import triton
import triton.language as tl


@triton.jit
def add_kernel(a_ptr, b_ptr, c_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    inside = offs < n
    a = tl.load(a_ptr + offs, mask=offs < n + 64)
    b = tl.load(b_ptr + offs, mask=inside, other=0.0)
    tl.store(c_ptr + offs, a + b, mask=offs < n + 64)


def solve(a, b, c, n):
    add_kernel[(triton.cdiv(n, 1024),)](a, b, c, n, BLOCK=1024)
"""

# One program per block of 4 rows, no row mask: rows past the last one are written.
SOFTMAX_NO_ROW_MASK = """
import triton
import triton.language as tl


@triton.jit
def softmax_kernel(x_ptr, y_ptr, rows, cols, ROWS: tl.constexpr, BLOCK: tl.constexpr):
    r = tl.program_id(0) * ROWS + tl.arange(0, ROWS)[:, None]
    c = tl.arange(0, BLOCK)[None, :]
    m = c < cols
    x = tl.load(x_ptr + r * cols + c, mask=m & (r < rows), other=-float("inf"))
    x = x - tl.max(x, axis=1)[:, None]
    e = tl.exp(x)
    tl.store(y_ptr + r * cols + c, e / tl.sum(e, axis=1)[:, None], mask=m)


def solve(x, y, rows, cols):
    softmax_kernel[(triton.cdiv(rows, 4),)](
        x, y, rows, cols, ROWS=4, BLOCK=triton.next_power_of_2(cols)
    )
"""


def _guarded(buf: buffers.SharedBuffer, name: str, exprs: tuple[str, ...]) -> guards.Guarded:
    t = buf.tensor
    return guards.Guarded(
        name, "output", tuple(t.shape), exprs, t.element_size(), buf.front, buf.back
    )


def test_guard_sizes_cover_a_block_of_rows_and_stay_aligned() -> None:
    assert guards.guard_bytes((1,), 4) == guards.GUARD_MIN
    assert guards.guard_bytes((7, 5000), 4) == -(-256 * 5000 * 4 // 4096) * 4096
    assert guards.guard_bytes((1 << 30,), 4) == guards.GUARD_MAX
    # A 1-D buffer's guard is its own size (a block's overrun is smaller), not 256 "rows" of it.
    assert guards.guard_bytes((1_000_003,), 4) == -(-1_000_003 * 4 // 4096) * 4096
    assert guards.guard_bytes((100_000, 1), 4) == -(-100_000 * 4 // 4096) * 4096
    for shape in ((1,), (3, 1000), (1025,)):
        assert guards.guard_bytes(shape, 4) % guards.ALIGN == 0


def test_every_write_outside_the_buffer_is_found(tmp_path: Path) -> None:
    buf = buffers.create((3, 5), "float32", "cpu", tmp_path, "y")
    g = _guarded(buf, "y", ("rows", "cols"))
    pattern = guards.Pattern("cpu")
    pattern.fill([g])
    buf.tensor.fill_(1.0)  # writes inside the buffer are not the guards' business
    assert pattern.check([g]) is None
    whole = buf.back  # bytes 4-7 after y[2, 4] are y[rows, 1]
    whole[4:8] = torch.tensor([1.5], dtype=torch.float32).view(torch.uint8)
    msg = pattern.check([g])
    assert msg is not None and "y: wrote past the end, at y[rows, 1]" in msg, msg
    pattern.fill([g])  # a new pattern for the next call: the write is gone
    assert pattern.check([g]) is None
    buf.front[-1] ^= 0xFF
    msg = pattern.check([g])
    assert msg is not None and "y: wrote before the start, at y[-1, 4]" in msg, msg
    assert buf.tensor.data_ptr() % 16 == 0


def test_no_two_buffers_share_their_guard_bytes(tmp_path: Path) -> None:
    a = buffers.create((10,), "float32", "cpu", tmp_path, "a")
    c = buffers.create((10,), "float32", "cpu", tmp_path, "c")
    ga, gc = _guarded(a, "a", ("n",)), _guarded(c, "c", ("n",))
    pattern = guards.Pattern("cpu")
    pattern.fill([ga, gc])
    assert not torch.equal(a.back[:64], c.back[:64])
    c.back[:64] = a.back[:64]  # a copy of a's guard into c's is a write
    assert "c: wrote past the end" in (pattern.check([ga, gc]) or "")


def test_the_pattern_changes_with_every_call(tmp_path: Path) -> None:
    buf = buffers.create((10,), "float32", "cpu", tmp_path, "c")
    g = _guarded(buf, "c", ("n",))
    pattern = guards.Pattern("cpu")
    pattern.fill([g])
    first = buf.back.clone()
    pattern.fill([g])
    assert not torch.equal(first, buf.back)


@pytest.mark.timeout(120)
@pytest.mark.parametrize(
    ("problem", "source", "expected"),
    [
        ("vector-add", UNMASKED_ADD, "c: wrote past the end, at c[n]"),
        ("vector-add", BEFORE_START, "c: wrote before the start, at c[-1]"),
        ("softmax", SOFTMAX_NO_ROW_MASK, "y: wrote past the end, at y[rows"),
        ("vector-add", COPIES_A_GUARD, "c: wrote past the end, at c[n]"),
    ],
    ids=["no-tail-mask", "before-start", "no-row-mask", "copies-an-input-guard"],
)
def test_out_of_bounds_writes_are_wrong_answers(problem: str, source: str, expected: str) -> None:
    p = loader.resolve(problem)
    small = tuple(c for c in p.tests if c.interpreter and math.prod(c.params.values()) < 50_000)
    p = dataclasses.replace(p, tests=small[:4])  # the interpreter is slow on the large cases
    res = grader.grade(p, source, "triton", device="cpu", mode="run")
    assert res.verdict == "wrong_answer", res.message
    assert expected in res.message, res.message
    assert "did you mask" in res.message or "below 0" in res.message
