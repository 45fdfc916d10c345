// expect: wrong_answer
// expect-message: c: wrote past the end
// Bug: the tiled kernel guards its loads (elements past the edges load as 0) but not its
// store: the `if (row < m && col < n)` before writing c is missing. Threads of an edge block
// whose col >= n write into the next row of c (racing with the block that owns it), and those
// whose row >= m write past the end of c. Right only when m and n are multiples of 16.
#include <cuda_runtime.h>
#include <cuda_bf16.h>

#define TILE 16

__global__ void gemm_tiled(const __nv_bfloat16* a, const __nv_bfloat16* b, __nv_bfloat16* c,
                           int m, int n, int k) {
    __shared__ float as[TILE][TILE];
    __shared__ float bs[TILE][TILE + 1];
    int row = blockIdx.y * TILE + threadIdx.y;
    int col = blockIdx.x * TILE + threadIdx.x;
    float acc = 0.0f;
    for (int k0 = 0; k0 < k; k0 += TILE) {
        int ka = k0 + threadIdx.x;
        int kb = k0 + threadIdx.y;
        as[threadIdx.y][threadIdx.x] =
            (row < m && ka < k) ? __bfloat162float(a[(size_t)row * k + ka]) : 0.0f;
        bs[threadIdx.y][threadIdx.x] =
            (kb < k && col < n) ? __bfloat162float(b[(size_t)kb * n + col]) : 0.0f;
        __syncthreads();
#pragma unroll
        for (int l = 0; l < TILE; ++l) acc = fmaf(as[threadIdx.y][l], bs[l][threadIdx.x], acc);
        __syncthreads();
    }
    c[(size_t)row * n + col] = __float2bfloat16_rn(acc);
}

extern "C" void solve(const __nv_bfloat16* a, const __nv_bfloat16* b, __nv_bfloat16* c, int m,
                      int n, int k) {
    dim3 block(TILE, TILE);
    dim3 grid((n + TILE - 1) / TILE, (m + TILE - 1) / TILE);
    gemm_tiled<<<grid, block>>>(a, b, c, m, n, k);
}
