// fp8 per-token quantization, the straightforward way: one block of 256 threads per row. The
// threads stride over the row for their own max |x|, a tree in shared memory takes the row's,
// and the scale is max(amax, 1e-12) / 448 (an IEEE division: nvcc's default). A second stride
// over the row divides each value by the scale and converts it with __nv_fp8_e4m3's
// constructor: round to nearest, ties to even, saturating at 448.
#include <cuda_bf16.h>
#include <cuda_fp8.h>
#include <cuda_runtime.h>

constexpr int THREADS = 256;

__global__ void quantize_row(const __nv_bfloat16* x, __nv_fp8_e4m3* q, float* scales, int hidden) {
    __shared__ float partial[THREADS];
    const long long base = (long long)blockIdx.x * hidden;
    float amax = 0.0f;
    for (int c = threadIdx.x; c < hidden; c += THREADS) amax = fmaxf(amax, fabsf(__bfloat162float(x[base + c])));
    partial[threadIdx.x] = amax;
    __syncthreads();
    for (int half = THREADS / 2; half > 0; half /= 2) {
        if (threadIdx.x < half) partial[threadIdx.x] = fmaxf(partial[threadIdx.x], partial[threadIdx.x + half]);
        __syncthreads();
    }
    const float scale = fmaxf(partial[0], 1e-12f) / 448.0f;
    for (int c = threadIdx.x; c < hidden; c += THREADS) q[base + c] = __nv_fp8_e4m3(__bfloat162float(x[base + c]) / scale);
    if (threadIdx.x == 0) scales[blockIdx.x] = scale;
}

extern "C" void solve(const __nv_bfloat16* x, __nv_fp8_e4m3* q, float* scales, int tokens, int hidden) {
    quantize_row<<<tokens, THREADS>>>(x, q, scales, hidden);
}
