"""Separable blur in Numba CUDA: two kernels through a scratch image, a 16 x 16 block of
threads per tile, a thread per pixel. Each tap's index is clamped into the image (the
clamp-to-edge border)."""

from numba import cuda, float32

TILE = 16


@cuda.jit
def blur_rows(x, g, t, h, w, r):
    j, i = cuda.grid(2)
    if i < h and j < w:
        radius = r // 2
        acc = float32(0.0)
        for b in range(r):
            acc += g[b] * x[i, min(max(j + b - radius, 0), w - 1)]
        t[i, j] = acc


@cuda.jit
def blur_cols(t, g, y, h, w, r):
    j, i = cuda.grid(2)
    if i < h and j < w:
        radius = r // 2
        acc = float32(0.0)
        for a in range(r):
            acc += g[a] * t[min(max(i + a - radius, 0), h - 1), j]
        y[i, j] = acc


def solve(x, g, y, h, w, r):
    grid = ((w + TILE - 1) // TILE, (h + TILE - 1) // TILE)
    t = cuda.device_array_like(y)
    blur_rows[grid, (TILE, TILE)](x, g, t, h, w, r)
    blur_cols[grid, (TILE, TILE)](t, g, y, h, w, r)
