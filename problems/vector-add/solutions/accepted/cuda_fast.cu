// Vector addition tuned for bandwidth: 128-bit (float4) loads and stores, and each thread
// handles VPT float4s, all loaded before any is stored, so that many memory requests are
// in flight (Little's law: bandwidth = bytes in flight / latency). A tiny second kernel
// handles the last n % 4 elements; unaligned pointers fall back to a scalar kernel.
//
// On an H100 this runs at the speed of torch.add (~137 us at n = 2^25, ~98% of the 3.0
// TB/s copy bandwidth). Streaming cache hints (__ldcs/__stcs) measured ~3% slower here.
#include <cuda_runtime.h>
#include <stdint.h>

constexpr int THREADS = 256;
constexpr int VPT = 4;  // float4s per thread: 64 bytes of each input in flight per thread

__global__ void __launch_bounds__(THREADS)
add_vec4(const float4* __restrict__ a, const float4* __restrict__ b, float4* __restrict__ c, long long n4) {
    const long long base = (long long)blockIdx.x * THREADS * VPT + threadIdx.x;
    float4 x[VPT], y[VPT];
#pragma unroll
    for (int u = 0; u < VPT; ++u) {
        const long long i = base + u * THREADS;  // consecutive threads, consecutive float4s
        if (i < n4) {
            x[u] = a[i];
            y[u] = b[i];
        }
    }
#pragma unroll
    for (int u = 0; u < VPT; ++u) {
        const long long i = base + u * THREADS;
        if (i < n4) c[i] = make_float4(x[u].x + y[u].x, x[u].y + y[u].y, x[u].z + y[u].z, x[u].w + y[u].w);
    }
}

__global__ void add_scalar(const float* __restrict__ a, const float* __restrict__ b, float* __restrict__ c,
                           long long start, long long n) {
    const long long i = start + (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) c[i] = a[i] + b[i];
}

extern "C" void solve(const float* a, const float* b, float* c, int n) {
    const bool aligned = (((uintptr_t)a | (uintptr_t)b | (uintptr_t)c) & 15) == 0;
    const long long n4 = aligned ? n / 4 : 0;
    if (n4 > 0) {
        const long long per_block = (long long)THREADS * VPT;
        add_vec4<<<(unsigned)((n4 + per_block - 1) / per_block), THREADS>>>(
            (const float4*)a, (const float4*)b, (float4*)c, n4);
    }
    const long long rest = n - n4 * 4;  // 0..3 when aligned, everything otherwise
    if (rest > 0) add_scalar<<<(unsigned)((rest + THREADS - 1) / THREADS), THREADS>>>(a, b, c, n4 * 4, n);
}
