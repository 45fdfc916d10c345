// Argmax of each row at memory speed: one block of 256 threads per row, 128-bit loads, four
// of them in flight per thread per iteration (16 KB per block per iteration), and a warp-
// shuffle reduction of (value, index) pairs instead of a shared-memory tree.
//
// Ties: each thread sees its columns in increasing order and replaces its best only on a
// strictly larger value, so it keeps its first maximum; every merge prefers the smaller index
// on equal values; so the row's first maximum wins. Rows whose length is not a multiple of 4
// are not 16-byte aligned (row i starts at x + i * n), so they take a scalar loop instead.
#include <cuda_runtime.h>

constexpr int THREADS = 256;
constexpr int UNROLL = 4;

struct Best {
    float v;
    int i;
};

__device__ __forceinline__ void take(Best& b, float v, int i) {
    if (v > b.v || (v == b.v && i < b.i)) {
        b.v = v;
        b.i = i;
    }
}

__device__ __forceinline__ Best warp_best(Best b) {
#pragma unroll
    for (int off = 16; off > 0; off >>= 1) {
        float v = __shfl_xor_sync(0xffffffffu, b.v, off);
        int i = __shfl_xor_sync(0xffffffffu, b.i, off);
        take(b, v, i);
    }
    return b;
}

__global__ void __launch_bounds__(THREADS) argmax_rows(const float* __restrict__ x,
                                                      int* __restrict__ idx, int n) {
    const float* row = x + (size_t)blockIdx.x * n;
    // -inf with index n ("none"): any real column wins against it, even a -inf one.
    Best b{-__int_as_float(0x7f800000), n};
    if ((n & 3) == 0) {
        const float4* row4 = reinterpret_cast<const float4*>(row);
        int groups = n >> 2;
        int g = threadIdx.x;
        for (; g + (UNROLL - 1) * THREADS < groups; g += UNROLL * THREADS) {
            float4 q[UNROLL];
#pragma unroll
            for (int u = 0; u < UNROLL; ++u) q[u] = __ldcs(row4 + g + u * THREADS);
#pragma unroll
            for (int u = 0; u < UNROLL; ++u) {
                int c = (g + u * THREADS) * 4;
                take(b, q[u].x, c);
                take(b, q[u].y, c + 1);
                take(b, q[u].z, c + 2);
                take(b, q[u].w, c + 3);
            }
        }
        for (; g < groups; g += THREADS) {
            float4 q = __ldcs(row4 + g);
            int c = g * 4;
            take(b, q.x, c);
            take(b, q.y, c + 1);
            take(b, q.z, c + 2);
            take(b, q.w, c + 3);
        }
    } else {
        for (int j = threadIdx.x; j < n; j += THREADS) take(b, row[j], j);
    }
    __shared__ Best per_warp[THREADS / 32];
    b = warp_best(b);
    int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    if (lane == 0) per_warp[warp] = b;
    __syncthreads();
    if (warp == 0) {
        b = lane < THREADS / 32 ? per_warp[lane] : Best{-__int_as_float(0x7f800000), n};
        b = warp_best(b);
        if (lane == 0) idx[blockIdx.x] = b.i;
    }
}

extern "C" void solve(const float* x, int* idx, int m, int n) {
    argmax_rows<<<m, THREADS>>>(x, idx, n);
}
