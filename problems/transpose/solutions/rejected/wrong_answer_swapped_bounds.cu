// expect: wrong_answer
// Bug: the write phase checks its indices against the read phase's bounds. After the tile
// goes through shared memory, a thread writes row yrow of y (a column of x, < n) and column
// ycol (a row of x, < m); this kernel tests yrow against m and ycol against n, as it did
// when reading x. Square matrices pass; on an m x n matrix with m != n it skips elements it
// must write (they stay NaN) and writes past y's rows where it must not. The fix:
// yrow + k < n && ycol < m.
#include <cuda_runtime.h>

constexpr int TILE = 32;
constexpr int ROWS = 8;

__global__ void transpose_padded(const float* x, float* y, int m, int n) {
    __shared__ float tile[TILE][TILE + 1];
    int col = blockIdx.x * TILE + threadIdx.x;
    int row = blockIdx.y * TILE + threadIdx.y;
    for (int k = 0; k < TILE; k += ROWS)
        if (row + k < m && col < n) tile[threadIdx.y + k][threadIdx.x] = x[(long long)(row + k) * n + col];
    __syncthreads();
    int ycol = blockIdx.y * TILE + threadIdx.x;
    int yrow = blockIdx.x * TILE + threadIdx.y;
    for (int k = 0; k < TILE; k += ROWS)
        if (yrow + k < m && ycol < n)  // BUG: should be yrow + k < n && ycol < m
            y[(long long)(yrow + k) * m + ycol] = tile[threadIdx.x][threadIdx.y + k];
}

extern "C" void solve(const float* x, float* y, int m, int n) {
    dim3 grid((n + TILE - 1) / TILE, (m + TILE - 1) / TILE);
    transpose_padded<<<grid, dim3(TILE, ROWS)>>>(x, y, m, n);
}
