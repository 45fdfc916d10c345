# expect: wrong_answer
# expect-message: values out of tolerance
# Bug: the gate and the value swapped: silu(up) · gate instead of silu(gate) · up. Both
# inputs have the same shape and type, so nothing but the numbers can tell; a model with
# this kernel still runs and quietly computes something else. The fix: the activation goes on
# gate (the output of the gate projection), the linear factor is up.
import torch
import triton
import triton.language as tl


@triton.jit
def swiglu_kernel(gate_ptr, up_ptr, y_ptr, total, BLOCK: tl.constexpr):
    offs = tl.program_id(0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < total
    g = tl.load(gate_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    u = tl.load(up_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    tl.store(y_ptr + offs, (u * tl.sigmoid(u) * g).to(tl.bfloat16), mask=mask)  # BUG: swapped


def solve(gate: torch.Tensor, up: torch.Tensor, y: torch.Tensor, m: int, n: int):
    total = m * n
    swiglu_kernel[(triton.cdiv(total, 1024),)](gate, up, y, total, BLOCK=1024)
