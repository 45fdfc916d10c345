// Shared-memory tiled int8 GEMM with a scaling epilogue: each 16 x 16 block of threads computes
// a 16 x 16 tile of c, walking k in steps of 16. Tiles of a (16 rows of m) and b (16 rows of n,
// since b is stored n x k) are staged in shared memory as int; every thread sums its products in
// an int32 register (exact), then c = (float)sum * sa[row] * sb[col] in float32, rounded to bf16
// once. Elements past the edges load as 0; the store is guarded by row < m && col < n.
#include <cuda_runtime.h>
#include <cuda_bf16.h>

#define TILE 16

__global__ void gemm_tiled(const signed char* a, const signed char* b, const float* sa,
                           const float* sb, __nv_bfloat16* c, int m, int n, int k) {
    __shared__ int as[TILE][TILE + 1];
    __shared__ int bs[TILE][TILE + 1];
    int row = blockIdx.y * TILE + threadIdx.y;
    int col = blockIdx.x * TILE + threadIdx.x;
    int brow = blockIdx.x * TILE + threadIdx.y;  // the row of b (= column of c) this thread loads
    int acc = 0;
    for (int k0 = 0; k0 < k; k0 += TILE) {
        int kk = k0 + threadIdx.x;
        as[threadIdx.y][threadIdx.x] = (row < m && kk < k) ? a[(size_t)row * k + kk] : 0;
        bs[threadIdx.y][threadIdx.x] = (brow < n && kk < k) ? b[(size_t)brow * k + kk] : 0;
        __syncthreads();
#pragma unroll
        for (int l = 0; l < TILE; ++l) acc += as[threadIdx.y][l] * bs[threadIdx.x][l];
        __syncthreads();
    }
    if (row < m && col < n)
        c[(size_t)row * n + col] = __float2bfloat16_rn((float)acc * sa[row] * sb[col]);
}

extern "C" void solve(const signed char* a, const signed char* b, const float* sa,
                      const float* sb, __nv_bfloat16* c, int m, int n, int k) {
    dim3 block(TILE, TILE);
    dim3 grid((n + TILE - 1) / TILE, (m + TILE - 1) / TILE);
    gemm_tiled<<<grid, block>>>(a, b, sa, sb, c, m, n, k);
}
