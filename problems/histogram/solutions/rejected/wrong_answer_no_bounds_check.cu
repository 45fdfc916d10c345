// expect: wrong_answer
// expect-message: bins: wrote past the end
// Bug: the bins are zeroed by a general "fill a buffer" kernel whose `if (i < n)` was left
// out. Launched with one block of 1024 threads for 256 bins, it writes 768 zeros past the end
// of bins (on a GPU, into someone else's data). The counting is right, so only that write is
// wrong, for every n. The fix: if (i < n) in fill, or cudaMemsetAsync.
#include <cuda_runtime.h>

__global__ void fill(int* p, int value, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    p[i] = value;  // BUG: needs if (i < n)
}

__global__ void count_bytes(const unsigned char* data, int* bins, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) atomicAdd(&bins[data[i]], 1);
}

extern "C" void solve(const unsigned char* data, int* bins, int n) {
    fill<<<1, 1024>>>(bins, 0, 256);
    count_bytes<<<(n + 255) / 256, 256>>>(data, bins, n);
}
