// Matrix transpose, the straightforward way: one thread per element, in 32 x 8 blocks laid
// over x. A warp reads 32 consecutive floats of a row of x (coalesced) and writes them down
// a column of y, 32 floats m apart (32 separate memory transactions).
#include <cuda_runtime.h>

__global__ void transpose_naive(const float* x, float* y, int m, int n) {
    int col = blockIdx.x * blockDim.x + threadIdx.x;  // column of x
    int row = blockIdx.y * blockDim.y + threadIdx.y;  // row of x
    if (row < m && col < n) y[(long long)col * m + row] = x[(long long)row * n + col];
}

extern "C" void solve(const float* x, float* y, int m, int n) {
    dim3 block(32, 8);
    dim3 grid((n + block.x - 1) / block.x, (m + block.y - 1) / block.y);
    transpose_naive<<<grid, block>>>(x, y, m, n);
}
