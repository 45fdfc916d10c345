# expect: wrong_answer
# Bug: dx = y·dy, the diagonal of softmax's Jacobian only: the term -y·s, s = sum(dy·y),
# which comes from every output depending on every input through the normalisation, is
# forgotten. Off by y·|s|: exactly dy (instead of 0) in a one-column row, ~1000·y on rows whose
# dy share a large offset.
import torch
import triton
import triton.language as tl


@triton.jit
def softmax_bwd_kernel(y_ptr, dy_ptr, dx_ptr, cols, BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    for start in range(0, cols, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        mask = offs < cols
        y = tl.load(y_ptr + row * cols + offs, mask=mask, other=0.0)
        dy = tl.load(dy_ptr + row * cols + offs, mask=mask, other=0.0)
        tl.store(dx_ptr + row * cols + offs, y * dy, mask=mask)  # BUG: y * (dy - s)


def solve(y: torch.Tensor, dy: torch.Tensor, dx: torch.Tensor, rows: int, cols: int):
    softmax_bwd_kernel[(rows,)](y, dy, dx, cols, BLOCK=1024)
