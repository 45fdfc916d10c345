// expect: runtime_error
// Reads far past the end of x (2^36 floats = 256 GiB beyond it, where nothing is mapped):
// the kernel dies with an illegal memory access.
#include <cuda_runtime.h>

__global__ void sum_kernel(const float* x, float* out, int n) {
    long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) atomicAdd(out, x[i + (1LL << 36)]);
}

extern "C" void solve(const float* x, float* out, int n) {
    cudaMemsetAsync(out, 0, sizeof(float));
    sum_kernel<<<(n + 255) / 256, 256>>>(x, out, n);
}
