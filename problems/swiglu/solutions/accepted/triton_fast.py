"""SwiGLU gating at memory speed.

The work is 6 bytes per element and a handful of FLOPs: what matters is keeping enough bytes
in flight. Each program handles 8192 elements (8 warps, 32 per thread: four 16-byte loads of
gate and four of up issued before any math), so a 235M-element benchmark makes ~29k
programs, a few waves over 132 SMs. Loads and the store carry evict_first: nothing is read
twice, so nothing should stay in L2. The sigmoid is 1 / (1 + exp2(-g·log2 e)): exp2 maps to
one MUFU instruction, and the division by the fast reciprocal is well inside the tolerance.
"""

import torch
import triton
import triton.language as tl

LOG2E = tl.constexpr(1.4426950408889634)


@triton.jit
def swiglu_kernel(gate_ptr, up_ptr, y_ptr, total, BLOCK: tl.constexpr):
    offs = tl.program_id(0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < total
    g = tl.load(gate_ptr + offs, mask=mask, other=0.0, eviction_policy="evict_first").to(tl.float32)
    u = tl.load(up_ptr + offs, mask=mask, other=0.0, eviction_policy="evict_first").to(tl.float32)
    silu = g / (1.0 + tl.exp2(-g * LOG2E))
    tl.store(y_ptr + offs, (silu * u).to(tl.bfloat16), mask=mask, eviction_policy="evict_first")


def solve(gate: torch.Tensor, up: torch.Tensor, y: torch.Tensor, m: int, n: int):
    total = m * n
    BLOCK = 8192
    swiglu_kernel[(triton.cdiv(total, BLOCK),)](gate, up, y, total, BLOCK=BLOCK, num_warps=8)
