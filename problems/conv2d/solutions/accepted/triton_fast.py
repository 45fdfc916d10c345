"""2-D convolution with each input row loaded r times instead of r^2 times.

The simple kernel loads a shifted tile for every tap: r^2 loads per output, and at r = 7 the
49 loads per output, even from L1, take longer than reading x from memory once. Here a
program owns a strip of BW columns and ROWS output rows and walks down the input rows of
that strip (with r//2 rows of halo above and below). Input row t contributes to the r
output rows o = t - r//2 ... t + r//2, through filter row a = t - o + r//2. So for each
column shift b the program loads row t shifted by b - r//2 once, [BW], and adds it into all
r pending output rows at once, an outer product with the filter column f[a, b]:

    acc[slot(o), :] += f[t - o + r//2, b] * x[t, cols + b - r//2]      for every pending o

acc is a ring of RP >= r rows of accumulators (slot(o) = o mod RP, counted from the strip's
first row). After input row t, output row t - r//2 has seen all its r input rows: it is
taken out of the ring (a masked sum over the slots), stored, and its slot cleared for the
output row that enters next. That is r loads and about r·RP multiply-adds per output instead
of r^2 loads, and the loads are contiguous rows.
"""

import torch
import triton
import triton.language as tl


@triton.jit
def conv2d_rows(x_ptr, f_ptr, y_ptr, h, w, r, ROWS: tl.constexpr, BW: tl.constexpr, RP: tl.constexpr):
    cols = tl.program_id(0) * BW + tl.arange(0, BW)
    o0 = tl.program_id(1) * ROWS
    o_end = tl.minimum(o0 + ROWS, h)
    half = r // 2
    slots = tl.arange(0, RP)
    acc = tl.zeros([RP, BW], dtype=tl.float32)
    for t in range(o0 - half, o_end + half):
        row_ok = (t >= 0) & (t < h)
        # Slot of the oldest pending output row, o = t - half; slot(o + d) = (first + d) % RP.
        first = (t - half - o0 + 2 * half) % RP  # >= 0: t - half >= o0 - 2·half
        d = (slots - first + RP) % RP  # output row t - half + d sits in slot `slots`
        a = 2 * half - d  # its filter row for input row t
        f_ok = a >= 0
        for b in range(0, r):
            src = cols + (b - half)
            xv = tl.load(x_ptr + t * w + src, mask=row_ok & (src >= 0) & (src < w), other=0.0)
            fv = tl.load(f_ptr + a * r + b, mask=f_ok, other=0.0)
            acc += fv[:, None] * xv[None, :]
        done = slots[:, None] == first  # output row t - half is complete
        o = t - half
        out = tl.sum(tl.where(done, acc, 0.0), axis=0)
        # Rows above the strip's first (o < o0) are halo: not stored. The row test is made a
        # vector (cols * 0 + o) before it joins the mask.
        tl.store(y_ptr + o * w + cols, out, mask=(cols < w) & (cols * 0 + o >= o0))
        acc = tl.where(done, 0.0, acc)


def solve(x: torch.Tensor, f: torch.Tensor, y: torch.Tensor, h: int, w: int, r: int):
    RP = triton.next_power_of_2(r)
    BW = 256 if RP <= 8 else 128
    ROWS = 64
    grid = (triton.cdiv(w, BW), triton.cdiv(h, ROWS))
    conv2d_rows[grid](x, f, y, h, w, r, ROWS=ROWS, BW=BW, RP=RP, num_warps=4)
