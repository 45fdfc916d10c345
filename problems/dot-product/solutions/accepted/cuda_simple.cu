// Dot product, the classic way: each block of 256 threads puts its 256 products in shared
// memory, halves the active threads each step (a tree), and thread 0 atomically adds the
// block's sum to out[0]. out[0] is zeroed first: the judge fills it with NaN before a call.
#include <cuda_runtime.h>

constexpr int THREADS = 256;

__global__ void dot_kernel(const float* a, const float* b, float* out, int n) {
    __shared__ float s[THREADS];
    int i = blockIdx.x * THREADS + threadIdx.x;
    s[threadIdx.x] = i < n ? a[i] * b[i] : 0.0f;  // padding must be 0 for a sum
    __syncthreads();
    for (int half = THREADS / 2; half > 0; half /= 2) {
        if (threadIdx.x < half) s[threadIdx.x] += s[threadIdx.x + half];
        __syncthreads();
    }
    if (threadIdx.x == 0) atomicAdd(out, s[0]);  // many blocks: the add must be atomic
}

extern "C" void solve(const float* a, const float* b, float* out, int n) {
    cudaMemsetAsync(out, 0, sizeof(float));  // same (default) stream as the kernel: ordered
    dot_kernel<<<(n + THREADS - 1) / THREADS, THREADS>>>(a, b, out, n);
}
