"""2-D heat equation in Numba CUDA: one launch per step, a 16 x 16 block of threads per tile,
a thread per point. The steps alternate between out and a scratch grid so that the last one
writes out; a step never reads the grid it writes."""

from numba import cuda

TILE = 16


@cuda.jit
def heat_step(src, dst, h, w):
    j, i = cuda.grid(2)
    if i < h and j < w:
        c = src[i, j]
        if 0 < i < h - 1 and 0 < j < w - 1:
            # ALPHA = 0.2: the mean of the point and its four neighbours
            dst[i, j] = 0.2 * (c + src[i - 1, j] + src[i + 1, j] + src[i, j - 1] + src[i, j + 1])
        else:
            dst[i, j] = c  # the boundary keeps its value


def solve(u, out, h, w, steps):
    grid = ((w + TILE - 1) // TILE, (h + TILE - 1) // TILE)
    scratch = cuda.device_array_like(out)
    src = u
    for t in range(steps):
        dst = out if (steps - t) % 2 == 1 else scratch  # the last step writes out
        heat_step[grid, (TILE, TILE)](src, dst, h, w)
        src = dst
