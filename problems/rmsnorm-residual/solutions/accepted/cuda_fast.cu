// RMSNorm with residual at memory speed: x and res read once, y and res_out written once.
//
// Rows with n % 8 == 0 and n <= 16384 (the benchmark's 4096): one block per row holds the
// row's sum h = x + res in registers, V 16-byte vectors (8 bf16) per thread, loaded with the
// streaming hint (__ldcs: read once). Each thread stores its part of res_out right away, sums
// its squares; a warp shuffle reduction and one value per warp through shared memory give
// the row's sum of squares; then y = h * rstd * w from registers (w through the read-only
// cache: every row reuses it), 16 bytes per store. 8 bytes of traffic per element, the
// minimum; the unfused add-then-norm moves 10.
//
// Other rows (n not a multiple of 8, or wider than 16384): one block per row with scalar
// accesses, res_out written in pass 1 and read back in pass 2 (each thread reads what it wrote).
#include <cuda_bf16.h>
#include <cuda_runtime.h>
#include <stdint.h>

constexpr float EPS = 1e-6f;
constexpr unsigned FULL = 0xffffffffu;

__device__ __forceinline__ float block_sum(float v, float* red) {
#pragma unroll
    for (int off = 16; off > 0; off >>= 1) v += __shfl_xor_sync(FULL, v, off);
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5, nwarps = blockDim.x >> 5;
    if (lane == 0) red[warp] = v;
    __syncthreads();
    v = lane < nwarps ? red[lane] : 0.0f;
#pragma unroll
    for (int off = 16; off > 0; off >>= 1) v += __shfl_xor_sync(FULL, v, off);
    return v;
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

template <int T, int V>
__global__ void __launch_bounds__(T) add_rmsnorm_regs(const uint4* __restrict__ x, const uint4* __restrict__ res,
                                                      const uint4* __restrict__ w, uint4* __restrict__ y,
                                                      uint4* __restrict__ res_out, int n, int nvec) {
    __shared__ float red[32];
    const size_t base = (size_t)blockIdx.x * nvec;
    float h[V][8];
    float ss = 0.0f;
#pragma unroll
    for (int i = 0; i < V; ++i) {
        int c = threadIdx.x + i * T;
        if (c < nvec) {
            float a[8], b[8];
            unpack(__ldcs(x + base + c), a);
            unpack(__ldcs(res + base + c), b);
#pragma unroll
            for (int k = 0; k < 8; ++k) h[i][k] = a[k] + b[k];  // exact in float32
            __stcs(res_out + base + c, pack(h[i]));
#pragma unroll
            for (int k = 0; k < 8; ++k) ss += h[i][k] * h[i][k];
        }
    }
    const float rstd = rsqrtf(block_sum(ss, red) / n + EPS);
#pragma unroll
    for (int i = 0; i < V; ++i) {
        int c = threadIdx.x + i * T;
        if (c < nvec) {
            float g[8], o[8];
            unpack(__ldg(w + c), g);
#pragma unroll
            for (int k = 0; k < 8; ++k) o[k] = h[i][k] * rstd * g[k];
            __stcs(y + base + c, pack(o));
        }
    }
}

constexpr int GT = 256;

__global__ void __launch_bounds__(GT) add_rmsnorm_scalar(const __nv_bfloat16* __restrict__ x,
                                                         const __nv_bfloat16* __restrict__ res,
                                                         const __nv_bfloat16* __restrict__ w,
                                                         __nv_bfloat16* __restrict__ y,
                                                         __nv_bfloat16* __restrict__ res_out, int n) {
    __shared__ float red[32];
    const size_t base = (size_t)blockIdx.x * n;
    float ss = 0.0f;
    for (int j = threadIdx.x; j < n; j += GT) {
        float h = __bfloat162float(x[base + j]) + __bfloat162float(res[base + j]);
        res_out[base + j] = __float2bfloat16(h);
        ss += h * h;
    }
    const float rstd = rsqrtf(block_sum(ss, red) / n + EPS);
    for (int j = threadIdx.x; j < n; j += GT) {
        float h = __bfloat162float(x[base + j]) + __bfloat162float(res[base + j]);
        y[base + j] = __float2bfloat16(h * rstd * __bfloat162float(w[j]));
    }
}

extern "C" void solve(const __nv_bfloat16* x, const __nv_bfloat16* res, const __nv_bfloat16* w,
                      __nv_bfloat16* y, __nv_bfloat16* res_out, int m, int n) {
    const uintptr_t addr = reinterpret_cast<uintptr_t>(x) | reinterpret_cast<uintptr_t>(res) |
                           reinterpret_cast<uintptr_t>(w) | reinterpret_cast<uintptr_t>(y) |
                           reinterpret_cast<uintptr_t>(res_out);
    if ((addr & 15) == 0 && n % 8 == 0 && n <= 16384) {
        auto xv = reinterpret_cast<const uint4*>(x), rv = reinterpret_cast<const uint4*>(res),
             wv = reinterpret_cast<const uint4*>(w);
        auto yv = reinterpret_cast<uint4*>(y), ov = reinterpret_cast<uint4*>(res_out);
        const int nvec = n / 8;
        if (n <= 1024) add_rmsnorm_regs<128, 1><<<m, 128>>>(xv, rv, wv, yv, ov, n, nvec);
        else if (n <= 2048) add_rmsnorm_regs<128, 2><<<m, 128>>>(xv, rv, wv, yv, ov, n, nvec);
        else if (n <= 4096) add_rmsnorm_regs<128, 4><<<m, 128>>>(xv, rv, wv, yv, ov, n, nvec);
        else if (n <= 8192) add_rmsnorm_regs<256, 4><<<m, 256>>>(xv, rv, wv, yv, ov, n, nvec);
        else add_rmsnorm_regs<512, 4><<<m, 512>>>(xv, rv, wv, yv, ov, n, nvec);
    } else {
        add_rmsnorm_scalar<<<m, GT>>>(x, res, w, y, res_out, n);
    }
}
