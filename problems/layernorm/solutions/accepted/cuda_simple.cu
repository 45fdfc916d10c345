// LayerNorm, the straightforward way: one block of 256 threads per row, three passes over the
// row in global memory: sum x for the mean, sum (x - mean)^2 for the variance, then write
// (x - mean) * rstd * gamma + beta. Each sum is a block reduction through shared memory.
// Statistics in float32; one rounding to bf16 (__float2bfloat16 rounds to nearest) at the
// store. Correct for any n; reads each row three times (cuda_fast.cu reads it once).
#include <cuda_bf16.h>
#include <cuda_runtime.h>

constexpr int THREADS = 256;
constexpr float EPS = 1e-5f;

// Sum of v over the block, returned to every thread.
__device__ float block_sum(float v, float* red) {
    red[threadIdx.x] = v;
    __syncthreads();
    for (int s = THREADS / 2; s > 0; s >>= 1) {
        if (threadIdx.x < s) red[threadIdx.x] += red[threadIdx.x + s];
        __syncthreads();
    }
    float total = red[0];
    __syncthreads();  // red is reused by the next call
    return total;
}

__global__ void layernorm_rows(const __nv_bfloat16* x, const __nv_bfloat16* gamma, const __nv_bfloat16* beta,
                               __nv_bfloat16* y, int n) {
    __shared__ float red[THREADS];
    const __nv_bfloat16* xr = x + (size_t)blockIdx.x * n;  // rows * n can pass 2^31
    __nv_bfloat16* yr = y + (size_t)blockIdx.x * n;

    float s = 0.0f;
    for (int j = threadIdx.x; j < n; j += THREADS) s += __bfloat162float(xr[j]);
    const float mean = block_sum(s, red) / n;

    float q = 0.0f;
    for (int j = threadIdx.x; j < n; j += THREADS) {
        float d = __bfloat162float(xr[j]) - mean;
        q += d * d;
    }
    const float rstd = rsqrtf(block_sum(q, red) / n + EPS);

    for (int j = threadIdx.x; j < n; j += THREADS) {
        float v = (__bfloat162float(xr[j]) - mean) * rstd;
        yr[j] = __float2bfloat16(v * __bfloat162float(gamma[j]) + __bfloat162float(beta[j]));
    }
}

extern "C" void solve(const __nv_bfloat16* x, const __nv_bfloat16* gamma, const __nv_bfloat16* beta,
                      __nv_bfloat16* y, int m, int n) {
    layernorm_rows<<<m, THREADS>>>(x, gamma, beta, y, n);
}
