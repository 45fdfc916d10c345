// SpMV balanced by entries, with the row search done once per block and every gather of x in
// flight at once.
//
// Every thread takes K = 16 consecutive nonzeros, whatever rows they belong to; a block of 256
// threads covers a chunk of 4096. Two things cost the plain entry-balanced kernel time besides
// moving data: a 21-step binary search of all of rowptr per thread, and gathers of x issued one
// at a time between the branches of the row walk. Here:
//
// 1. chunk_rows (one thread per row, reading rowptr once, coalesced) writes first[b], the row
//    holding entry b * 4096, for every chunk start inside its row. Empty rows hold none. It
//    also leaves rowptr in L2 for step 2.
// 2. spmv_chunks: a thread's first row lies between first[b] and first[b + 1], so its binary
//    search covers the rows of one chunk (about 8 steps on the benchmark, not 21). It loads its
//    16 columns and values with 128-bit loads, gathers the 16 x[col] together, then walks the
//    products, flushing a row's sum at each row end: a plain store when the row began and
//    ended within its 16 entries, an atomicAdd otherwise (y is zeroed first; empty rows stay
//    0). When all 32 threads of a warp sit in the same row (the middle of a long row), they add
//    their sums with shuffles and make one atomic.
#include <cuda_runtime.h>

constexpr int K = 16;
constexpr int THREADS = 256;
constexpr int CHUNK = K * THREADS;
constexpr unsigned FULL = 0xffffffffu;

__global__ void chunk_rows(const int* __restrict__ rowptr, int* __restrict__ first, int m) {
    const int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= m) return;
    const int begin = __ldg(rowptr + r), end = __ldg(rowptr + r + 1);
    // Chunk starts c * CHUNK inside [begin, end); long rows hold many.
    for (long long c = ((long long)begin + CHUNK - 1) / CHUNK; c * CHUNK < end; ++c) first[c] = r;
}

__device__ __forceinline__ void flush(float* y, int row, float sum, bool owned) {
    if (owned)
        y[row] = sum;
    else
        atomicAdd(y + row, sum);
}

__global__ void __launch_bounds__(THREADS) spmv_chunks(const int* __restrict__ rowptr, const int* __restrict__ col,
                                                       const float* __restrict__ val, const float* __restrict__ x,
                                                       float* __restrict__ y, const int* __restrict__ first, int m,
                                                       int nnz, int chunks) {
    const long long lo64 = (long long)blockIdx.x * CHUNK + (long long)threadIdx.x * K;
    const bool active = lo64 < nnz;
    const int lo = active ? (int)lo64 : nnz;
    const int hi = min(lo + K, nnz);
    int r = -1;
    float sum = 0.0f;
    bool tail_owned = false;
    if (active) {
        int a = __ldg(first + blockIdx.x);  // the last row with rowptr[row] <= lo lies in [a, b]
        int b = blockIdx.x + 1 < chunks ? __ldg(first + blockIdx.x + 1) : m - 1;
        while (a < b) {
            const int mid = (a + b + 1) >> 1;
            if (__ldg(rowptr + mid) <= lo) a = mid; else b = mid - 1;
        }
        r = a;
        bool owned = __ldg(rowptr + r) == lo;  // the row starts in this thread's entries
        int row_end = __ldg(rowptr + r + 1);
        float p[K];  // the products; every gather of x is issued before the first is needed
        if (hi - lo == K) {  // lo % 16 == 0 and the buffers are 16-byte aligned
            int c[K];
            float v[K];
#pragma unroll
            for (int q = 0; q < K; q += 4) {
                const int4 ci = __ldcs(reinterpret_cast<const int4*>(col + lo + q));
                const float4 vf = __ldcs(reinterpret_cast<const float4*>(val + lo + q));
                c[q] = ci.x; c[q + 1] = ci.y; c[q + 2] = ci.z; c[q + 3] = ci.w;
                v[q] = vf.x; v[q + 1] = vf.y; v[q + 2] = vf.z; v[q + 3] = vf.w;
            }
            float g[K];
#pragma unroll
            for (int q = 0; q < K; ++q) g[q] = __ldg(x + c[q]);
#pragma unroll
            for (int q = 0; q < K; ++q) p[q] = v[q] * g[q];
        } else {
#pragma unroll
            for (int q = 0; q < K; ++q) p[q] = lo + q < hi ? val[lo + q] * __ldg(x + col[lo + q]) : 0.0f;
        }
#pragma unroll
        for (int q = 0; q < K; ++q) {
            if (lo + q >= hi) break;
            while (lo + q >= row_end) {  // rows that end before this entry (empty ones too)
                flush(y, r, sum, owned);
                sum = 0.0f;
                ++r;
                owned = true;
                row_end = __ldg(rowptr + r + 1);
            }
            sum += p[q];
        }
        tail_owned = owned && row_end == hi;  // the last row also ends here
    }
    // The last row: a plain store if this thread holds all of it, else an atomic add,
    // combined across the warp when all 32 threads are inside the same row.
    const bool atomic = active && !tail_owned;
    const int r0 = __shfl_sync(FULL, r, 0);
    if (__all_sync(FULL, atomic && r == r0)) {
#pragma unroll
        for (int off = 16; off > 0; off >>= 1) sum += __shfl_xor_sync(FULL, sum, off);
        if ((threadIdx.x & 31) == 0) atomicAdd(y + r, sum);
    } else if (active) {
        flush(y, r, sum, tail_owned);
    }
}

extern "C" void solve(const int* rowptr, const int* col, const float* val, const float* x, float* y, int m, int n,
                      int nnz) {
    static int* first = nullptr;
    static int capacity = 0;
    const int chunks = (int)(((long long)nnz + CHUNK - 1) / CHUNK);
    if (chunks > capacity) {
        if (first) cudaFree(first);
        cudaMalloc(&first, sizeof(int) * chunks);
        capacity = chunks;
    }
    cudaMemsetAsync(y, 0, sizeof(float) * m, 0);
    chunk_rows<<<(m + 255) / 256, 256>>>(rowptr, first, m);
    spmv_chunks<<<chunks, THREADS>>>(rowptr, col, val, x, y, first, m, nnz, chunks);
}
