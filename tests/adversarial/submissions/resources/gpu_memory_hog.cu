// Threat class 9 (resource attack) from CUDA, past any allocator cap: the first call cudaMallocs
// 1 GiB blocks until the device refuses, keeps them, and computes honestly. The referee
// measures the runner's GPU memory itself (gpumem.py): memory_limit_exceeded, and the next
// submission on the worker is graded and timed as before.
// expect: GPU memory_limit_exceeded; CPU not_run
#include <cuda_runtime.h>

__global__ void add(const float* a, const float* b, float* c, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) c[i] = a[i] + b[i];
}

extern "C" void solve(const float* a, const float* b, float* c, int n) {
    static bool hoarded = false;
    if (!hoarded) {
        hoarded = true;
        void* p;
        while (cudaMalloc(&p, size_t(1) << 30) == cudaSuccess) {
        }
        cudaGetLastError();  // the refusal is expected: clear it
    }
    add<<<(n + 255) / 256, 256>>>(a, b, c, n);
}
