# expect: wrong_answer
# expect-message: y: wrote past the end
# Bug: no tail mask on the store. The loads are masked, but when m·n is not a multiple of
# BLOCK the last program stores a whole block, past the end of y (on a GPU, into a
# neighbour's data). Every value inside y is right. The fix: mask=offs < total on the store.
import torch
import triton
import triton.language as tl


@triton.jit
def swiglu_kernel(gate_ptr, up_ptr, y_ptr, total, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < total
    g = tl.load(gate_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    u = tl.load(up_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    tl.store(y_ptr + offs, (g * tl.sigmoid(g) * u).to(tl.bfloat16))  # BUG: no mask


def solve(gate: torch.Tensor, up: torch.Tensor, y: torch.Tensor, m: int, n: int):
    total = m * n
    swiglu_kernel[(triton.cdiv(total, 1024),)](gate, up, y, total, BLOCK=1024)
