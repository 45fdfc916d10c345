"""Separable blur in one kernel: the horizontal pass goes through a small ring of rows that
stays on chip, never through a whole scratch image in memory.

Each program owns a strip of BN columns and a band of ROWS rows of y. It walks down the band's
input rows, from R above it to R below it (clamped into the image). For each input row it
computes the horizontal pass over its BN columns, one BN x RP block of x (RP the next power
of two >= r; column cols + b - R for tap b, clamped at the left and right edges) weighted by
g and summed along the taps, and stores that row into slot t % r of its own ring of RP rows
in a scratch buffer (zeroed: the rows past r stay 0). Once the ring holds the r rows an
output row needs, the vertical pass is one weighted sum of the ring: slot s holds the row of
tap (s - top) mod r. The ring is written and read by the same program a few microseconds
apart, so it lives in L1 and L2: x is read (with a halo of 2R rows per band) and y written,
8 bytes per pixel instead of the two-pass 16.

The threads of a program read ring rows that other threads wrote: a barrier
(tl.debug_barrier, __syncthreads) after each store, and before a slot is written again.
"""

import torch
import triton
import triton.language as tl


@triton.jit
def blur_band(x_ptr, g_ptr, y_ptr, ring_ptr, h, w, r, strips, ROWS: tl.constexpr, BN: tl.constexpr, RP: tl.constexpr):
    pid = tl.program_id(0)
    cols = (pid % strips) * BN + tl.arange(0, BN)
    live = cols < w
    first_row = (pid // strips) * ROWS
    radius = r // 2
    ring = ring_ptr + pid * RP * BN  # this program's ring: RP rows of BN; rows r .. RP - 1 stay 0
    slots = tl.arange(0, RP)
    g_row = tl.load(g_ptr + slots, mask=slots < r, other=0.0)  # the taps, 0 past r
    rows_out = tl.minimum(ROWS, h - first_row)
    for t in range(0, rows_out + 2 * radius):
        i = tl.minimum(tl.maximum(first_row - radius + t, 0), h - 1)  # input row, clamped
        # the horizontal pass: a BN x RP block of x, column cols + b - R for tap b, clamped
        # into the row (so every load is inside x); the taps past r weigh 0
        j = tl.minimum(tl.maximum(cols[:, None] + slots[None, :] - radius, 0), w - 1)
        acc = tl.sum(tl.load(x_ptr + i * w + j) * g_row[None, :], axis=1)
        tl.store(ring + (t % r) * BN + tl.arange(0, BN), acc)
        tl.debug_barrier()
        if t >= 2 * radius:
            # output row first_row + t - 2R needs the walk's rows t - 2R .. t: tap a is in slot
            # (t - 2R + a) % r; the zero rows past r take any weight
            top = (t - 2 * radius) % r
            wts = tl.load(g_ptr + (slots + r - top) % r)
            block = tl.load(ring + slots[:, None] * BN + tl.arange(0, BN)[None, :])
            o = first_row + t - 2 * radius
            tl.store(y_ptr + o * w + cols, tl.sum(block * wts[:, None], axis=0), mask=live)
        tl.debug_barrier()


def solve(x: torch.Tensor, g: torch.Tensor, y: torch.Tensor, h: int, w: int, r: int):
    ROWS, BN = 128, 64
    RP = triton.next_power_of_2(r)
    strips = triton.cdiv(w, BN)
    programs = strips * triton.cdiv(h, ROWS)
    ring = torch.zeros(programs * RP * BN, dtype=torch.float32, device=y.device)
    blur_band[(programs,)](x, g, y, ring, h, w, r, strips, ROWS=ROWS, BN=BN, RP=RP, num_warps=4)
