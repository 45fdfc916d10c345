// expect: wrong_answer
// expect-message: was it written?
// Bug: the grid has m / ROWS blocks, rounded down, instead of (m + ROWS - 1) / ROWS: an
// off-by-one in the block count. When m is not a multiple of 8 the last m % 8 rows get no
// warp, and their entries of idx keep the garbage the judge filled them with. (With m < 8
// there are no blocks at all.)
#include <cuda_runtime.h>

constexpr int ROWS = 8;

__global__ void argmax_rows(const float* x, int* idx, int m, int n) {
    int row = blockIdx.x * ROWS + (threadIdx.x >> 5);
    if (row >= m) return;
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
    if (m / ROWS > 0) argmax_rows<<<m / ROWS, ROWS * 32>>>(x, idx, m, n);  // BUG: rounds down
}
