// expect: wrong_answer
// Bug: a race. Entries are split evenly between threads (32 each, as in cuda_fast.cu), and a
// row that spans several chunks gets its parts added with `y[...] += part`: a read, an add and
// a write that other threads interleave with, so two of them read the same old value and one
// part is lost. It needs atomicAdd. Rows inside one chunk come out right, so only the long rows
// show it (on a GPU; the CPU only compiles CUDA).
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
            y[(long long)row * n + j] += sum;  // BUG: atomicAdd when the row is shared
            sum = 0.0f;
            ++row;
            owned = true;
            row_end = __ldg(rowptr + row + 1);
        }
        sum += __ldg(val + e) * __ldg(b + (long long)__ldg(col + e) * n + j);
    }
    y[(long long)row * n + j] += sum;  // BUG: atomicAdd
}

extern "C" void solve(const int* rowptr, const int* col, const float* val, const float* b, float* y, int m, int k,
                      int n, int nnz) {
    cudaMemsetAsync(y, 0, sizeof(float) * (size_t)m * n, 0);
    const long long chunks = ((long long)nnz + E - 1) / E;
    const dim3 grid((unsigned)((chunks + CHUNKS - 1) / CHUNKS), (n + COLS - 1) / COLS);
    spmm_chunks<<<grid, dim3(COLS, CHUNKS)>>>(rowptr, col, val, b, y, m, n, nnz);
}
