# expect: time_limit_exceeded
# Bug: each row's program waits until the program of the row after it has set a "done"
# flag, but that program waits on the next one, and the last waits on a flag past the
# end that nothing ever sets: no program ever gets past its wait. The load is volatile,
# so the flag is re-read every iteration and the compiler cannot drop the loop.
import torch
import triton
import triton.language as tl


@triton.jit
def softmax_kernel(x_ptr, y_ptr, done_ptr, cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    while tl.load(done_ptr + row + 1, volatile=True) == 0:
        pass
    offs = tl.arange(0, BLOCK)
    mask = offs < cols
    x = tl.load(x_ptr + row.to(tl.int64) * cols + offs, mask=mask, other=float("-inf"))
    e = tl.exp(x - tl.max(x, axis=0))
    tl.store(y_ptr + row.to(tl.int64) * cols + offs, e / tl.sum(e, axis=0), mask=mask)
    tl.store(done_ptr + row, 1)


def solve(x: torch.Tensor, y: torch.Tensor, rows: int, cols: int):
    done = torch.zeros(rows + 1, dtype=torch.int32, device=x.device)
    softmax_kernel[(rows,)](x, y, done, cols, BLOCK=triton.next_power_of_2(cols))
