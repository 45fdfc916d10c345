// expect: wrong_answer
// expect-message: dlogits: wrote past the end
// Bug: the gradient is written by an elementwise kernel without `if (i < n)`: its grid is
// rounded up to whole blocks of 256, so the last block writes past the end of dlogits. (The
// per-row statistics are right: a first kernel gives each row a block that finds its max and
// sum and adds its loss.) Right only when b * v is a multiple of 256.
#include <cuda_runtime.h>

constexpr int THREADS = 256;

template <bool MAX>
__device__ float block_reduce(float v, float* red) {
    red[threadIdx.x] = v;
    __syncthreads();
    for (int s = THREADS / 2; s > 0; s >>= 1) {
        if (threadIdx.x < s) red[threadIdx.x] = MAX ? fmaxf(red[threadIdx.x], red[threadIdx.x + s])
                                                    : red[threadIdx.x] + red[threadIdx.x + s];
        __syncthreads();
    }
    float total = red[0];
    __syncthreads();
    return total;
}

__global__ void row_stats(const float* logits, const int* labels, float* loss, float* row_max, float* row_sum, int b,
                          int v) {
    __shared__ float red[THREADS];
    const size_t base = (size_t)blockIdx.x * v;
    float m = -INFINITY;
    for (int j = threadIdx.x; j < v; j += THREADS) m = fmaxf(m, logits[base + j]);
    m = block_reduce<true>(m, red);
    float s = 0.0f;
    for (int j = threadIdx.x; j < v; j += THREADS) s += expf(logits[base + j] - m);
    s = block_reduce<false>(s, red);
    if (threadIdx.x == 0) {
        row_max[blockIdx.x] = m;
        row_sum[blockIdx.x] = s;
        atomicAdd(loss, (m + logf(s) - logits[base + labels[blockIdx.x]]) / b);
    }
}

__global__ void grad(const float* logits, const int* labels, const float* row_max, const float* row_sum,
                     float* dlogits, int b, int v) {
    const size_t i = (size_t)blockIdx.x * THREADS + threadIdx.x;
    const int row = (int)(i / v), col = (int)(i % v);
    const int r = row < b ? row : b - 1;  // keeps the statistics' reads in bounds, not the store
    const float p = expf(logits[i] - row_max[r]) / row_sum[r];
    dlogits[i] = (p - (col == labels[r] ? 1.0f : 0.0f)) / b;
}

static float* stats = nullptr;
static int stats_rows = 0;

extern "C" void solve(const float* logits, const int* labels, float* loss, float* dlogits, int b, int v) {
    if (b > stats_rows) {
        if (stats) cudaFree(stats);
        cudaMalloc(&stats, 2 * (size_t)b * sizeof(float));
        stats_rows = b;
    }
    cudaMemsetAsync(loss, 0, sizeof(float));
    row_stats<<<b, THREADS>>>(logits, labels, loss, stats, stats + b, b, v);
    const size_t n = (size_t)b * v;
    grad<<<(unsigned)((n + THREADS - 1) / THREADS), THREADS>>>(logits, labels, stats, stats + b, dlogits, b, v);
}
