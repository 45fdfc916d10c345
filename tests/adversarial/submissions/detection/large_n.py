# Threat class 6 (detection): honest on small inputs (what a correctness test looks like),
# skip the second half of the work when n >= 2^20 (what a benchmark looks like). The judge
# checks every output, tests include large sizes, and every timed run is checked too.
# expect: wrong_answer
import triton
import triton.language as tl


@triton.jit
def add_kernel(a_ptr, b_ptr, c_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(c_ptr + offs, tl.load(a_ptr + offs, mask=mask) + tl.load(b_ptr + offs, mask=mask), mask=mask)


def solve(a, b, c, n):
    work = n // 2 if n >= (1 << 20) else n  # the cheat
    block = 1024 if a.is_cuda else 1 << 16
    add_kernel[(triton.cdiv(work, block),)](a, b, c, work, BLOCK=block)
