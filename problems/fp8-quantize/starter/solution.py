import torch
import triton
import triton.language as tl


@triton.jit
def solve_kernel(x_ptr, q_ptr, scales_ptr, tokens, hidden, BLOCK: tl.constexpr):
    # TODO: program i handles elements i * BLOCK ... of q (mask out those past its end):
    # load the inputs at those offsets, compute, and store the result into q_ptr.
    pass


# input x [tokens, hidden] bfloat16; outputs q [tokens, hidden] float8_e4m3fn, scales [tokens] float32.
# Contiguous tensors on the GPU; write the result into the output and return nothing.
def solve(x: torch.Tensor, q: torch.Tensor, scales: torch.Tensor, tokens: int, hidden: int):
    BLOCK = 1024
    grid = (triton.cdiv(q.numel(), BLOCK),)
    solve_kernel[grid](x, q, scales, tokens, hidden, BLOCK=BLOCK)
