// expect: wrong_answer
// expect-message: y: wrote past the end
// Bug: no `if (j < n)` on the write (the read of b is clamped, so "nothing can go wrong"). The
// columns come in slabs of 128 threads: unless 128 divides n, each row's last slab writes past
// the end of its row of y, into the next row, and the last row past the end of y.
#include <cuda_runtime.h>

constexpr int THREADS = 128;

__global__ void spmm_row(const int* rowptr, const int* col, const float* val, const float* b, float* y, int n) {
    const int i = blockIdx.x;
    const int j = blockIdx.y * THREADS + threadIdx.x;
    // BUG: if (j < n)
    float acc = 0.0f;
    for (int e = rowptr[i]; e < rowptr[i + 1]; ++e) acc += val[e] * b[(long long)col[e] * n + min(j, n - 1)];
    y[(long long)i * n + j] = acc;
}

extern "C" void solve(const int* rowptr, const int* col, const float* val, const float* b, float* y, int m, int k,
                      int n, int nnz) {
    const dim3 grid(m, (n + THREADS - 1) / THREADS);
    spmm_row<<<grid, THREADS>>>(rowptr, col, val, b, y, n);
}
