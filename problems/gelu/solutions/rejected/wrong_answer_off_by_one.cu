// expect: wrong_answer
// expect-message: y: wrote past the end
// Bug: an off-by-one in the bounds check: `i <= n` lets thread n through, which reads x[n]
// and writes y[n], one element past the end of y. The grid is rounded up, so whenever n is
// not a multiple of 256 that thread exists. The fix: i < n.
#include <cuda_runtime.h>

__global__ void gelu_kernel(const float* x, float* y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i <= n) {  // BUG: should be i < n
        float v = x[i];
        float u = 0.7978845608f * (v + 0.044715f * v * v * v);
        y[i] = 0.5f * v * (1.0f + tanhf(u));
    }
}

extern "C" void solve(const float* x, float* y, int n) {
    int threads = 256;
    gelu_kernel<<<(n + threads - 1) / threads, threads>>>(x, y, n);
}
