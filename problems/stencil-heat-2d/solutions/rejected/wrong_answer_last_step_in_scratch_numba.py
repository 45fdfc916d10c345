# expect: wrong_answer
# Bug: the ping-pong always starts by writing out (u -> out -> scratch -> out ...), so when the
# number of steps is even the last step lands in the scratch grid, and out is left one step
# short. Which grid comes first must depend on the parity of steps.
from numba import cuda

TILE = 16


@cuda.jit
def heat_step(src, dst, h, w):
    j, i = cuda.grid(2)
    if i < h and j < w:
        c = src[i, j]
        if 0 < i < h - 1 and 0 < j < w - 1:
            dst[i, j] = 0.2 * (c + src[i - 1, j] + src[i + 1, j] + src[i, j - 1] + src[i, j + 1])
        else:
            dst[i, j] = c


def solve(u, out, h, w, steps):
    grid = ((w + TILE - 1) // TILE, (h + TILE - 1) // TILE)
    scratch = cuda.device_array_like(out)
    src, dst = u, out  # BUG: start with scratch when steps is even
    for _ in range(steps):
        heat_step[grid, (TILE, TILE)](src, dst, h, w)
        src, dst = dst, (scratch if dst is out else out)
