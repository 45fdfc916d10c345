// expect: wrong_answer
// Bug: a race. Each block adds its sum to out[0] with a plain read-modify-write instead of
// atomicAdd. Blocks that run at the same time read the same old value, and all but one of
// their updates are lost, so sums over many blocks come out wrong (the n = 2^26 cases have
// 262,144 blocks). Right only when n fits in one block. The fix: atomicAdd(out, s[0]), or
// partial sums and a second pass.
#include <cuda_runtime.h>

constexpr int THREADS = 256;

__global__ void dot_kernel(const float* a, const float* b, float* out, int n) {
    __shared__ float s[THREADS];
    int i = blockIdx.x * THREADS + threadIdx.x;
    s[threadIdx.x] = i < n ? a[i] * b[i] : 0.0f;
    __syncthreads();
    for (int half = THREADS / 2; half > 0; half /= 2) {
        if (threadIdx.x < half) s[threadIdx.x] += s[threadIdx.x + half];
        __syncthreads();
    }
    if (threadIdx.x == 0) out[0] += s[0];  // BUG: not atomic
}

extern "C" void solve(const float* a, const float* b, float* out, int n) {
    cudaMemsetAsync(out, 0, sizeof(float));
    dot_kernel<<<(n + THREADS - 1) / THREADS, THREADS>>>(a, b, out, n);
}
