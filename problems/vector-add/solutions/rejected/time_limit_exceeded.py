# expect: time_limit_exceeded
# The kernel waits for a flag that nothing ever sets. The load is volatile, so the flag is
# re-read on every iteration and the compiler cannot hoist it or drop the loop. (A loop on
# an int argument would not do: Triton specializes an argument equal to 1 into a constant.)
import torch
import triton
import triton.language as tl


@triton.jit
def add_kernel(a_ptr, b_ptr, c_ptr, flag_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    while tl.load(flag_ptr, volatile=True) == 0:
        pass
    tl.store(c_ptr + offs, tl.load(a_ptr + offs, mask=mask) + tl.load(b_ptr + offs, mask=mask), mask=mask)


def solve(a: torch.Tensor, b: torch.Tensor, c: torch.Tensor, n: int):
    BLOCK = 1024
    flag = torch.zeros(1, dtype=torch.int32, device=a.device)  # scratch: never set to 1
    add_kernel[(triton.cdiv(n, BLOCK),)](a, b, c, flag, n, BLOCK=BLOCK)
