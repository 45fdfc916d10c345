# expect: wrong_answer
# expect-message: out: wrote past the end
# Bug: out[0] is zeroed with a general "fill a buffer" helper copied from a vector-add
# kernel, with its tail mask left out. The helper stores a whole block of 1024 values, and
# out holds one float: the other 1023 zeros land in the memory after out (on a GPU, someone
# else's data). The sum itself is right (its loads are masked), so only that write is
# wrong, for every n. The fix: tl.store(ptr + offs, ..., mask=offs < n), or just
# tl.store(out_ptr, 0.0).
import torch
import triton
import triton.language as tl


@triton.jit
def fill_kernel(ptr, value, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(ptr + offs, tl.full([BLOCK], value, dtype=tl.float32))  # BUG: no mask=offs < n


@triton.jit
def sum_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n, other=0.0)
    tl.atomic_add(out_ptr, tl.sum(x, axis=0))


def solve(x: torch.Tensor, out: torch.Tensor, n: int):
    BLOCK = 1024
    fill_kernel[(triton.cdiv(1, BLOCK),)](out, 0.0, 1, BLOCK=BLOCK)  # out has 1 element
    sum_kernel[(triton.cdiv(n, BLOCK),)](x, out, n, BLOCK=BLOCK)
