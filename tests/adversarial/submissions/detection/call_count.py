# Threat class 6 (detection): honest for the first 3 calls (a judge might check only the
# first few), then write only the even-indexed half of the outputs. Every call's output is
# checked, test or timed.
# expect: wrong_answer
import triton
import triton.language as tl

_calls = [0]


@triton.jit
def add_kernel(a_ptr, b_ptr, c_ptr, n, STEP: tl.constexpr, BLOCK: tl.constexpr):
    offs = (tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)) * STEP
    mask = offs < n
    tl.store(c_ptr + offs, tl.load(a_ptr + offs, mask=mask) + tl.load(b_ptr + offs, mask=mask), mask=mask)


def solve(a, b, c, n):
    _calls[0] += 1
    step = 1 if _calls[0] <= 3 else 2
    block = 1024 if a.is_cuda else 1 << 16
    add_kernel[(triton.cdiv(n, block),)](a, b, c, n, STEP=step, BLOCK=block)
