# expect: wrong_answer
# Bug: dx = y·dy, the elementwise chain rule of exp, forgetting that every output of a row
# depends on every input through the row's normalisation (the "- sum(dy·y)" term).
from numba import cuda

THREADS = 64


@cuda.jit
def softmax_bwd_kernel(y, dy, dx, rows, cols):
    row = cuda.blockIdx.x
    while row < rows:
        j = cuda.threadIdx.x
        while j < cols:
            dx[row, j] = y[row, j] * dy[row, j]
            j += THREADS
        row += cuda.gridDim.x


def solve(y, dy, dx, rows, cols):
    softmax_bwd_kernel[min(rows, 65535), THREADS](y, dy, dx, rows, cols)
