// expect: wrong_answer
// expect-message: values out of tolerance
// Bug: a precision shortcut. The hardware tanh (PTX tanh.approx.f32, sm_75 and later) is one
// instruction instead of a libm call, but it is only good to about 11 bits (relative error up
// to ~2^-11): GELU comes out up to ~2.4e-4 |x| off, 24 times the tolerance. This kernel is
// memory-bound, so the shortcut would not even make it faster. The fix: tanhf, or
// 1 / (1 + __expf(-2u)) for 0.5 (1 + tanh(u)).
#include <cuda_runtime.h>

__device__ __forceinline__ float tanh_approx(float u) {
    float t;
    asm("tanh.approx.f32 %0, %1;" : "=f"(t) : "f"(u));
    return t;
}

__global__ void gelu_kernel(const float* x, float* y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float v = x[i];
        float u = 0.7978845608f * (v + 0.044715f * v * v * v);
        y[i] = 0.5f * v * (1.0f + tanh_approx(u));
    }
}

extern "C" void solve(const float* x, float* y, int n) {
    int threads = 256;
    gelu_kernel<<<(n + threads - 1) / threads, threads>>>(x, y, n);
}
