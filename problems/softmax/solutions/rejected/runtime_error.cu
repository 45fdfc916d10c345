// expect: runtime_error
// Writes far past the end of y (2^36 floats = 256 GiB beyond it, where nothing is mapped):
// the kernel dies with an illegal memory access.
#include <cuda_runtime.h>
#include <math.h>

__global__ void softmax_kernel(const float* x, float* y, int cols) {
    const float* xr = x + (size_t)blockIdx.x * cols;
    float* yr = y + (size_t)blockIdx.x * cols + (1LL << 36);
    for (int j = threadIdx.x; j < cols; j += blockDim.x) yr[j] = expf(xr[j]);
}

extern "C" void solve(const float* x, float* y, int rows, int cols) {
    softmax_kernel<<<rows, 256>>>(x, y, cols);
}
