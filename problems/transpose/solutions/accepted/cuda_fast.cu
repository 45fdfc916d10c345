// Matrix transpose at memory speed: a padded shared-memory tile, coalesced on both sides.
//
// A 32 x 8 block moves a 32 x 32 tile (4 elements per thread, all four loads issued before
// the barrier). Reads from x go along its rows and writes to y along its rows, so every
// warp touches 128 consecutive bytes on both sides. The tile is 32 x 33 floats: the extra
// column shifts each row by one bank, so the 32 words of a tile column fall in 32 different
// banks and the column-wise reads in the second phase are conflict-free (compare
// cuda_tiled_bank_conflicts.cu). Tiles go along x's rows in blockIdx.x, so neighbouring
// blocks read neighbouring columns of the same rows of x.
#include <cuda_runtime.h>

constexpr int TILE = 32;
constexpr int ROWS = 8;

__global__ void __launch_bounds__(TILE * ROWS)
transpose_padded(const float* __restrict__ x, float* __restrict__ y, int m, int n) {
    __shared__ float tile[TILE][TILE + 1];
    const int col = blockIdx.x * TILE + threadIdx.x;
    const int row = blockIdx.y * TILE + threadIdx.y;
    if (col < n) {
#pragma unroll
        for (int k = 0; k < TILE; k += ROWS)
            if (row + k < m) tile[threadIdx.y + k][threadIdx.x] = __ldg(x + (long long)(row + k) * n + col);
    }
    __syncthreads();
    const int ycol = blockIdx.y * TILE + threadIdx.x;  // column of y = row of x
    const int yrow = blockIdx.x * TILE + threadIdx.y;  // row of y = column of x
    if (ycol < m) {
#pragma unroll
        for (int k = 0; k < TILE; k += ROWS)
            if (yrow + k < n) y[(long long)(yrow + k) * m + ycol] = tile[threadIdx.x][threadIdx.y + k];
    }
}

extern "C" void solve(const float* x, float* y, int m, int n) {
    dim3 grid((n + TILE - 1) / TILE, (m + TILE - 1) / TILE);
    transpose_padded<<<grid, dim3(TILE, ROWS)>>>(x, y, m, n);
}
