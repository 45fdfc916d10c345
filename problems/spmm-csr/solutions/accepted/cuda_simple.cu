// SpMM, the straightforward way: a block of 128 threads per row of A and slab of 128 columns
// of b; thread j walks the row's entries rowptr[i] .. rowptr[i + 1] - 1 and adds val[e] *
// b[col[e]][j] into a float register, then writes y[i][j]. The threads of a warp read 32
// consecutive floats of the same row of b: coalesced. An empty row writes zeros. A block
// with a long row runs long while the others are done: this is what balancing by entries
// fixes.
#include <cuda_runtime.h>

constexpr int THREADS = 128;

__global__ void spmm_row(const int* rowptr, const int* col, const float* val, const float* b, float* y, int n) {
    const int i = blockIdx.x;
    const int j = blockIdx.y * THREADS + threadIdx.x;
    if (j < n) {
        float acc = 0.0f;
        for (int e = rowptr[i]; e < rowptr[i + 1]; ++e) acc += val[e] * b[(long long)col[e] * n + j];
        y[(long long)i * n + j] = acc;
    }
}

extern "C" void solve(const int* rowptr, const int* col, const float* val, const float* b, float* y, int m, int k,
                      int n, int nnz) {
    const dim3 grid(m, (n + THREADS - 1) / THREADS);
    spmm_row<<<grid, THREADS>>>(rowptr, col, val, b, y, n);
}
