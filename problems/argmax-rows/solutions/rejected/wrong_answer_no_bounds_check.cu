// expect: wrong_answer
// expect-message: idx: wrote past the end
// Bug: one warp per row, eight rows per block, and no `if (row < m)`. When m is not a
// multiple of 8, the warps of the last block past the last row read the memory after x
// and write their "answers" past the end of idx (on a GPU, into someone else's data). The
// fix: return early when row >= m (a whole warp leaves together, so the shuffles stay safe).
#include <cuda_runtime.h>

constexpr int ROWS = 8;

__global__ void argmax_rows(const float* x, int* idx, int m, int n) {
    int row = blockIdx.x * ROWS + (threadIdx.x >> 5);  // BUG: row may be >= m
    int lane = threadIdx.x & 31;
    const float* r = x + (size_t)row * n;
    float bv = -__int_as_float(0x7f800000);
    int bi = n;
    for (int j = lane; j < n; j += 32) {
        float v = r[j];
        if (bi == n || v > bv) {
            bv = v;
            bi = j;
        }
    }
    for (int off = 16; off > 0; off >>= 1) {
        float v = __shfl_xor_sync(0xffffffffu, bv, off);
        int i = __shfl_xor_sync(0xffffffffu, bi, off);
        if (v > bv || (v == bv && i < bi)) {
            bv = v;
            bi = i;
        }
    }
    if (lane == 0) idx[row] = bi;
}

extern "C" void solve(const float* x, int* idx, int m, int n) {
    argmax_rows<<<(m + ROWS - 1) / ROWS, ROWS * 32>>>(x, idx, m, n);
}
