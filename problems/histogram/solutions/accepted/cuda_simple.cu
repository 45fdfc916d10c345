// Byte histogram, the straightforward way: zero the bins, then one thread per byte does
// atomicAdd(&bins[byte], 1) in global memory. Correct whatever the contention, because the
// increments are atomic; slow when many threads hit the same bin, as they do when 90% of the
// bytes are one value.
#include <cuda_runtime.h>

__global__ void count_bytes(const unsigned char* data, int* bins, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) atomicAdd(&bins[data[i]], 1);  // unsigned char: 0..255, never negative
}

extern "C" void solve(const unsigned char* data, int* bins, int n) {
    cudaMemsetAsync(bins, 0, 256 * sizeof(int));
    const int threads = 256;
    count_bytes<<<(n + threads - 1) / threads, threads>>>(data, bins, n);
}
