# expect: wrong_answer
# expect-message: y: wrote past the end
# Bug: the final store has no column mask. The loads are masked (with -inf padding, as a
# softmax needs), but each row's last chunk of BLOCK = 1024 columns is stored whole: the
# padding lanes write zeros past the end of the row, into the start of the next row (which
# that row's program may or may not overwrite later: on a GPU the order is not defined),
# and the last row writes past the end of y. Right only when cols is a multiple of 1024.
# The fix: mask=offs < cols on the store too.
import torch
import triton
import triton.language as tl


@triton.jit
def softmax_kernel(x_ptr, y_ptr, cols, BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    x_row = x_ptr + row * cols
    y_row = y_ptr + row * cols

    m = tl.full([BLOCK], float("-inf"), dtype=tl.float32)
    for start in range(0, cols, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        m = tl.maximum(m, tl.load(x_row + offs, mask=offs < cols, other=float("-inf")))
    row_max = tl.max(m, axis=0)

    s = tl.zeros([BLOCK], dtype=tl.float32)
    for start in range(0, cols, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        s += tl.exp(tl.load(x_row + offs, mask=offs < cols, other=float("-inf")) - row_max)
    inv_sum = 1.0 / tl.sum(s, axis=0)

    for start in range(0, cols, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        x = tl.load(x_row + offs, mask=offs < cols, other=float("-inf"))
        tl.store(y_row + offs, tl.exp(x - row_max) * inv_sum)  # BUG: no mask=offs < cols


def solve(x: torch.Tensor, y: torch.Tensor, rows: int, cols: int):
    softmax_kernel[(rows,)](x, y, cols, BLOCK=1024)
