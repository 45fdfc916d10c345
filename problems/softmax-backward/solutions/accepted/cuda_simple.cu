// Softmax backward, the straightforward way: one block of 256 threads per row and two passes
// over the row. Pass 1: each thread adds up dy·y over its strided columns, and the block
// combines the 256 partial sums in shared memory as a tree, giving s. Pass 2: every thread
// writes dx = y·(dy - s) for its columns. Works for any number of columns; the grid is 1-D,
// so any number of rows.
#include <cuda_runtime.h>

constexpr int THREADS = 256;

__global__ void softmax_bwd_kernel(const float* y, const float* dy, float* dx, int cols) {
    __shared__ float part[THREADS];
    const size_t base = (size_t)blockIdx.x * cols;

    float acc = 0.0f;
    for (int j = threadIdx.x; j < cols; j += THREADS) acc += y[base + j] * dy[base + j];
    part[threadIdx.x] = acc;
    __syncthreads();
    for (int stride = THREADS / 2; stride > 0; stride /= 2) {
        if (threadIdx.x < stride) part[threadIdx.x] += part[threadIdx.x + stride];
        __syncthreads();
    }
    const float s = part[0];

    for (int j = threadIdx.x; j < cols; j += THREADS) dx[base + j] = y[base + j] * (dy[base + j] - s);
}

extern "C" void solve(const float* y, const float* dy, float* dx, int rows, int cols) {
    softmax_bwd_kernel<<<rows, THREADS>>>(y, dy, dx, cols);
}
