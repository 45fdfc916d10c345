// expect: runtime_error
// On an H100 this is an illegal memory access (CUDA error 700), measured 2026-11-25: the last
// tiles read past the end of x and write rows past y's guard band into memory that is not
// mapped. A learner meets this bug as a crash, not a wrong value.
// Bug: the shared-memory tile is filled and written back with no bounds checks. The grid is
// rounded up, as it should be, so where m or n is not a multiple of 32 the last tiles write
// rows past the end of y and columns past the end of y's rows. Right only when both m and
// n are multiples of 32. The fix: if (row + k < m && col < n) on the load and
// if (yrow + k < n && ycol < m) on the store.
#include <cuda_runtime.h>

constexpr int TILE = 32;
constexpr int ROWS = 8;

__global__ void transpose_padded(const float* x, float* y, int m, int n) {
    __shared__ float tile[TILE][TILE + 1];
    int col = blockIdx.x * TILE + threadIdx.x;
    int row = blockIdx.y * TILE + threadIdx.y;
    for (int k = 0; k < TILE; k += ROWS) tile[threadIdx.y + k][threadIdx.x] = x[(long long)(row + k) * n + col];
    __syncthreads();
    int ycol = blockIdx.y * TILE + threadIdx.x;
    int yrow = blockIdx.x * TILE + threadIdx.y;
    for (int k = 0; k < TILE; k += ROWS)  // BUG: no bounds checks
        y[(long long)(yrow + k) * m + ycol] = tile[threadIdx.x][threadIdx.y + k];
}

extern "C" void solve(const float* x, float* y, int m, int n) {
    dim3 grid((n + TILE - 1) / TILE, (m + TILE - 1) / TILE);
    transpose_padded<<<grid, dim3(TILE, ROWS)>>>(x, y, m, n);
}
