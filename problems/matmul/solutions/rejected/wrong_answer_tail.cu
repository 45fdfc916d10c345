// expect: wrong_answer
// Bug: the tiled kernel assumes k is a multiple of TILE. The k loop runs k / TILE steps, so the
// last k % TILE products are never added (for k < 16, none at all). Rows and columns are
// guarded, so nothing is read or written out of bounds: the answer is just wrong.
#include <cuda_runtime.h>

#define TILE 16

__global__ void matmul_tiled(const float* a, const float* b, float* c, int m, int n, int k) {
    __shared__ float as[TILE][TILE];
    __shared__ float bs[TILE][TILE + 1];
    int row = blockIdx.y * TILE + threadIdx.y;
    int col = blockIdx.x * TILE + threadIdx.x;
    float acc = 0.0f;
    for (int t = 0; t < k / TILE; ++t) {  // BUG: should be (k + TILE - 1) / TILE, guarding k
        int ka = t * TILE + threadIdx.x, kb = t * TILE + threadIdx.y;
        as[threadIdx.y][threadIdx.x] = row < m ? a[(size_t)row * k + ka] : 0.0f;
        bs[threadIdx.y][threadIdx.x] = col < n ? b[(size_t)kb * n + col] : 0.0f;
        __syncthreads();
        for (int i = 0; i < TILE; ++i) acc += as[threadIdx.y][i] * bs[i][threadIdx.x];
        __syncthreads();
    }
    if (row < m && col < n) c[(size_t)row * n + col] = acc;
}

extern "C" void solve(const float* a, const float* b, float* c, int m, int n, int k) {
    dim3 block(TILE, TILE);
    dim3 grid((n + TILE - 1) / TILE, (m + TILE - 1) / TILE);
    matmul_tiled<<<grid, block>>>(a, b, c, m, n, k);
}
