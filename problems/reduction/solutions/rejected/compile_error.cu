// expect: compile_error
// Uses an undeclared identifier (warpSize_t) and calls __shfl_down_sync with too few
// arguments.
#include <cuda_runtime.h>

__global__ void sum_kernel(const float* x, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = i < n ? x[i] : 0.0f;
    for (int off = warpSize_t / 2; off > 0; off /= 2) v += __shfl_down_sync(v, off);
    if ((threadIdx.x & 31) == 0) atomicAdd(out, v);
}

extern "C" void solve(const float* x, float* out, int n) {
    cudaMemsetAsync(out, 0, sizeof(float));
    sum_kernel<<<(n + 255) / 256, 256>>>(x, out, n);
}
