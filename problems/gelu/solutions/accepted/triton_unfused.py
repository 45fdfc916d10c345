"""GELU (tanh approximation) written the way the formula reads, one kernel per step.

Correct, and the editorial's example of what not to do: like calling torch operators one by
one (x.pow(3), mul, add, tanh, add, mul), each step is its own kernel that reads its inputs
from memory and writes its result back. Five kernels move 48 bytes per element where one
fused kernel moves 8, so this takes about six times as long on a GPU.
"""

import torch
import triton
import triton.language as tl


@triton.jit
def cube_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):  # out = x^3
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    tl.store(out_ptr + offs, x * x * x, mask=mask)


@triton.jit
def inner_kernel(x_ptr, c_ptr, out_ptr, n, BLOCK: tl.constexpr):  # out = sqrt(2/pi)(x + 0.044715 c)
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    c = tl.load(c_ptr + offs, mask=mask)
    tl.store(out_ptr + offs, 0.7978845608028654 * (x + 0.044715 * c), mask=mask)


@triton.jit
def tanh_kernel(u_ptr, out_ptr, n, BLOCK: tl.constexpr):  # out = tanh(u) = 2 sigmoid(2u) - 1
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    u = tl.load(u_ptr + offs, mask=mask)
    tl.store(out_ptr + offs, 2.0 * tl.sigmoid(2.0 * u) - 1.0, mask=mask)


@triton.jit
def add_one_kernel(t_ptr, out_ptr, n, BLOCK: tl.constexpr):  # out = 1 + t
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(out_ptr + offs, 1.0 + tl.load(t_ptr + offs, mask=mask), mask=mask)


@triton.jit
def half_x_times_kernel(x_ptr, s_ptr, out_ptr, n, BLOCK: tl.constexpr):  # out = 0.5 x s
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    s = tl.load(s_ptr + offs, mask=mask)
    tl.store(out_ptr + offs, 0.5 * x * s, mask=mask)


def solve(x: torch.Tensor, y: torch.Tensor, n: int):
    BLOCK = 1024
    grid = (triton.cdiv(n, BLOCK),)
    a = torch.empty_like(x)  # scratch for the intermediate results: allowed
    b = torch.empty_like(x)
    cube_kernel[grid](x, a, n, BLOCK=BLOCK)
    inner_kernel[grid](x, a, b, n, BLOCK=BLOCK)
    tanh_kernel[grid](b, a, n, BLOCK=BLOCK)
    add_one_kernel[grid](a, b, n, BLOCK=BLOCK)
    half_x_times_kernel[grid](x, b, y, n, BLOCK=BLOCK)
