// Threat class 7 (tolerance gaming): round the result through bfloat16 (8 bits of mantissa).
// vector-add's rtol (1e-6) rejects it by a factor of ~2000.
// expect: wrong_answer
#include <cuda_runtime.h>
#include <cuda_bf16.h>

__global__ void add_bf16(const float* a, const float* b, float* c, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) c[i] = __bfloat162float(__float2bfloat16(a[i] + b[i]));
}

extern "C" void solve(const float* a, const float* b, float* c, int n) {
    add_bf16<<<(n + 255) / 256, 256>>>(a, b, c, n);
}
