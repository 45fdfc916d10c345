# expect: wrong_answer
# Bug: reads the channels in BGR order, as OpenCV stores images: the red and blue weights are
# swapped, so every pixel whose red and blue differ comes out wrong.
from numba import cuda, float32

TILE = 16


@cuda.jit
def gray_kernel(rgb, y, h, w):
    col, row = cuda.grid(2)
    if row < h and col < w:
        b = float32(rgb[row, col, 0])
        g = float32(rgb[row, col, 1])
        r = float32(rgb[row, col, 2])
        y[row, col] = (float32(0.299) * r + float32(0.587) * g + float32(0.114) * b) / float32(
            255.0
        )


def solve(rgb, y, h, w):
    grid = ((w + TILE - 1) // TILE, (h + TILE - 1) // TILE)
    gray_kernel[grid, (TILE, TILE)](rgb, y, h, w)
