// Sum reduction, the classic way: each block of 256 threads loads 256 elements into shared
// memory, halves the active threads each step (a tree), and thread 0 atomically adds the
// block's sum to out[0]. out[0] is zeroed first: the judge fills it with NaN before a call.
#include <cuda_runtime.h>

constexpr int THREADS = 256;

__global__ void sum_kernel(const float* x, float* out, int n) {
    __shared__ float s[THREADS];
    int i = blockIdx.x * THREADS + threadIdx.x;
    s[threadIdx.x] = i < n ? x[i] : 0.0f;  // padding must be 0 for a sum
    __syncthreads();
    for (int stride = THREADS / 2; stride > 0; stride /= 2) {
        if (threadIdx.x < stride) s[threadIdx.x] += s[threadIdx.x + stride];
        __syncthreads();
    }
    if (threadIdx.x == 0) atomicAdd(out, s[0]);
}

extern "C" void solve(const float* x, float* out, int n) {
    cudaMemsetAsync(out, 0, sizeof(float));  // same (default) stream as the kernel: ordered
    int blocks = (n + THREADS - 1) / THREADS;
    sum_kernel<<<blocks, THREADS>>>(x, out, n);
}
