# expect: wrong_answer
# expect-message: tails: y:
# Bug: a precision mistake, of range. The kernel computes the sigmoid's exponential in
# float16 ("half precision is enough for an activation"). float16's largest finite value is
# 65504 = e^11.09, so for gate < -11.1 exp(-gate) is inf, 1 / (1 + inf) = 0, and y = 0
# where the answer is small but not zero (silu(-20) = -4.1e-8; bf16 holds numbers down to
# 1e-38). Every such output is 100% off. The fix: the exponential in float32.
import torch
import triton
import triton.language as tl


@triton.jit
def swiglu_kernel(gate_ptr, up_ptr, y_ptr, total, BLOCK: tl.constexpr):
    offs = tl.program_id(0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < total
    g = tl.load(gate_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    u = tl.load(up_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    e = tl.exp((-g).to(tl.float16).to(tl.float32)).to(tl.float16)  # BUG: inf past 65504
    silu = g / (1.0 + e.to(tl.float32))
    tl.store(y_ptr + offs, (silu * u).to(tl.bfloat16), mask=mask)


def solve(gate: torch.Tensor, up: torch.Tensor, y: torch.Tensor, m: int, n: int):
    total = m * n
    swiglu_kernel[(triton.cdiv(total, 1024),)](gate, up, y, total, BLOCK=1024)
