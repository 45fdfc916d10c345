"""Causal softmax at memory speed: read only what the mask keeps, write every output once.

- Row i keeps columns 0..i, so the load is masked on ``cols <= i``: masked-off lanes issue no
  memory traffic, and the kernel reads the lower triangle of x (half of it) instead of all of
  it. The outputs above the diagonal are zeros computed in registers and stored with the row.
  Bytes per head: 2·s(s+1)/2 read + 2·s² written, 3/4 of what reading the whole row costs.
- exp(scale·x - max) is computed as exp2(x·c - max(x·c)) with c = scale·log2(e) folded once:
  one multiply and one exp2 per element.
- Short rows waste most of a program, so ROWS rows share one when s is small (a 2-D block
  [ROWS, BLOCK]); at the benchmark's s = 2048 a row is 4 KB and takes a program of 8 warps.
- ``eviction_policy``: x is read once and y written once; neither should push the other out
  of L2 for nothing."""

import torch
import triton
import triton.language as tl


@triton.jit
def causal_softmax_kernel(
    x_ptr, scale_ptr, y_ptr, n_rows, s, ROWS: tl.constexpr, BLOCK: tl.constexpr
):
    rows = tl.program_id(0).to(tl.int64) * ROWS + tl.arange(0, ROWS)
    cols = tl.arange(0, BLOCK)
    i = rows % s  # query position of each row
    row_ok = rows < n_rows
    offs = rows[:, None] * s + cols[None, :]
    keep = row_ok[:, None] & (cols[None, :] <= i[:, None])
    x = tl.load(x_ptr + offs, mask=keep, other=float("-inf"), eviction_policy="evict_first")
    c = tl.load(scale_ptr) * 1.4426950408889634  # scale · log2(e)
    z = x.to(tl.float32) * c
    z = z - tl.max(z, axis=1)[:, None]
    p = tl.exp2(z)  # exp2(-inf) = 0 above the diagonal
    y = p * (1.0 / tl.sum(p, axis=1))[:, None]
    store = row_ok[:, None] & (cols[None, :] < s)
    tl.store(y_ptr + offs, y.to(tl.float16), mask=store, eviction_policy="evict_first")


def solve(x: torch.Tensor, scale: torch.Tensor, y: torch.Tensor, b: int, h: int, s: int):
    n_rows = b * h * s
    block = triton.next_power_of_2(s)
    rows = max(1, min(16, 1024 // block))  # at least ~1024 columns of work per program
    warps = 8 if block >= 2048 else 4
    grid = (triton.cdiv(n_rows, rows),)
    causal_softmax_kernel[grid](x, scale, y, n_rows, s, ROWS=rows, BLOCK=block, num_warps=warps)
