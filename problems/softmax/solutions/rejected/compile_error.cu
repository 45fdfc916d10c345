// expect: compile_error
// Calls a function that does not exist (expf4) and is missing a semicolon.
#include <cuda_runtime.h>
#include <math.h>

__global__ void softmax_kernel(const float* x, float* y, int cols) {
    const float* xr = x + (size_t)blockIdx.x * cols;
    float* yr = y + (size_t)blockIdx.x * cols;
    for (int j = threadIdx.x; j < cols; j += blockDim.x) {
        yr[j] = expf4(xr[j])
    }
}

extern "C" void solve(const float* x, float* y, int rows, int cols) {
    softmax_kernel<<<rows, 256>>>(x, y, cols);
}
