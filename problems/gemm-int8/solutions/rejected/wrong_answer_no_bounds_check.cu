// expect: wrong_answer
// expect-message: c: wrote past the end
// Bug: the tiled kernel guards its loads (elements past the edges load as 0) but not its
// store: the `if (row < m && col < n)` before writing c is missing, and so are the guards on
// sa[row] and sb[col]. Threads of an edge block whose col >= n write into the next row of c, and
// those whose row >= m write past the end of c. Right only when m and n are multiples of 16.
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
    c[(size_t)row * n + col] = __float2bfloat16_rn((float)acc * sa[row] * sb[col]);
}

extern "C" void solve(const signed char* a, const signed char* b, const float* sa,
                      const float* sb, __nv_bfloat16* c, int m, int n, int k) {
    dim3 block(TILE, TILE);
    dim3 grid((n + TILE - 1) / TILE, (m + TILE - 1) / TILE);
    gemm_tiled<<<grid, block>>>(a, b, sa, sb, c, m, n, k);
}
