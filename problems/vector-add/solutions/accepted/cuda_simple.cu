// Vector addition, the straightforward way: one thread per element.
#include <cuda_runtime.h>

__global__ void add_kernel(const float* a, const float* b, float* c, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {  // the last block may run past the end
        c[i] = a[i] + b[i];
    }
}

extern "C" void solve(const float* a, const float* b, float* c, int n) {
    int threads = 256;
    int blocks = (n + threads - 1) / threads;  // round up, not down
    add_kernel<<<blocks, threads>>>(a, b, c, n);
}
