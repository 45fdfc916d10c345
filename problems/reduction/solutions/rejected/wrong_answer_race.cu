// expect: wrong_answer
// Bug: each block adds its sum to out[0] with a plain read-modify-write instead of
// atomicAdd. Blocks running at the same time overwrite each other's updates, so sums over
// more than one block come out too small (right only when n fits in one block).
#include <cuda_runtime.h>

__global__ void sum_kernel(const float* x, float* out, int n) {
    __shared__ float s[256];
    int i = blockIdx.x * 256 + threadIdx.x;
    s[threadIdx.x] = i < n ? x[i] : 0.0f;
    __syncthreads();
    for (int stride = 128; stride > 0; stride /= 2) {
        if (threadIdx.x < stride) s[threadIdx.x] += s[threadIdx.x + stride];
        __syncthreads();
    }
    if (threadIdx.x == 0) out[0] += s[0];  // race: not atomic
}

extern "C" void solve(const float* x, float* out, int n) {
    cudaMemsetAsync(out, 0, sizeof(float));
    sum_kernel<<<(n + 255) / 256, 256>>>(x, out, n);
}
