// SpMV, the straightforward way ("scalar CSR"): one thread per row, which walks its row's
// entries and writes the sum (0 for an empty row). Correct for any matrix, but the loads of a
// warp are scattered over 32 rows, and a warp with one long row waits for it: on power-law
// matrices a handful of threads do most of the work.
#include <cuda_runtime.h>

__global__ void spmv_rows(const int* rowptr, const int* col, const float* val, const float* x, float* y, int m) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= m) return;
    float acc = 0.0f;
    for (int k = rowptr[i]; k < rowptr[i + 1]; ++k) acc += val[k] * x[col[k]];
    y[i] = acc;
}

extern "C" void solve(const int* rowptr, const int* col, const float* val, const float* x, float* y, int m, int n,
                      int nnz) {
    spmv_rows<<<(m + 255) / 256, 256>>>(rowptr, col, val, x, y, m);
}
