// expect: wrong_answer
// expect-message: wrote past the end
// Bug: no bounds check on the rows. Each block of 8 warps handles 8 rows, a warp per row;
// when m is not a multiple of 8 the warps of the last block whose row is m or more add and
// normalize the memory after x and res and write the results past the end of res_out and y.
// Every value inside the outputs is right; the stores after them are the bug. The fix:
// if (row >= m) return; (the whole warp leaves together, so the shuffles stay safe).
#include <cuda_bf16.h>
#include <cuda_runtime.h>

constexpr int WARPS = 8;

__global__ void add_rmsnorm_warp(const __nv_bfloat16* x, const __nv_bfloat16* res, const __nv_bfloat16* w,
                                 __nv_bfloat16* y, __nv_bfloat16* res_out, int m, int n) {
    const int lane = threadIdx.x & 31;
    const int row = blockIdx.x * WARPS + (threadIdx.x >> 5);  // BUG: row may be >= m
    const size_t base = (size_t)row * n;
    float ss = 0.0f;
    for (int j = lane; j < n; j += 32) {
        float h = __bfloat162float(x[base + j]) + __bfloat162float(res[base + j]);
        res_out[base + j] = __float2bfloat16(h);
        ss += h * h;
    }
    for (int off = 16; off > 0; off >>= 1) ss += __shfl_xor_sync(0xffffffffu, ss, off);
    const float rstd = rsqrtf(ss / n + 1e-6f);
    for (int j = lane; j < n; j += 32) {
        float h = __bfloat162float(x[base + j]) + __bfloat162float(res[base + j]);
        y[base + j] = __float2bfloat16(h * rstd * __bfloat162float(w[j]));
    }
}

extern "C" void solve(const __nv_bfloat16* x, const __nv_bfloat16* res, const __nv_bfloat16* w,
                      __nv_bfloat16* y, __nv_bfloat16* res_out, int m, int n) {
    add_rmsnorm_warp<<<(m + WARPS - 1) / WARPS, WARPS * 32>>>(x, res, w, y, res_out, m, n);
}
