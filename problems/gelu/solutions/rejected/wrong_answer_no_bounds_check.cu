// expect: wrong_answer
// expect-message: y: wrote past the end
// Bug: no bounds check. The grid is rounded up, as it should be, but the kernel lacks its
// `if (i < n)`, so the threads of the last block whose i is n or more read past the end of x
// and write past the end of y. Every value inside y is right; the stores after it are the
// bug. Right only when n is a multiple of 256.
#include <cuda_runtime.h>

__global__ void gelu_kernel(const float* x, float* y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = x[i];  // BUG: needs if (i < n)
    float u = 0.7978845608f * (v + 0.044715f * v * v * v);
    y[i] = 0.5f * v * (1.0f + tanhf(u));
}

extern "C" void solve(const float* x, float* y, int n) {
    int threads = 256;
    gelu_kernel<<<(n + threads - 1) / threads, threads>>>(x, y, n);
}
