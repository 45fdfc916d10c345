// expect: wrong_answer
// expect-message: y: wrote past the end
// Bug: no bounds check on the columns. Each thread handles 4 consecutive columns of its row
// and the last thread's group runs past n when n is not a multiple of 4: it reads the next
// row's values into the sums (wrong statistics) and writes past the row, into the next row
// and, from the last row, past the end of y. The fix: if (j < n) on every load and store.
#include <cuda_bf16.h>
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

__global__ void layernorm_quads(const __nv_bfloat16* x, const __nv_bfloat16* gamma, const __nv_bfloat16* beta,
                                __nv_bfloat16* y, int n) {
    __shared__ float red[THREADS];
    const __nv_bfloat16* xr = x + (size_t)blockIdx.x * n;
    __nv_bfloat16* yr = y + (size_t)blockIdx.x * n;
    float s = 0.0f;
    for (int j0 = 4 * threadIdx.x; j0 < n; j0 += 4 * THREADS)
        for (int k = 0; k < 4; ++k) s += __bfloat162float(xr[j0 + k]);  // BUG: j0 + k may be >= n
    const float mean = block_sum(s, red) / n;
    float q = 0.0f;
    for (int j0 = 4 * threadIdx.x; j0 < n; j0 += 4 * THREADS)
        for (int k = 0; k < 4; ++k) {
            float d = __bfloat162float(xr[j0 + k]) - mean;
            q += d * d;
        }
    const float rstd = rsqrtf(block_sum(q, red) / n + 1e-5f);
    for (int j0 = 4 * threadIdx.x; j0 < n; j0 += 4 * THREADS)
        for (int k = 0; k < 4; ++k) {
            int j = j0 + k;
            float v = (__bfloat162float(xr[j]) - mean) * rstd;
            yr[j] = __float2bfloat16(v * __bfloat162float(gamma[j]) + __bfloat162float(beta[j]));
        }
}

extern "C" void solve(const __nv_bfloat16* x, const __nv_bfloat16* gamma, const __nv_bfloat16* beta,
                      __nv_bfloat16* y, int m, int n) {
    layernorm_quads<<<m, THREADS>>>(x, gamma, beta, y, n);
}
