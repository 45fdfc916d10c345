#include <cuda_runtime.h>

__global__ void spmm_row(const int* rowptr, const int* col, const float* val, const float* b, float* y, int n) {
    // TODO: block blockIdx.x = row i, thread j = blockIdx.y * blockDim.x + threadIdx.x = one
    // column of b (return if j >= n): add val[e] * b[col[e] * n + j] over the row's entries
    // rowptr[i] .. rowptr[i + 1] - 1 and write y[i * n + j] (0 for an empty row).
}

// rowptr: m + 1 ints, col: nnz ints, val: nnz floats, b: k * n floats, y: m * n floats,
// row-major; device pointers.
extern "C" void solve(const int* rowptr, const int* col, const float* val, const float* b, float* y, int m, int k,
                      int n, int nnz) {
    const dim3 grid(m, (n + 127) / 128);
    spmm_row<<<grid, 128>>>(rowptr, col, val, b, y, n);
}
