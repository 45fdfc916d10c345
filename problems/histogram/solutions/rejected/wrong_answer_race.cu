// expect: wrong_answer
// Bug: a block-private histogram in shared memory, incremented with a plain ++ instead of
// atomicAdd. Threads of a block holding the same byte read the same count and write back the
// same count + 1: increments are lost, most of all on the 90%-one-value input. (The adds of
// the block totals into global memory are atomic; the race is inside the block.)
#include <cuda_runtime.h>

__global__ void histogram(const unsigned char* data, int* bins, int n) {
    __shared__ int hist[256];
    for (int v = threadIdx.x; v < 256; v += blockDim.x) hist[v] = 0;
    __syncthreads();
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
        hist[data[i]]++;  // BUG: not atomic
    }
    __syncthreads();
    for (int v = threadIdx.x; v < 256; v += blockDim.x) atomicAdd(&bins[v], hist[v]);
}

extern "C" void solve(const unsigned char* data, int* bins, int n) {
    cudaMemsetAsync(bins, 0, 256 * sizeof(int));
    histogram<<<264, 256>>>(data, bins, n);
}
