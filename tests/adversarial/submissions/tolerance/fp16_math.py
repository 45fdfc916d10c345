# Threat class 7 (tolerance gaming): compute in float16 (half the bytes a real low-precision
# kernel would move), hoping the tolerance is loose. The wide-range test overflows float16.
# expect: wrong_answer
import triton
import triton.language as tl


@triton.jit
def add_fp16(a_ptr, b_ptr, c_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    a = tl.load(a_ptr + offs, mask=mask).to(tl.float16)
    b = tl.load(b_ptr + offs, mask=mask).to(tl.float16)
    tl.store(c_ptr + offs, (a + b).to(tl.float32), mask=mask)


def solve(a, b, c, n):
    block = 1024 if a.is_cuda else 1 << 16
    add_fp16[(triton.cdiv(n, block),)](a, b, c, n, BLOCK=block)
