// Row-wise softmax, the straightforward way: one block of 256 threads per row and three
// passes over the row: the maximum, the sum of exp(x - max), then the outputs. Each
// reduction goes through shared memory as a tree. Subtracting the maximum keeps exp from
// overflowing. Works for any number of columns; the grid is 1-D, so any number of rows.
#include <cuda_runtime.h>

constexpr int THREADS = 256;

__global__ void softmax_kernel(const float* x, float* y, int cols) {
    __shared__ float s[THREADS];
    const float* xr = x + (size_t)blockIdx.x * cols;
    float* yr = y + (size_t)blockIdx.x * cols;

    float m = -INFINITY;
    for (int j = threadIdx.x; j < cols; j += THREADS) m = fmaxf(m, xr[j]);
    s[threadIdx.x] = m;
    __syncthreads();
    for (int stride = THREADS / 2; stride > 0; stride /= 2) {
        if (threadIdx.x < stride) s[threadIdx.x] = fmaxf(s[threadIdx.x], s[threadIdx.x + stride]);
        __syncthreads();
    }
    float row_max = s[0];
    __syncthreads();  // everyone has read s[0] before it is reused

    float sum = 0.0f;
    for (int j = threadIdx.x; j < cols; j += THREADS) sum += expf(xr[j] - row_max);
    s[threadIdx.x] = sum;
    __syncthreads();
    for (int stride = THREADS / 2; stride > 0; stride /= 2) {
        if (threadIdx.x < stride) s[threadIdx.x] += s[threadIdx.x + stride];
        __syncthreads();
    }
    float inv_sum = 1.0f / s[0];

    for (int j = threadIdx.x; j < cols; j += THREADS) yr[j] = expf(xr[j] - row_max) * inv_sum;
}

extern "C" void solve(const float* x, float* y, int rows, int cols) {
    softmax_kernel<<<rows, THREADS>>>(x, y, cols);
}
