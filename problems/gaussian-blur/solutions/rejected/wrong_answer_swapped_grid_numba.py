# expect: wrong_answer
# Bug: cuda.grid(2) returns (x, y), the column first, but the kernel unpacks it as (row,
# column) while the grid is laid out over (columns, rows). On a square image of whole tiles
# that only transposes the work; on any other, the threads cover the wrong rectangle: pixels
# outside it are never written, and the scratch image is read where it was not.
from numba import cuda, float32

TILE = 16


@cuda.jit
def blur_rows(x, g, t, h, w, r):
    i, j = cuda.grid(2)  # BUG: j, i = cuda.grid(2)
    if i < h and j < w:
        radius = r // 2
        acc = float32(0.0)
        for b in range(r):
            acc += g[b] * x[i, min(max(j + b - radius, 0), w - 1)]
        t[i, j] = acc


@cuda.jit
def blur_cols(t, g, y, h, w, r):
    i, j = cuda.grid(2)  # BUG: j, i = cuda.grid(2)
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
