// LayerNorm at memory speed: each row read once, statistics in one sweep.
//
// Rows with n % 8 == 0 and n <= 16384 (the benchmark's 4096): one block per row holds the row
// in registers, V 16-byte vectors (8 bf16 each) per thread. Each thread takes exact statistics
// of its own 8V values (count, mean, M2 = sum of squared deviations, two passes over
// registers), then the partial statistics are merged with Chan's formula, across the warp by
// shuffles and across warps through shared memory. The variance is never formed as
// E[x^2] - E[x]^2, so nothing cancels. Then normalize in registers, scale by gamma and shift
// by beta (read through the read-only cache: every row reuses them), round once to bf16 and
// store 16 bytes at a time with the streaming hint (y is not read again).
//
// Other rows (n not a multiple of 8, so rows start unaligned; or wider than 16384): one
// block per row, each thread runs Welford's update over its strided elements (one read),
// the same merge, and a second read of the row to write y.
#include <cuda_bf16.h>
#include <cuda_runtime.h>
#include <stdint.h>

constexpr float EPS = 1e-5f;
constexpr unsigned FULL = 0xffffffffu;

struct Stats {
    float n, mean, m2;
};

// Chan et al.: the statistics of the union of two disjoint sets of values.
__device__ __forceinline__ Stats merge(Stats a, Stats b) {
    float n = a.n + b.n;
    if (n == 0.0f) return a;
    float d = b.mean - a.mean, w = b.n / n;
    return {n, a.mean + d * w, a.m2 + b.m2 + d * d * a.n * w};
}

__device__ __forceinline__ Stats warp_merge(Stats s) {
#pragma unroll
    for (int off = 16; off > 0; off >>= 1) {
        Stats o{__shfl_xor_sync(FULL, s.n, off), __shfl_xor_sync(FULL, s.mean, off), __shfl_xor_sync(FULL, s.m2, off)};
        s = merge(s, o);
    }
    return s;
}

// The whole block's statistics, returned to every thread. red: 32 Stats of shared memory.
__device__ __forceinline__ Stats block_merge(Stats s, Stats* red) {
    s = warp_merge(s);
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5, nwarps = blockDim.x >> 5;
    if (lane == 0) red[warp] = s;
    __syncthreads();
    s = lane < nwarps ? red[lane] : Stats{0.0f, 0.0f, 0.0f};
    return warp_merge(s);
}

__device__ __forceinline__ void unpack(uint4 u, float* f) {
    const __nv_bfloat162* h = reinterpret_cast<const __nv_bfloat162*>(&u);
#pragma unroll
    for (int k = 0; k < 4; ++k) {
        float2 p = __bfloat1622float2(h[k]);
        f[2 * k] = p.x;
        f[2 * k + 1] = p.y;
    }
}

__device__ __forceinline__ uint4 pack(const float* f) {
    uint4 u;
    __nv_bfloat162* h = reinterpret_cast<__nv_bfloat162*>(&u);
#pragma unroll
    for (int k = 0; k < 4; ++k) h[k] = __floats2bfloat162_rn(f[2 * k], f[2 * k + 1]);
    return u;
}

// T threads, V uint4 per thread: rows of n <= 8 * T * V columns, n % 8 == 0.
template <int T, int V>
__global__ void __launch_bounds__(T) layernorm_regs(const uint4* __restrict__ x, const uint4* __restrict__ gamma,
                                                    const uint4* __restrict__ beta, uint4* __restrict__ y, int nvec) {
    __shared__ Stats red[32];
    const uint4* xr = x + (size_t)blockIdx.x * nvec;
    uint4* yr = y + (size_t)blockIdx.x * nvec;
    float v[V][8];
    float count = 0.0f, sum = 0.0f;
#pragma unroll
    for (int i = 0; i < V; ++i) {
        int c = threadIdx.x + i * T;
        if (c < nvec) {
            unpack(__ldcs(xr + c), v[i]);
            count += 8.0f;
#pragma unroll
            for (int k = 0; k < 8; ++k) sum += v[i][k];
        }
    }
    const float my_mean = count > 0.0f ? sum / count : 0.0f;
    float m2 = 0.0f;
#pragma unroll
    for (int i = 0; i < V; ++i)
        if (threadIdx.x + i * T < nvec)
#pragma unroll
            for (int k = 0; k < 8; ++k) m2 += (v[i][k] - my_mean) * (v[i][k] - my_mean);
    const Stats s = block_merge(Stats{count, my_mean, m2}, red);
    const float mean = s.mean, rstd = rsqrtf(s.m2 / s.n + EPS);
#pragma unroll
    for (int i = 0; i < V; ++i) {
        int c = threadIdx.x + i * T;
        if (c < nvec) {
            float g[8], b[8], o[8];
            unpack(__ldg(gamma + c), g);
            unpack(__ldg(beta + c), b);
#pragma unroll
            for (int k = 0; k < 8; ++k) o[k] = (v[i][k] - mean) * rstd * g[k] + b[k];
            __stcs(yr + c, pack(o));
        }
    }
}

constexpr int GT = 256;

__global__ void __launch_bounds__(GT) layernorm_welford(const __nv_bfloat16* __restrict__ x,
                                                        const __nv_bfloat16* __restrict__ gamma,
                                                        const __nv_bfloat16* __restrict__ beta,
                                                        __nv_bfloat16* __restrict__ y, int n) {
    __shared__ Stats red[32];
    const __nv_bfloat16* xr = x + (size_t)blockIdx.x * n;
    __nv_bfloat16* yr = y + (size_t)blockIdx.x * n;
    Stats s{0.0f, 0.0f, 0.0f};
    for (int j = threadIdx.x; j < n; j += GT) {  // Welford: one read, no cancellation
        float v = __bfloat162float(xr[j]);
        s.n += 1.0f;
        float d = v - s.mean;
        s.mean += d / s.n;
        s.m2 += d * (v - s.mean);
    }
    s = block_merge(s, red);
    const float rstd = rsqrtf(s.m2 / s.n + EPS);
    for (int j = threadIdx.x; j < n; j += GT) {
        float v = (__bfloat162float(xr[j]) - s.mean) * rstd;
        yr[j] = __float2bfloat16(v * __bfloat162float(gamma[j]) + __bfloat162float(beta[j]));
    }
}

extern "C" void solve(const __nv_bfloat16* x, const __nv_bfloat16* gamma, const __nv_bfloat16* beta,
                      __nv_bfloat16* y, int m, int n) {
    const bool aligned = ((reinterpret_cast<uintptr_t>(x) | reinterpret_cast<uintptr_t>(y) |
                           reinterpret_cast<uintptr_t>(gamma) | reinterpret_cast<uintptr_t>(beta)) & 15) == 0;
    if (aligned && n % 8 == 0 && n <= 16384) {
        const uint4 *xv = reinterpret_cast<const uint4*>(x), *gv = reinterpret_cast<const uint4*>(gamma),
                    *bv = reinterpret_cast<const uint4*>(beta);
        uint4* yv = reinterpret_cast<uint4*>(y);
        const int nvec = n / 8;
        if (n <= 1024) layernorm_regs<128, 1><<<m, 128>>>(xv, gv, bv, yv, nvec);
        else if (n <= 2048) layernorm_regs<128, 2><<<m, 128>>>(xv, gv, bv, yv, nvec);
        else if (n <= 4096) layernorm_regs<128, 4><<<m, 128>>>(xv, gv, bv, yv, nvec);
        else if (n <= 8192) layernorm_regs<256, 4><<<m, 256>>>(xv, gv, bv, yv, nvec);
        else layernorm_regs<512, 4><<<m, 512>>>(xv, gv, bv, yv, nvec);
    } else {
        layernorm_welford<<<m, GT>>>(x, gamma, beta, y, n);
    }
}
