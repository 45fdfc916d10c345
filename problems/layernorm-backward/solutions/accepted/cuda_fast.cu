// LayerNorm backward with x and dy read once: a two-stage column reduction.
//
// Stage 1, rows of n % 4 == 0 and n <= 8192 (aligned pointers): a persistent grid of P blocks
// (as many as the GPU holds at once), block p taking rows p, p + P, ... Each thread owns V
// float4 of columns for the whole kernel: it keeps gamma there, loads the row's x and dy
// (streaming hints: each byte is touched once), joins the block in two sums (warp shuffles,
// then one value per warp through shared memory) for a = mean(g) and b = mean(g * xhat),
// writes dx, and adds dy * xhat and dy into its own registers: the block's partial dgamma and
// dbeta, stored once at the end as row p of a P x n scratch matrix.
// Other rows (odd n, wider rows): the same grid in two passes per row, scalar, with the
// partial sums added into the block's own scratch row in memory (zeroed first).
// Stage 2: one thread per column adds up the P partial rows (P is a few hundred).
#include <cuda_runtime.h>
#include <stdint.h>

constexpr unsigned FULL = 0xffffffffu;

__device__ __forceinline__ float warp_sum(float v) {
#pragma unroll
    for (int off = 16; off > 0; off >>= 1) v += __shfl_xor_sync(FULL, v, off);
    return v;
}

// Sums of a and of b over the block, returned to every thread. red: 64 floats of shared memory.
__device__ __forceinline__ void block_sum2(float& a, float& b, float* red) {
    a = warp_sum(a);
    b = warp_sum(b);
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5, nwarps = blockDim.x >> 5;
    if (lane == 0) {
        red[warp] = a;
        red[32 + warp] = b;
    }
    __syncthreads();
    a = warp_sum(lane < nwarps ? red[lane] : 0.0f);
    b = warp_sum(lane < nwarps ? red[32 + lane] : 0.0f);
    __syncthreads();  // red is reused by the next row
}

__device__ __forceinline__ float4 f4(float v) { return make_float4(v, v, v, v); }
__device__ __forceinline__ float4 mul(float4 p, float4 q) { return make_float4(p.x * q.x, p.y * q.y, p.z * q.z, p.w * q.w); }
__device__ __forceinline__ float4 add(float4 p, float4 q) { return make_float4(p.x + q.x, p.y + q.y, p.z + q.z, p.w + q.w); }
__device__ __forceinline__ float hsum(float4 p) { return (p.x + p.y) + (p.z + p.w); }

// V float4 of columns per thread: rows of up to blockDim.x * 4 * V columns, n % 4 == 0.
template <int V>
__global__ void __launch_bounds__(1024) rows_regs(const float* __restrict__ x, const float* __restrict__ dy,
                                                  const float* __restrict__ gamma, const float* __restrict__ mean,
                                                  const float* __restrict__ rstd, float* __restrict__ dx,
                                                  float* __restrict__ pg, float* __restrict__ pb, int m, int n) {
    __shared__ float red[64];
    const int c4 = n >> 2;
    const float4 zero = f4(0.0f);
    float4 gm[V], ag[V], ab[V];
#pragma unroll
    for (int k = 0; k < V; ++k) {
        const int j = threadIdx.x + k * blockDim.x;
        gm[k] = j < c4 ? reinterpret_cast<const float4*>(gamma)[j] : zero;
        ag[k] = zero;
        ab[k] = zero;
    }
    for (int row = blockIdx.x; row < m; row += gridDim.x) {
        const float4* xr = reinterpret_cast<const float4*>(x + (size_t)row * n);
        const float4* dyr = reinterpret_cast<const float4*>(dy + (size_t)row * n);
        float4* dxr = reinterpret_cast<float4*>(dx + (size_t)row * n);
        const float mu = mean[row], rs = rstd[row];
        float4 xh[V], d[V];
        float sa = 0.0f, sb = 0.0f;
#pragma unroll
        for (int k = 0; k < V; ++k) {
            const int j = threadIdx.x + k * blockDim.x;
            const float4 xv = j < c4 ? __ldcs(xr + j) : zero;
            d[k] = j < c4 ? __ldcs(dyr + j) : zero;  // 0 past the row: adds nothing anywhere
            xh[k] = make_float4((xv.x - mu) * rs, (xv.y - mu) * rs, (xv.z - mu) * rs, (xv.w - mu) * rs);
            const float4 g = mul(d[k], gm[k]);
            sa += hsum(g);
            sb += hsum(mul(g, xh[k]));
        }
        block_sum2(sa, sb, red);
        const float a = sa / n, b = sb / n;
#pragma unroll
        for (int k = 0; k < V; ++k) {
            const int j = threadIdx.x + k * blockDim.x;
            if (j < c4) {
                const float4 g = mul(d[k], gm[k]);
                __stcs(dxr + j, make_float4(rs * (g.x - a - xh[k].x * b), rs * (g.y - a - xh[k].y * b),
                                            rs * (g.z - a - xh[k].z * b), rs * (g.w - a - xh[k].w * b)));
            }
            ag[k] = add(ag[k], mul(d[k], xh[k]));
            ab[k] = add(ab[k], d[k]);
        }
    }
#pragma unroll
    for (int k = 0; k < V; ++k) {
        const int j = threadIdx.x + k * blockDim.x;
        if (j < c4) {
            reinterpret_cast<float4*>(pg + (size_t)blockIdx.x * n)[j] = ag[k];
            reinterpret_cast<float4*>(pb + (size_t)blockIdx.x * n)[j] = ab[k];
        }
    }
}

// Any n: two passes per row; the partial sums go to the block's own scratch row, zeroed by
// solve. Thread t always owns columns t, t + blockDim.x, ...: no two threads share one.
__global__ void __launch_bounds__(1024) rows_chunked(const float* __restrict__ x, const float* __restrict__ dy,
                                                     const float* __restrict__ gamma, const float* __restrict__ mean,
                                                     const float* __restrict__ rstd, float* __restrict__ dx,
                                                     float* __restrict__ pg, float* __restrict__ pb, int m, int n) {
    __shared__ float red[64];
    float* pgr = pg + (size_t)blockIdx.x * n;
    float* pbr = pb + (size_t)blockIdx.x * n;
    for (int row = blockIdx.x; row < m; row += gridDim.x) {
        const size_t base = (size_t)row * n;
        const float mu = mean[row], rs = rstd[row];
        float sa = 0.0f, sb = 0.0f;
        for (int j = threadIdx.x; j < n; j += blockDim.x) {
            const float g = dy[base + j] * gamma[j];
            sa += g;
            sb += g * (x[base + j] - mu) * rs;
        }
        block_sum2(sa, sb, red);
        const float a = sa / n, b = sb / n;
        for (int j = threadIdx.x; j < n; j += blockDim.x) {
            const float d = __ldcs(dy + base + j), xhat = (__ldcs(x + base + j) - mu) * rs;
            __stcs(dx + base + j, rs * (d * gamma[j] - a - xhat * b));
            pgr[j] += d * xhat;
            pbr[j] += d;
        }
    }
}

__global__ void sum_partials(const float* __restrict__ pg, const float* __restrict__ pb, float* __restrict__ dgamma,
                             float* __restrict__ dbeta, int p, int n) {
    const int j = blockIdx.x * blockDim.x + threadIdx.x;
    if (j < n) {
        float sg = 0.0f, sb = 0.0f;
        for (int i = 0; i < p; ++i) {
            sg += pg[(size_t)i * n + j];
            sb += pb[(size_t)i * n + j];
        }
        dgamma[j] = sg;
        dbeta[j] = sb;
    }
}

static int sm_count() {
    static int sms = 0;
    if (sms == 0) {
        int dev = 0;
        cudaGetDevice(&dev);
        cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
        if (sms <= 0) sms = 132;
    }
    return sms;
}

// Scratch for the partial sums, kept between calls and grown when a call needs more.
static float* scratch = nullptr;
static size_t scratch_floats = 0;

static float* partials(size_t floats) {
    if (floats > scratch_floats) {
        if (scratch) cudaFree(scratch);
        cudaMalloc(&scratch, floats * sizeof(float));
        scratch_floats = floats;
    }
    return scratch;
}

extern "C" void solve(const float* x, const float* dy, const float* gamma, const float* mean, const float* rstd,
                      float* dx, float* dgamma, float* dbeta, int m, int n) {
    const bool vec = n % 4 == 0 && (((uintptr_t)x | (uintptr_t)dy | (uintptr_t)gamma | (uintptr_t)dx) & 15) == 0;
    const int c4 = n / 4;
    int threads = 1024, v = 0;
    if (vec && c4 <= 2048) {
        v = c4 <= 1024 ? 1 : 2;
        const int per_thread = (c4 + v - 1) / v;
        threads = ((per_thread + 31) / 32) * 32;  // one warp at least, 1024 at most
    }
    int p = sm_count() * (2048 / threads);  // blocks resident at once
    if (p > m) p = m;
    float* pg = partials((size_t)2 * p * n);
    float* pb = pg + (size_t)p * n;
    if (v == 1) {
        rows_regs<1><<<p, threads>>>(x, dy, gamma, mean, rstd, dx, pg, pb, m, n);
    } else if (v == 2) {
        rows_regs<2><<<p, threads>>>(x, dy, gamma, mean, rstd, dx, pg, pb, m, n);
    } else {
        cudaMemsetAsync(pg, 0, (size_t)2 * p * n * sizeof(float));
        rows_chunked<<<p, threads>>>(x, dy, gamma, mean, rstd, dx, pg, pb, m, n);
    }
    sum_partials<<<(n + 255) / 256, 256>>>(pg, pb, dgamma, dbeta, p, n);
}
