"""RMSNorm with residual, the unfused way: one kernel adds x + res and writes res_out, a
second reads res_out back, sums its squares and writes y. Each is one program per row, in
chunks of BLOCK columns, statistics in float32. Correct for any width; the sum makes a round
trip through memory (10 bytes per element instead of 8), and the norm reads its row twice."""

import torch
import triton
import triton.language as tl


@triton.jit
def residual_add(x_ptr, res_ptr, out_ptr, n, BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)  # row * n can exceed 2^31 on big inputs
    for start in range(0, n, BLOCK):
        offs = row * n + start + tl.arange(0, BLOCK)
        mask = start + tl.arange(0, BLOCK) < n
        x = tl.load(x_ptr + offs, mask=mask, other=0.0).to(tl.float32)
        r = tl.load(res_ptr + offs, mask=mask, other=0.0).to(tl.float32)
        tl.store(out_ptr + offs, (x + r).to(tl.bfloat16), mask=mask)


@triton.jit
def rmsnorm(h_ptr, w_ptr, y_ptr, n, eps, BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    h_row = h_ptr + row * n
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for start in range(0, n, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        h = tl.load(h_row + offs, mask=offs < n, other=0.0).to(tl.float32)
        acc += h * h
    rstd = 1.0 / tl.sqrt(tl.sum(acc, axis=0) / n + eps)
    for start in range(0, n, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        mask = offs < n
        h = tl.load(h_row + offs, mask=mask, other=0.0).to(tl.float32)
        w = tl.load(w_ptr + offs, mask=mask, other=0.0).to(tl.float32)
        tl.store(y_ptr + row * n + offs, (h * rstd * w).to(tl.bfloat16), mask=mask)


def solve(x: torch.Tensor, res: torch.Tensor, w: torch.Tensor, y: torch.Tensor, res_out: torch.Tensor, m: int, n: int):
    residual_add[(m,)](x, res, res_out, n, BLOCK=1024)
    rmsnorm[(m,)](res_out, w, y, n, 1e-6, BLOCK=1024)
