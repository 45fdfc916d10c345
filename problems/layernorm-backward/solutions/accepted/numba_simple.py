"""LayerNorm backward in Numba CUDA, two kernels. One block of 32 threads per row adds up
g = dy·gamma and g·x̂ (strided over the row, then a tree in shared memory), and writes
dx = rstd·(g - a - x̂·b). Then one thread per column walks down the rows for dgamma and
dbeta. Rows beyond the grid's x limit are covered by a loop over rows."""

from numba import cuda, float32

THREADS = 32


@cuda.jit
def dx_kernel(x, dy, gamma, mean, rstd, dx, m, n):
    part_a = cuda.shared.array(THREADS, float32)
    part_b = cuda.shared.array(THREADS, float32)
    t = cuda.threadIdx.x
    row = cuda.blockIdx.x
    while row < m:
        mu = mean[row]
        rs = rstd[row]
        sa = float32(0.0)
        sb = float32(0.0)
        j = t
        while j < n:
            g = dy[row, j] * gamma[j]
            sa += g
            sb += g * (x[row, j] - mu) * rs
            j += THREADS
        part_a[t] = sa
        part_b[t] = sb
        cuda.syncthreads()
        step = THREADS // 2
        while step > 0:
            if t < step:
                part_a[t] += part_a[t + step]
                part_b[t] += part_b[t + step]
            cuda.syncthreads()
            step //= 2
        a = part_a[0] / n
        b = part_b[0] / n
        cuda.syncthreads()  # every thread has read the sums before the next row reuses them
        j = t
        while j < n:
            xhat = (x[row, j] - mu) * rs
            dx[row, j] = rs * (dy[row, j] * gamma[j] - a - xhat * b)
            j += THREADS
        row += cuda.gridDim.x


@cuda.jit
def dgamma_dbeta_kernel(x, dy, mean, rstd, dgamma, dbeta, m, n):
    j = cuda.grid(1)
    if j < n:
        sg = float32(0.0)
        sb = float32(0.0)
        for i in range(m):
            d = dy[i, j]
            sg += d * (x[i, j] - mean[i]) * rstd[i]
            sb += d
        dgamma[j] = sg
        dbeta[j] = sb


def solve(x, dy, gamma, mean, rstd, dx, dgamma, dbeta, m, n):
    dx_kernel[min(m, 65535), THREADS](x, dy, gamma, mean, rstd, dx, m, n)
    dgamma_dbeta_kernel[(n + THREADS - 1) // THREADS, THREADS](x, dy, mean, rstd, dgamma, dbeta, m, n)
