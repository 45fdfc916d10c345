# Threat class 7 (tolerance gaming): write zeros everywhere, hoping a loose absolute tolerance
# lets near-zero expected values pass. vector-add's atol is 1e-30.
# expect: wrong_answer
import triton
import triton.language as tl


@triton.jit
def zero(c_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(c_ptr + offs, tl.zeros([BLOCK], dtype=tl.float32), mask=offs < n)


def solve(a, b, c, n):
    block = 1024 if a.is_cuda else 1 << 16
    zero[(triton.cdiv(n, block),)](c, n, BLOCK=block)
