// expect: compile_error
// C++ type error: a float4 cannot be assigned to a float.
#include <cuda_runtime.h>

__global__ void add_kernel(const float* a, const float* b, float* c, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float sum = make_float4(a[i], b[i], 0.0f, 0.0f);
        c[i] = sum;
    }
}

extern "C" void solve(const float* a, const float* b, float* c, int n) {
    add_kernel<<<(n + 255) / 256, 256>>>(a, b, c, n);
}
