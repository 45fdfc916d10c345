// Block-scaled fp8 GEMM with float32 FMAs, shared-memory tiled: each 16 x 16 block of threads
// computes a 16 x 16 tile of c, walking k in steps of 16 (eight steps per 128-wide scale block).
// Tiles of a and b (b stored n x k) are staged in shared memory as float (an e4m3 value converts
// exactly). Each thread sums the current scale block's products in `part`; at the end of every
// block (and of k) it adds part * sa[row, t] * sb[col / 128, t] to its float32 accumulator and
// starts a new part. c is rounded to bf16 once; elements past the edges load as 0 and the store
// and the scale reads are guarded.
#include <cuda_runtime.h>
#include <cuda_bf16.h>
#include <cuda_fp8.h>

#define TILE 16
#define SCALE_K 128

__global__ void gemm_tiled(const __nv_fp8_e4m3* a, const __nv_fp8_e4m3* b, const float* sa,
                           const float* sb, __nv_bfloat16* c, int m, int n, int k) {
    __shared__ float as[TILE][TILE + 1];
    __shared__ float bs[TILE][TILE + 1];
    const int row = blockIdx.y * TILE + threadIdx.y;
    const int col = blockIdx.x * TILE + threadIdx.x;
    const int brow = blockIdx.x * TILE + threadIdx.y;  // the row of b this thread loads
    const int kb = (k + SCALE_K - 1) / SCALE_K;
    float acc = 0.0f, part = 0.0f;
    for (int k0 = 0; k0 < k; k0 += TILE) {
        int kk = k0 + threadIdx.x;
        as[threadIdx.y][threadIdx.x] = (row < m && kk < k) ? float(a[(size_t)row * k + kk]) : 0.0f;
        bs[threadIdx.y][threadIdx.x] = (brow < n && kk < k) ? float(b[(size_t)brow * k + kk]) : 0.0f;
        __syncthreads();
#pragma unroll
        for (int l = 0; l < TILE; ++l) part = fmaf(as[threadIdx.y][l], bs[threadIdx.x][l], part);
        __syncthreads();
        const int t = k0 / SCALE_K;
        if ((k0 + TILE) % SCALE_K == 0 || k0 + TILE >= k) {  // the end of block t
            if (row < m && col < n) acc += part * sa[(size_t)row * kb + t] * sb[(size_t)(col / SCALE_K) * kb + t];
            part = 0.0f;
        }
    }
    if (row < m && col < n) c[(size_t)row * n + col] = __float2bfloat16_rn(acc);
}

extern "C" void solve(const __nv_fp8_e4m3* a, const __nv_fp8_e4m3* b, const float* sa,
                      const float* sb, __nv_bfloat16* c, int m, int n, int k) {
    dim3 block(TILE, TILE);
    dim3 grid((n + TILE - 1) / TILE, (m + TILE - 1) / TILE);
    gemm_tiled<<<grid, block>>>(a, b, sa, sb, c, m, n, k);
}
