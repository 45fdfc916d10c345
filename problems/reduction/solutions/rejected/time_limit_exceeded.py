# expect: time_limit_exceeded
# Waits for a flag that nothing ever sets. The load is volatile, so it is re-read on every
# iteration and the compiler cannot drop the loop.
import torch
import triton
import triton.language as tl


@triton.jit
def sum_kernel(x_ptr, out_ptr, flag_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n, other=0.0)
    while tl.load(flag_ptr, volatile=True) == 0:
        pass
    tl.atomic_add(out_ptr, tl.sum(x, axis=0))


def solve(x: torch.Tensor, out: torch.Tensor, n: int):
    BLOCK = 1024
    flag = torch.zeros(1, dtype=torch.int32, device=x.device)
    sum_kernel[(triton.cdiv(n, BLOCK),)](x, out, flag, n, BLOCK=BLOCK)
