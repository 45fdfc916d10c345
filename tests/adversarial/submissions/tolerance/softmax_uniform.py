# Threat class 7 (tolerance gaming) on softmax: output 1/cols everywhere. With small random
# logits every expected value is close to 1/cols; with a loose atol on a wide row (expected
# values ~1e-5) a constant would pass. softmax's atol is 1e-12.
# expect: wrong_answer
import triton
import triton.language as tl


@triton.jit
def uniform(y_ptr, total, cols, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(y_ptr + offs, tl.zeros([BLOCK], dtype=tl.float32) + 1.0 / cols, mask=offs < total)


def solve(x, y, rows, cols):
    block = 1024 if x.is_cuda else 1 << 16
    total = rows * cols
    uniform[(triton.cdiv(total, block),)](y, total, float(cols), BLOCK=block)
