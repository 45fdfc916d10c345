// expect: wrong_answer
// expect-message: q: wrote past the end
// Bug: one block of 256 threads per row, each thread taking the columns threadIdx.x + 256 k
// for k < ceil(hidden / 256). The loads are guarded (a column past the row reads 0), the store
// is not: when 256 does not divide hidden, the last round stores past the row, into the next
// row, and from the last row past the end of q. The fix: if (c < hidden) around the store.
#include <cuda_bf16.h>
#include <cuda_fp8.h>
#include <cuda_runtime.h>

constexpr int THREADS = 256;

__global__ void quantize_row(const __nv_bfloat16* x, __nv_fp8_e4m3* q, float* scales, int hidden) {
    __shared__ float partial[THREADS];
    const long long base = (long long)blockIdx.x * hidden;
    const int rounds = (hidden + THREADS - 1) / THREADS;
    float amax = 0.0f;
    for (int k = 0; k < rounds; ++k) {
        const int c = threadIdx.x + k * THREADS;
        if (c < hidden) amax = fmaxf(amax, fabsf(__bfloat162float(x[base + c])));
    }
    partial[threadIdx.x] = amax;
    __syncthreads();
    for (int half = THREADS / 2; half > 0; half /= 2) {
        if (threadIdx.x < half) partial[threadIdx.x] = fmaxf(partial[threadIdx.x], partial[threadIdx.x + half]);
        __syncthreads();
    }
    const float scale = fmaxf(partial[0], 1e-12f) / 448.0f;
    for (int k = 0; k < rounds; ++k) {
        const int c = threadIdx.x + k * THREADS;
        const float v = c < hidden ? __bfloat162float(x[base + c]) : 0.0f;
        q[base + c] = __nv_fp8_e4m3(v / scale);  // BUG: no if (c < hidden)
    }
    if (threadIdx.x == 0) scales[blockIdx.x] = scale;
}

extern "C" void solve(const __nv_bfloat16* x, __nv_fp8_e4m3* q, float* scales, int tokens, int hidden) {
    quantize_row<<<tokens, THREADS>>>(x, q, scales, hidden);
}
