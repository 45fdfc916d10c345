// expect: wrong_answer
// expect-message: y: wrote past the end
// Bug: the kernel that zeroes y before the atomic adds has no `if (i < m)`: the grid is
// rounded up to whole blocks of 256, so its last block writes zeros past the end of y. (The
// SpMV itself is right: one thread per entry finds its row by binary search and adds its
// product into y[row] with atomicAdd.) Right only when m is a multiple of 256.
#include <cuda_runtime.h>

__global__ void zero(float* y) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    y[i] = 0.0f;  // BUG: i may be >= m
}

__global__ void spmv_entries(const int* rowptr, const int* col, const float* val, const float* x, float* y, int m,
                             int nnz) {
    const int k = blockIdx.x * blockDim.x + threadIdx.x;
    if (k >= nnz) return;
    int a = 0, b = m - 1;  // the last row with rowptr[row] <= k
    while (a < b) {
        const int mid = (a + b + 1) >> 1;
        if (rowptr[mid] <= k) a = mid; else b = mid - 1;
    }
    atomicAdd(y + a, val[k] * x[col[k]]);
}

extern "C" void solve(const int* rowptr, const int* col, const float* val, const float* x, float* y, int m, int n,
                      int nnz) {
    zero<<<(m + 255) / 256, 256>>>(y);
    spmv_entries<<<(nnz + 255) / 256, 256>>>(rowptr, col, val, x, y, m, nnz);
}
