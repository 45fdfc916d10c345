// expect: time_limit_exceeded
// Spins forever on a flag nobody sets. The flag is volatile, so every iteration really
// reads memory and the compiler cannot remove the loop.
#include <cuda_runtime.h>

__device__ volatile int g_never_set = 0;

__global__ void sum_kernel(const float* x, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    while (g_never_set == 0) {
    }
    if (i < n) atomicAdd(out, x[i]);
}

extern "C" void solve(const float* x, float* out, int n) {
    cudaMemsetAsync(out, 0, sizeof(float));
    sum_kernel<<<(n + 255) / 256, 256>>>(x, out, n);
}
