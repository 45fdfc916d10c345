// SwiGLU gating, the straightforward way: one thread per element of the flat m*n array.
// Widen to float32, y = g / (1 + exp(-g)) * u, round once (__float2bfloat16 rounds to
// nearest). expf of a float32 argument stays finite for every gate in the tests (it
// overflows only past 88), so the tiny outputs of very negative gates come out right.
#include <cuda_bf16.h>
#include <cuda_runtime.h>

__global__ void swiglu(const __nv_bfloat16* gate, const __nv_bfloat16* up, __nv_bfloat16* y, long long total) {
    long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < total) {
        float g = __bfloat162float(gate[i]);
        float u = __bfloat162float(up[i]);
        y[i] = __float2bfloat16(g / (1.0f + expf(-g)) * u);
    }
}

extern "C" void solve(const __nv_bfloat16* gate, const __nv_bfloat16* up, __nv_bfloat16* y, int m, int n) {
    long long total = (long long)m * n;
    int threads = 256;
    swiglu<<<(unsigned)((total + threads - 1) / threads), threads>>>(gate, up, y, total);
}
