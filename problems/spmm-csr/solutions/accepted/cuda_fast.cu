// SpMM balanced by entries: every thread walks the same E = 32 consecutive entries of A, for
// one column j of b, whatever rows they belong to, so a row of 65,536 entries is spread over
// 2,048 threads per column instead of one block.
//
// y is zeroed first (cudaMemsetAsync): empty rows stay 0, and rows split between threads are
// added into. A block is 32 x 4 threads: threadIdx.x picks the column (32 consecutive columns
// per warp: each entry's row of b is read as one 128-byte line), threadIdx.y one of four
// chunks of entries. A thread finds the row of its chunk's first entry by a binary search of
// rowptr (the last i with rowptr[i] <= e, which skips empty rows; its top levels stay in L1
// and L2), then walks its entries, flushing a row's sum whenever it passes the row's end: a
// plain store if the row started and ended within its chunk (no other thread touches it),
// an atomicAdd otherwise. Its last row may continue in the next chunk: atomically too.
#include <cuda_runtime.h>

constexpr int E = 32;       // entries per chunk
constexpr int COLS = 32;    // columns per block (threadIdx.x)
constexpr int CHUNKS = 4;   // chunks per block (threadIdx.y)

__global__ void __launch_bounds__(COLS * CHUNKS) spmm_chunks(const int* __restrict__ rowptr, const int* __restrict__ col,
                                                             const float* __restrict__ val, const float* __restrict__ b,
                                                             float* __restrict__ y, int m, int n, int nnz) {
    const long long lo64 = ((long long)blockIdx.x * CHUNKS + threadIdx.y) * E;
    const int j = blockIdx.y * COLS + threadIdx.x;
    if (lo64 >= nnz || j >= n) return;
    const int lo = (int)lo64, hi = min(lo + E, nnz);
    int a = 0, z = m - 1;  // the last row with rowptr[row] <= lo
    while (a < z) {
        const int mid = (a + z + 1) >> 1;
        if (__ldg(rowptr + mid) <= lo) a = mid; else z = mid - 1;
    }
    int row = a;
    bool owned = __ldg(rowptr + row) == lo;  // the row starts in this chunk
    int row_end = __ldg(rowptr + row + 1);
    float sum = 0.0f;
    for (int e = lo; e < hi; ++e) {
        while (e >= row_end) {  // rows that end before this entry (empty ones too)
            if (owned) y[(long long)row * n + j] = sum; else atomicAdd(y + (long long)row * n + j, sum);
            sum = 0.0f;
            ++row;
            owned = true;
            row_end = __ldg(rowptr + row + 1);
        }
        sum += __ldg(val + e) * __ldg(b + (long long)__ldg(col + e) * n + j);
    }
    if (owned && row_end == hi)
        y[(long long)row * n + j] = sum;
    else
        atomicAdd(y + (long long)row * n + j, sum);
}

extern "C" void solve(const int* rowptr, const int* col, const float* val, const float* b, float* y, int m, int k,
                      int n, int nnz) {
    cudaMemsetAsync(y, 0, sizeof(float) * (size_t)m * n, 0);
    const long long chunks = ((long long)nnz + E - 1) / E;
    const dim3 grid((unsigned)((chunks + CHUNKS - 1) / CHUNKS), (n + COLS - 1) / COLS);
    spmm_chunks<<<grid, dim3(COLS, CHUNKS)>>>(rowptr, col, val, b, y, m, n, nnz);
}
