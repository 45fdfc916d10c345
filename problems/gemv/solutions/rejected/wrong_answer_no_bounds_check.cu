// expect: wrong_answer
// expect-message: y: wrote past the end
// Bug: no bounds check on the row. Each block of 8 warps handles 8 rows; when m is not a
// multiple of 8, the warps of the last block whose row is m or more multiply the memory
// after w and write their results past the end of y. Every value inside y is right; the
// stores after it are the bug. The fix: if (row >= m) return; (the whole warp leaves
// together, so the shuffles stay safe).
#include <cuda_bf16.h>
#include <cuda_runtime.h>

constexpr int WARPS = 8;

__global__ void gemv_warp_per_row(const __nv_bfloat16* w, const __nv_bfloat16* x, float* y, int m, int k) {
    const int lane = threadIdx.x & 31;
    const int row = blockIdx.x * WARPS + (threadIdx.x >> 5);  // BUG: row may be >= m
    const __nv_bfloat16* wr = w + (long long)row * k;
    float acc = 0.0f;
    for (int j = lane; j < k; j += 32) acc += __bfloat162float(wr[j]) * __bfloat162float(x[j]);
    for (int off = 16; off > 0; off >>= 1) acc += __shfl_xor_sync(0xffffffffu, acc, off);
    if (lane == 0) y[row] = acc;
}

extern "C" void solve(const __nv_bfloat16* w, const __nv_bfloat16* x, float* y, int m, int k) {
    gemv_warp_per_row<<<(m + WARPS - 1) / WARPS, WARPS * 32>>>(w, x, y, m, k);
}
