// expect: time_limit_exceeded
// Spins forever on a flag nobody sets. The flag is volatile, so every iteration really
// reads memory and the compiler cannot remove the loop.
#include <cuda_runtime.h>

__device__ volatile int g_never_set = 0;

__global__ void add_kernel(const float* a, const float* b, float* c, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    while (g_never_set == 0) {
    }
    if (i < n) c[i] = a[i] + b[i];
}

extern "C" void solve(const float* a, const float* b, float* c, int n) {
    add_kernel<<<(n + 255) / 256, 256>>>(a, b, c, n);
}
