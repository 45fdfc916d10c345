# Threat class 7 (tolerance gaming): compute only the even elements and fill the odd ones
# with a cheap approximation (a alone), hoping a norm-wise or sampled check lets it through.
# The check is element-wise over every output.
# expect: wrong_answer
import triton
import triton.language as tl


@triton.jit
def half_add(a_ptr, b_ptr, c_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    a = tl.load(a_ptr + offs, mask=mask)
    even = (offs % 2) == 0
    b = tl.load(b_ptr + offs, mask=mask & even, other=0.0)
    tl.store(c_ptr + offs, a + b, mask=mask)


def solve(a, b, c, n):
    block = 1024 if a.is_cuda else 1 << 16
    half_add[(triton.cdiv(n, block),)](a, b, c, n, BLOCK=block)
