// expect: wrong_answer
// expect-message: c: wrote past the end
// Bug: the shared-memory tiled kernel guards its loads (elements past the edges of a and b
// load as 0) but not its store: the `if (row < m && col < n)` before writing c is missing.
// Threads of an edge block whose col >= n write 0 into the next row of c (racing with the
// block that owns it), and those whose row >= m write past the end of c. Right only when
// m and n are multiples of 16.
#include <cuda_runtime.h>

#define TILE 16

__global__ void matmul_tiled(const float* a, const float* b, float* c, int m, int n, int k) {
    __shared__ float as[TILE][TILE];
    __shared__ float bs[TILE][TILE + 1];
    int row = blockIdx.y * TILE + threadIdx.y;
    int col = blockIdx.x * TILE + threadIdx.x;
    float acc = 0.0f;
    for (int k0 = 0; k0 < k; k0 += TILE) {
        int ka = k0 + threadIdx.x, kb = k0 + threadIdx.y;
        as[threadIdx.y][threadIdx.x] = (row < m && ka < k) ? a[(size_t)row * k + ka] : 0.0f;
        bs[threadIdx.y][threadIdx.x] = (kb < k && col < n) ? b[(size_t)kb * n + col] : 0.0f;
        __syncthreads();
        for (int i = 0; i < TILE; ++i) acc += as[threadIdx.y][i] * bs[i][threadIdx.x];
        __syncthreads();
    }
    c[(size_t)row * n + col] = acc;  // BUG: needs if (row < m && col < n)
}

extern "C" void solve(const float* a, const float* b, float* c, int m, int n, int k) {
    dim3 block(TILE, TILE);
    dim3 grid((n + TILE - 1) / TILE, (m + TILE - 1) / TILE);
    matmul_tiled<<<grid, block>>>(a, b, c, m, n, k);
}
