// GELU (tanh approximation) at memory speed.
//
// 128-bit (float4) loads and stores, VPT float4s per thread all loaded before any is used, so
// that enough bytes are in flight to keep HBM busy (Little's law). The math is folded into
// y = x / (1 + e^(x (A + B x^2))), A = -2 sqrt(2/pi), B = 0.044715 A, since
// 0.5 (1 + tanh(u)) = 1 / (1 + e^-2u): one fast exponential (__expf, a few ulp here) and one
// division per element, hidden behind the 8 bytes each element moves. For x < -10 the
// exponential overflows to inf and y becomes -0, within the tolerance of the true value.
// A tail kernel handles the last n % 4 elements; unaligned pointers take the scalar path.
#include <cuda_runtime.h>
#include <stdint.h>

constexpr int THREADS = 256;
constexpr int VPT = 4;  // float4s per thread
constexpr float A = -1.5957691216f;  // -2 sqrt(2/pi)
constexpr float B = 0.044715f * A;

__device__ __forceinline__ float gelu(float v) { return v / (1.0f + __expf(v * (A + B * v * v))); }

__global__ void __launch_bounds__(THREADS) gelu_vec4(const float4* __restrict__ x, float4* __restrict__ y, long long n4) {
    const long long base = (long long)blockIdx.x * THREADS * VPT + threadIdx.x;
    float4 v[VPT];
#pragma unroll
    for (int u = 0; u < VPT; ++u) {
        const long long i = base + u * THREADS;  // consecutive threads, consecutive float4s
        if (i < n4) v[u] = x[i];
    }
#pragma unroll
    for (int u = 0; u < VPT; ++u) {
        const long long i = base + u * THREADS;
        if (i < n4) y[i] = make_float4(gelu(v[u].x), gelu(v[u].y), gelu(v[u].z), gelu(v[u].w));
    }
}

__global__ void gelu_scalar(const float* __restrict__ x, float* __restrict__ y, long long start, long long n) {
    const long long i = start + (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = gelu(x[i]);
}

extern "C" void solve(const float* x, float* y, int n) {
    const bool aligned = (((uintptr_t)x | (uintptr_t)y) & 15) == 0;
    const long long n4 = aligned ? n / 4 : 0;
    if (n4 > 0) {
        const long long per_block = (long long)THREADS * VPT;
        gelu_vec4<<<(unsigned)((n4 + per_block - 1) / per_block), THREADS>>>((const float4*)x, (float4*)y, n4);
    }
    const long long rest = n - n4 * 4;  // 0..3 when aligned, everything otherwise
    if (rest > 0) gelu_scalar<<<(unsigned)((rest + THREADS - 1) / THREADS), THREADS>>>(x, y, n4 * 4, n);
}
