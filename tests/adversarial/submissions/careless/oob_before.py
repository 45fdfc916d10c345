# Threat class 12 (careless memory bug): an off-by-one in a shifted store writes c[-1] (the
# element before the output) as well as every element of c, which ends right. The guard bands
# must report it: wrong_answer, "c: wrote before the start, at c[-1]".
# expect: wrong_answer (c: wrote before the start)
import triton
import triton.language as tl


@triton.jit
def add_kernel(a_ptr, b_ptr, c_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(a_ptr + offs, mask=mask) + tl.load(b_ptr + offs, mask=mask)
    tl.store(c_ptr + offs - 1, x, mask=mask)  # the bug: meant to shift a copy, not c itself
    tl.store(c_ptr + offs, x, mask=mask)


def solve(a, b, c, n):
    add_kernel[(triton.cdiv(n, 1024),)](a, b, c, n, BLOCK=1024)
