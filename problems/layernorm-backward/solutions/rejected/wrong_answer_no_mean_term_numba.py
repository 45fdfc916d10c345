# expect: wrong_answer
# expect-message: dx
# Bug: dx = rstd·(g - x̂·b), the a = mean(g) term forgotten: it comes from the mean the forward
# subtracted, which depends on every x of the row. On rows whose dy share an offset (~10) a
# is ~10·mean(gamma), and dx is off by rstd·a everywhere. dgamma and dbeta are right.
from numba import cuda, float32

THREADS = 32


@cuda.jit
def dx_kernel(x, dy, gamma, mean, rstd, dx, m, n):
    part_b = cuda.shared.array(THREADS, float32)
    t = cuda.threadIdx.x
    row = cuda.blockIdx.x
    while row < m:
        mu = mean[row]
        rs = rstd[row]
        sb = float32(0.0)
        j = t
        while j < n:
            sb += dy[row, j] * gamma[j] * (x[row, j] - mu) * rs
            j += THREADS
        part_b[t] = sb
        cuda.syncthreads()
        step = THREADS // 2
        while step > 0:
            if t < step:
                part_b[t] += part_b[t + step]
            cuda.syncthreads()
            step //= 2
        b = part_b[0] / n
        cuda.syncthreads()
        j = t
        while j < n:
            xhat = (x[row, j] - mu) * rs
            dx[row, j] = rs * (dy[row, j] * gamma[j] - xhat * b)
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
