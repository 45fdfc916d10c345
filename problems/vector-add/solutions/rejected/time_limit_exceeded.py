# expect: time_limit_exceeded
# The kernel never finishes: the loop condition depends on the runtime value n (always
# >= 1) and is never changed, and the loop body stores, so the compiler cannot drop it.
import torch
import triton
import triton.language as tl


@triton.jit
def add_kernel(a_ptr, b_ptr, c_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    a = tl.load(a_ptr + offs, mask=mask)
    b = tl.load(b_ptr + offs, mask=mask)
    i = pid * 0  # a runtime int32, so the loop-carried type never changes
    while n > 0:
        tl.store(c_ptr + offs, a + b + i, mask=mask)
        i += 1


def solve(a: torch.Tensor, b: torch.Tensor, c: torch.Tensor, n: int):
    BLOCK = 1024
    add_kernel[(triton.cdiv(n, BLOCK),)](a, b, c, n, BLOCK=BLOCK)
