// expect: wrong_answer
// Bug: an off-by-one in the tree. The loop stops at half > 1 instead of half > 0, one level
// early: s[0] never receives s[1], so the products that were summed into s[1] (half of every
// block) are lost. Right only for n = 1, where s[1] is 0. The fix: half > 0.
#include <cuda_runtime.h>

constexpr int THREADS = 256;

__global__ void dot_kernel(const float* a, const float* b, float* out, int n) {
    __shared__ float s[THREADS];
    int i = blockIdx.x * THREADS + threadIdx.x;
    s[threadIdx.x] = i < n ? a[i] * b[i] : 0.0f;
    __syncthreads();
    for (int half = THREADS / 2; half > 1; half /= 2) {  // BUG: should be half > 0
        if (threadIdx.x < half) s[threadIdx.x] += s[threadIdx.x + half];
        __syncthreads();
    }
    if (threadIdx.x == 0) atomicAdd(out, s[0]);
}

extern "C" void solve(const float* a, const float* b, float* out, int n) {
    cudaMemsetAsync(out, 0, sizeof(float));
    dot_kernel<<<(n + THREADS - 1) / THREADS, THREADS>>>(a, b, out, n);
}
