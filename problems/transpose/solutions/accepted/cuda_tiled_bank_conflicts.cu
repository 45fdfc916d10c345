// Matrix transpose through a shared-memory tile, without padding: right, but it shows what
// bank conflicts cost.
//
// A 32 x 8 block moves a 32 x 32 tile: it reads the tile from x row by row (coalesced) into
// shared memory, and writes it to y row by row (coalesced) reading the tile column by column.
// Shared memory has 32 banks of 4-byte words; word k is in bank k % 32. A tile row is 32
// words, so all of a column's 32 words sit in the same bank, and the warp reading a column
// waits for 32 bank accesses one after another. cuda_fast.cu pads each row to 33 words, which
// spreads a column over all 32 banks.
#include <cuda_runtime.h>

constexpr int TILE = 32;
constexpr int ROWS = 8;  // threads per block in y; each thread moves TILE / ROWS elements

__global__ void transpose_tiled(const float* __restrict__ x, float* __restrict__ y, int m, int n) {
    __shared__ float tile[TILE][TILE];  // no padding: every column in one bank
    int col = blockIdx.x * TILE + threadIdx.x;
    int row = blockIdx.y * TILE + threadIdx.y;
    for (int k = 0; k < TILE; k += ROWS)
        if (row + k < m && col < n) tile[threadIdx.y + k][threadIdx.x] = x[(long long)(row + k) * n + col];
    __syncthreads();
    // y's tile (blockIdx.x, blockIdx.y): rows of y are columns of x.
    int ycol = blockIdx.y * TILE + threadIdx.x;  // a row of x
    int yrow = blockIdx.x * TILE + threadIdx.y;  // a column of x
    for (int k = 0; k < TILE; k += ROWS)
        if (yrow + k < n && ycol < m) y[(long long)(yrow + k) * m + ycol] = tile[threadIdx.x][threadIdx.y + k];
}

extern "C" void solve(const float* x, float* y, int m, int n) {
    dim3 grid((n + TILE - 1) / TILE, (m + TILE - 1) / TILE);
    transpose_tiled<<<grid, dim3(TILE, ROWS)>>>(x, y, m, n);
}
