// expect: runtime_error
// Writes far past the end of c (2^36 floats = 256 GiB beyond it, where nothing is mapped):
// the kernel dies with an illegal memory access.
#include <cuda_runtime.h>

__global__ void add_kernel(const float* a, const float* b, float* c, int n) {
    long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        c[i + (1LL << 36)] = a[i] + b[i];
    }
}

extern "C" void solve(const float* a, const float* b, float* c, int n) {
    add_kernel<<<(n + 255) / 256, 256>>>(a, b, c, n);
}
