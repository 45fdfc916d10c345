// SpMV balanced by entries: every thread gets K = 16 consecutive nonzeros, whatever rows
// they belong to, so a row of 500,000 entries is spread over 31,000 threads instead of one.
//
// y is zeroed first (cudaMemsetAsync): empty rows stay 0, and rows split between threads are
// added into. A thread finds the row of its first entry by a binary search of rowptr (which
// stays in L2), loads its 16 column indices and values with 128-bit loads, and walks them:
// whenever it passes the end of a row it flushes the row's sum, with a plain store if the
// row started and ended within its 16 entries (no other thread touches it) and an atomicAdd
// otherwise. Its last row may continue in the next thread's entries: it is added atomically
// too, and when a whole warp sits inside one row (the middle of a long row) the warp adds
// its 32 sums with shuffles first and makes one atomic instead of 32.
#include <cuda_runtime.h>

constexpr int K = 16;
constexpr int THREADS = 256;
constexpr unsigned FULL = 0xffffffffu;

__device__ __forceinline__ void flush(float* y, int row, float sum, bool owned) {
    if (owned)
        y[row] = sum;
    else
        atomicAdd(y + row, sum);
}

__global__ void __launch_bounds__(THREADS) spmv_chunks(const int* __restrict__ rowptr, const int* __restrict__ col,
                                                       const float* __restrict__ val, const float* __restrict__ x,
                                                       float* __restrict__ y, int m, int nnz) {
    const long long t = (long long)blockIdx.x * THREADS + threadIdx.x;
    const long long lo64 = t * K;
    const bool active = lo64 < nnz;
    const int lo = active ? (int)lo64 : nnz;
    const int hi = min(lo + K, nnz);
    int r = -1;
    float sum = 0.0f;
    bool owned = false, tail_owned = false;
    if (active) {
        int a = 0, b = m - 1;  // the last row with rowptr[row] <= lo
        while (a < b) {
            const int mid = (a + b + 1) >> 1;
            if (__ldg(rowptr + mid) <= lo) a = mid; else b = mid - 1;
        }
        r = a;
        owned = __ldg(rowptr + r) == lo;  // the row starts in this thread's entries
        int row_end = __ldg(rowptr + r + 1);
        int c[K];
        float v[K];
        if (hi - lo == K) {  // lo % 16 == 0 and the buffers are 16-byte aligned
#pragma unroll
            for (int q = 0; q < K; q += 4) {
                const int4 ci = __ldcs(reinterpret_cast<const int4*>(col + lo + q));
                const float4 vf = __ldcs(reinterpret_cast<const float4*>(val + lo + q));
                c[q] = ci.x; c[q + 1] = ci.y; c[q + 2] = ci.z; c[q + 3] = ci.w;
                v[q] = vf.x; v[q + 1] = vf.y; v[q + 2] = vf.z; v[q + 3] = vf.w;
            }
        } else {
#pragma unroll
            for (int q = 0; q < K; ++q) {
                c[q] = lo + q < hi ? col[lo + q] : 0;
                v[q] = lo + q < hi ? val[lo + q] : 0.0f;
            }
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
            sum = fmaf(v[q], __ldg(x + c[q]), sum);
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
    cudaMemsetAsync(y, 0, sizeof(float) * m, 0);
    const long long threads = ((long long)nnz + K - 1) / K;
    const int blocks = (int)((threads + THREADS - 1) / THREADS);
    spmv_chunks<<<blocks, THREADS>>>(rowptr, col, val, x, y, m, nnz);
}
