// expect: wrong_answer
// Bug: a race. Entries are split evenly between threads (16 each, as in the editorial), and a
// row that spans several threads gets its parts added with `y[row] += part`, a read, an add
// and a write that other threads interleave with: two threads read the same old value and
// one part is lost. It needs atomicAdd. Rows inside one thread's entries come out right, so
// only matrices with long rows show it, every time.
#include <cuda_runtime.h>

constexpr int K = 16;

__global__ void zero(float* y, int m) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < m) y[i] = 0.0f;
}

__global__ void spmv_chunks(const int* rowptr, const int* col, const float* val, const float* x, float* y, int m,
                            int nnz) {
    const long long lo64 = ((long long)blockIdx.x * blockDim.x + threadIdx.x) * K;
    if (lo64 >= nnz) return;
    const int lo = (int)lo64, hi = min(lo + K, nnz);
    int a = 0, b = m - 1;
    while (a < b) {
        const int mid = (a + b + 1) >> 1;
        if (rowptr[mid] <= lo) a = mid; else b = mid - 1;
    }
    int r = a, row_end = rowptr[r + 1];
    float sum = 0.0f;
    for (int k = lo; k < hi; ++k) {
        while (k >= row_end) {
            y[r] += sum;  // BUG: not atomic
            sum = 0.0f;
            row_end = rowptr[++r + 1];
        }
        sum += val[k] * x[col[k]];
    }
    y[r] += sum;  // BUG: not atomic
}

extern "C" void solve(const int* rowptr, const int* col, const float* val, const float* x, float* y, int m, int n,
                      int nnz) {
    zero<<<(m + 255) / 256, 256>>>(y, m);
    const long long threads = ((long long)nnz + K - 1) / K;
    spmv_chunks<<<(int)((threads + 255) / 256), 256>>>(rowptr, col, val, x, y, m, nnz);
}
