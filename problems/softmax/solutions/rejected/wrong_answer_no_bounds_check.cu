// expect: wrong_answer
// expect-message: y: wrote past the end
// Bug: each of the 256 threads of a row's block takes per = ceil(cols / 256) consecutive
// columns (rounded up, correctly), but nothing checks that a column is < cols. Threads at
// the end of a row read and write past it: into the next row (garbage in its max and sum,
// and writes that race with its own block), and the last row writes past the end of y.
// Right only when cols is a multiple of 256.
#include <cuda_runtime.h>
#include <math.h>

constexpr int THREADS = 256;

__global__ void softmax_kernel(const float* x, float* y, int cols) {
    __shared__ float s[THREADS];
    const float* xr = x + (size_t)blockIdx.x * cols;
    float* yr = y + (size_t)blockIdx.x * cols;
    const int per = (cols + THREADS - 1) / THREADS;
    const int begin = threadIdx.x * per;

    float m = -INFINITY;
    for (int k = 0; k < per; ++k) m = fmaxf(m, xr[begin + k]);  // BUG: no begin + k < cols
    s[threadIdx.x] = m;
    __syncthreads();
    for (int stride = THREADS / 2; stride > 0; stride /= 2) {
        if (threadIdx.x < stride) s[threadIdx.x] = fmaxf(s[threadIdx.x], s[threadIdx.x + stride]);
        __syncthreads();
    }
    const float row_max = s[0];
    __syncthreads();

    float sum = 0.0f;
    for (int k = 0; k < per; ++k) sum += expf(xr[begin + k] - row_max);
    s[threadIdx.x] = sum;
    __syncthreads();
    for (int stride = THREADS / 2; stride > 0; stride /= 2) {
        if (threadIdx.x < stride) s[threadIdx.x] += s[threadIdx.x + stride];
        __syncthreads();
    }
    const float inv_sum = 1.0f / s[0];
    for (int k = 0; k < per; ++k) yr[begin + k] = expf(xr[begin + k] - row_max) * inv_sum;
}

extern "C" void solve(const float* x, float* y, int rows, int cols) {
    softmax_kernel<<<rows, THREADS>>>(x, y, cols);
}
