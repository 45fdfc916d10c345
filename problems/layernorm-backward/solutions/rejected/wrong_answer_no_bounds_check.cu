// expect: wrong_answer
// expect-message: dgamma: wrote past the end
// Bug: the column kernel has no `if (j < n)`: its grid is rounded up to whole blocks of 256
// threads, so the last block's extra threads add up columns that do not exist (reading into
// the next row) and write dgamma and dbeta past their ends. Right only when n is a multiple
// of 256. (The dx kernel is right: one block per row, strided over the row.)
#include <cuda_runtime.h>

constexpr int THREADS = 256;

__device__ float block_sum(float v, float* red) {
    red[threadIdx.x] = v;
    __syncthreads();
    for (int s = THREADS / 2; s > 0; s >>= 1) {
        if (threadIdx.x < s) red[threadIdx.x] += red[threadIdx.x + s];
        __syncthreads();
    }
    float total = red[0];
    __syncthreads();
    return total;
}

__global__ void dx_rows(const float* x, const float* dy, const float* gamma, const float* mean, const float* rstd,
                        float* dx, int n) {
    __shared__ float red[THREADS];
    const size_t base = (size_t)blockIdx.x * n;
    const float mu = mean[blockIdx.x], rs = rstd[blockIdx.x];
    float sa = 0.0f, sb = 0.0f;
    for (int j = threadIdx.x; j < n; j += THREADS) {
        const float g = dy[base + j] * gamma[j];
        sa += g;
        sb += g * (x[base + j] - mu) * rs;
    }
    const float a = block_sum(sa, red) / n;
    const float b = block_sum(sb, red) / n;
    for (int j = threadIdx.x; j < n; j += THREADS) {
        const float xhat = (x[base + j] - mu) * rs;
        dx[base + j] = rs * (dy[base + j] * gamma[j] - a - xhat * b);
    }
}

__global__ void dgamma_dbeta_cols(const float* x, const float* dy, const float* mean, const float* rstd,
                                  float* dgamma, float* dbeta, int m, int n) {
    const int j = blockIdx.x * blockDim.x + threadIdx.x;
    float sg = 0.0f, sb = 0.0f;
    for (int i = 0; i < m; ++i) {
        const size_t k = (size_t)i * n + j;
        sg += dy[k] * (x[k] - mean[i]) * rstd[i];
        sb += dy[k];
    }
    dgamma[j] = sg;
    dbeta[j] = sb;
}

extern "C" void solve(const float* x, const float* dy, const float* gamma, const float* mean, const float* rstd,
                      float* dx, float* dgamma, float* dbeta, int m, int n) {
    dx_rows<<<m, THREADS>>>(x, dy, gamma, mean, rstd, dx, n);
    dgamma_dbeta_cols<<<(n + THREADS - 1) / THREADS, THREADS>>>(x, dy, mean, rstd, dgamma, dbeta, m, n);
}
