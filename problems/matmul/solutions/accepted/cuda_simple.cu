// Shared-memory tiled matmul in float32 (no tensor cores).
//
// Each 16 x 16 thread block computes a 16 x 16 tile of c. It walks over k in steps of TILE,
// staging a TILE x TILE tile of a and of b in shared memory so that each element loaded from
// global memory is used TILE times. Elements past the edges of a or b load as 0, which adds
// nothing to the sum, so m, n and k may be anything.
#include <cuda_runtime.h>

#define TILE 16

__global__ void matmul_tiled(const float* __restrict__ a, const float* __restrict__ b,
                             float* __restrict__ c, int m, int n, int k) {
    __shared__ float as[TILE][TILE];
    __shared__ float bs[TILE][TILE + 1];  // +1: no bank conflicts on the column reads

    int row = blockIdx.y * TILE + threadIdx.y;
    int col = blockIdx.x * TILE + threadIdx.x;
    float acc = 0.0f;

    for (int k0 = 0; k0 < k; k0 += TILE) {
        int ka = k0 + threadIdx.x;  // column of a this thread loads
        int kb = k0 + threadIdx.y;  // row of b this thread loads
        as[threadIdx.y][threadIdx.x] = (row < m && ka < k) ? a[(size_t)row * k + ka] : 0.0f;
        bs[threadIdx.y][threadIdx.x] = (kb < k && col < n) ? b[(size_t)kb * n + col] : 0.0f;
        __syncthreads();
#pragma unroll
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
