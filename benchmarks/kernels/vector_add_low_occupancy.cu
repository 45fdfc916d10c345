// A correct vector add written to be slow for one reason only, for the profile's hints
// (benchmarks/profile_latency.py): each 64-thread block asks for 160 KiB of dynamic shared
// memory, so an SM holds one block (2 of its 64 warp slots) and too few loads are in flight.
// Nsight Compute should find occupancy limited by shared memory.
#include <cuda_runtime.h>

__global__ void add_big_smem(const float* a, const float* b, float* c, int n) {
    extern __shared__ float staged[];
    int stride = gridDim.x * blockDim.x;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
        staged[threadIdx.x] = a[i] + b[i];
        c[i] = staged[threadIdx.x];
    }
}

extern "C" void solve(const float* a, const float* b, float* c, int n) {
    const int smem = 160 * 1024;
    cudaFuncSetAttribute(add_big_smem, cudaFuncAttributeMaxDynamicSharedMemorySize, smem);
    int blocks = (n + 63) / 64;
    if (blocks > 132 * 4) blocks = 132 * 4;
    add_big_smem<<<blocks, 64, smem>>>(a, b, c, n);
}
