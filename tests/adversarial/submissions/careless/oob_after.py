# Threat class 12 (careless memory bug): a vector add with no tail mask. Every program stores a
# whole block of 1024, so for n not a multiple of 1024 it writes past the end of c, into memory
# no output check looks at; the values inside c are right. The guard bands (guards.py) must
# report it: wrong_answer, "c: wrote past the end, at c[n]".
# expect: wrong_answer (c: wrote past the end)
import triton
import triton.language as tl


@triton.jit
def add_kernel(a_ptr, b_ptr, c_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(c_ptr + offs, tl.load(a_ptr + offs) + tl.load(b_ptr + offs))


def solve(a, b, c, n):
    add_kernel[(triton.cdiv(n, 1024),)](a, b, c, n, BLOCK=1024)
