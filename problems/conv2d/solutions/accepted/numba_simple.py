"""2-D correlation with zero padding in Numba CUDA: a 16 x 16 block of threads per 16 x 16 patch
of the output, one output per thread, summing the r x r window centred on its pixel; taps that
fall outside the image are skipped (they would multiply a zero of the padding)."""

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
                    acc += x[yy, xx] * f[dy, dx]
    y[row, col] = acc


def solve(x, f, y, h, w, r):
    grid = ((w + TILE - 1) // TILE, (h + TILE - 1) // TILE)
    conv2d_kernel[grid, (TILE, TILE)](x, f, y, h, w, r)
