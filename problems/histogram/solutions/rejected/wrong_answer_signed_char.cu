// expect: wrong_answer
// expect-message: bins: wrote before the start
// Bug: the bytes are read through a `const char*`, and char is signed on the GPU: a byte of
// 128..255 becomes -128..-1, and the atomicAdd lands before the start of bins (on a GPU, in
// someone else's data). Bytes below 128 are counted right. The fix: unsigned char, as the
// signature says.
#include <cuda_runtime.h>

__global__ void count_bytes(const char* data, int* bins, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) atomicAdd(&bins[data[i]], 1);  // BUG: negative index for bytes >= 128
}

extern "C" void solve(const unsigned char* data, int* bins, int n) {
    cudaMemsetAsync(bins, 0, 256 * sizeof(int));
    count_bytes<<<(n + 255) / 256, 256>>>(reinterpret_cast<const char*>(data), bins, n);
}
