# Threat class 5 (input tampering): zero a, b and c, so that "c == a + b" holds in the buffers
# after the call. The referee compares with expected values from its private copy.
# expect: wrong_answer
import triton
import triton.language as tl


@triton.jit
def zero3(a_ptr, b_ptr, c_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    z = tl.zeros([BLOCK], dtype=tl.float32)
    tl.store(a_ptr + offs, z, mask=mask)
    tl.store(b_ptr + offs, z, mask=mask)
    tl.store(c_ptr + offs, z, mask=mask)


def solve(a, b, c, n):
    block = 1024 if a.is_cuda else 1 << 16
    zero3[(triton.cdiv(n, block),)](a, b, c, n, BLOCK=block)
