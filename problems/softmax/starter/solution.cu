#include <cuda_runtime.h>

__global__ void softmax_kernel(const float* x, float* y, int rows, int cols) {
    // TODO: one block per row (row = blockIdx.x); the row starts at x + (size_t)row * cols.
    //   1. the row's maximum m (each thread scans its columns, then a block reduction)
    //   2. s = sum of expf(x[j] - m) over the row (another block reduction)
    //   3. y[j] = expf(x[j] - m) / s
}

// x and y are device pointers to rows x cols floats, row-major.
extern "C" void solve(const float* x, float* y, int rows, int cols) {
    int threads = 256;
    softmax_kernel<<<rows, threads>>>(x, y, rows, cols);
}
