// expect: time_limit_exceeded
// Spins forever on a flag nobody sets. The flag is volatile, so every iteration really
// reads memory and the compiler cannot remove the loop.
#include <cuda_runtime.h>
#include <math.h>

__device__ volatile int g_never_set = 0;

__global__ void softmax_kernel(const float* x, float* y, int cols) {
    while (g_never_set == 0) {
    }
    const float* xr = x + (size_t)blockIdx.x * cols;
    float* yr = y + (size_t)blockIdx.x * cols;
    for (int j = threadIdx.x; j < cols; j += blockDim.x) yr[j] = expf(xr[j]);
}

extern "C" void solve(const float* x, float* y, int rows, int cols) {
    softmax_kernel<<<rows, 256>>>(x, y, cols);
}
