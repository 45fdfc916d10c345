"""RGB to grayscale in Numba CUDA: a 16 x 16 block of threads per 16 x 16 patch of pixels,
one pixel per thread, luma = (0.299 R + 0.587 G + 0.114 B) / 255 in float32 (the
coefficients divided by 255 ahead)."""

from numba import cuda, float32

WR = float32(0.299 / 255.0)
WG = float32(0.587 / 255.0)
WB = float32(0.114 / 255.0)
TILE = 16


@cuda.jit
def gray_kernel(rgb, y, h, w):
    col, row = cuda.grid(2)
    if row < h and col < w:
        r = float32(rgb[row, col, 0])
        g = float32(rgb[row, col, 1])
        b = float32(rgb[row, col, 2])
        y[row, col] = WR * r + WG * g + WB * b


def solve(rgb, y, h, w):
    grid = ((w + TILE - 1) // TILE, (h + TILE - 1) // TILE)
    gray_kernel[grid, (TILE, TILE)](rgb, y, h, w)
