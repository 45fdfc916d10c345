# expect: wrong_answer
# Bug: indexes the filter as f[dx, dy], column first, while the window walks x row first
# (x[yy, xx]): the result is the correlation with the transposed filter. Right only for
# symmetric filters (r = 1 among them).
from numba import cuda, float32

TILE = 16


@cuda.jit
def conv2d_kernel(x, f, y, h, w, r):
    col, row = cuda.grid(2)
    if row >= h or col >= w:
        return
    half = r // 2
    acc = float32(0.0)
    for dy in range(r):
        yy = row + dy - half
        if 0 <= yy < h:
            for dx in range(r):
                xx = col + dx - half
                if 0 <= xx < w:
                    acc += x[yy, xx] * f[dx, dy]
    y[row, col] = acc


def solve(x, f, y, h, w, r):
    grid = ((w + TILE - 1) // TILE, (h + TILE - 1) // TILE)
    conv2d_kernel[grid, (TILE, TILE)](x, f, y, h, w, r)
