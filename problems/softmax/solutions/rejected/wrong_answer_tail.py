# expect: wrong_answer
# Bug: loops over cols // BLOCK full chunks and forgets the last partial chunk, so the tail
# of each row is neither counted in the max and sum nor written. Right only when cols is a
# multiple of BLOCK.
import torch
import triton
import triton.language as tl


@triton.jit
def softmax_kernel(x_ptr, y_ptr, cols, BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    x_row = x_ptr + row * cols
    y_row = y_ptr + row * cols
    num_chunks = cols // BLOCK
    m = tl.full([BLOCK], float("-inf"), dtype=tl.float32)
    for i in range(0, num_chunks):
        offs = i * BLOCK + tl.arange(0, BLOCK)
        m = tl.maximum(m, tl.load(x_row + offs))
    row_max = tl.max(m, axis=0)
    s = tl.zeros([BLOCK], dtype=tl.float32)
    for i in range(0, num_chunks):
        offs = i * BLOCK + tl.arange(0, BLOCK)
        s += tl.exp(tl.load(x_row + offs) - row_max)
    inv_sum = 1.0 / tl.sum(s, axis=0)
    for i in range(0, num_chunks):
        offs = i * BLOCK + tl.arange(0, BLOCK)
        tl.store(y_row + offs, tl.exp(tl.load(x_row + offs) - row_max) * inv_sum)


def solve(x: torch.Tensor, y: torch.Tensor, rows: int, cols: int):
    softmax_kernel[(rows,)](x, y, cols, BLOCK=1024)
