// GELU (tanh approximation), the straightforward way: one thread per element, the formula as
// written, with the float32 tanhf of the CUDA math library (accurate to a few ulp).
#include <cuda_runtime.h>

__global__ void gelu_kernel(const float* x, float* y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {  // the last block may run past the end
        float v = x[i];
        float u = 0.7978845608f * (v + 0.044715f * v * v * v);  // sqrt(2/pi) (x + 0.044715 x^3)
        y[i] = 0.5f * v * (1.0f + tanhf(u));
    }
}

extern "C" void solve(const float* x, float* y, int n) {
    int threads = 256;
    int blocks = (n + threads - 1) / threads;  // round up, not down
    gelu_kernel<<<blocks, threads>>>(x, y, n);
}
