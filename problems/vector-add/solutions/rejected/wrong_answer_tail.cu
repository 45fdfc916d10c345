// expect: wrong_answer
// Bug: a float4-vectorized kernel that handles n / 4 float4s and forgets the last n % 4
// elements. Right only when n is a multiple of 4.
#include <cuda_runtime.h>

__global__ void add_vec4(const float4* a, const float4* b, float4* c, int n4) {
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n4; i += gridDim.x * blockDim.x) {
        float4 x = a[i], y = b[i];
        c[i] = make_float4(x.x + y.x, x.y + y.y, x.z + y.z, x.w + y.w);
    }
}

extern "C" void solve(const float* a, const float* b, float* c, int n) {
    int n4 = n / 4;
    int blocks = (n4 + 255) / 256;
    if (blocks < 1) blocks = 1;
    if (blocks > 4096) blocks = 4096;
    add_vec4<<<blocks, 256>>>((const float4*)a, (const float4*)b, (float4*)c, n4);
}
