// Causal softmax at memory speed: one warp per row, the lower triangle read once from DRAM.
//
// - Pass 1 keeps a running (max, sum) per lane over the row's kept columns 0..i (the online
//   softmax: when the max grows, the sum so far is rescaled by exp2(old - new)); five
//   shuffle steps merge the lanes' pairs. Columns above the diagonal are never read.
// - Pass 2 reads the kept columns again, which the first pass has just brought into L2 (a
//   row is at most a few KB), and writes the whole row: probabilities, then zeros.
// - When s is a multiple of 8 every row starts 16-byte aligned, so each lane moves 8 halves
//   per load and per store (uint4); otherwise a scalar path handles any s.
// - exp(scale*x - m) = exp2(x*c - m') with c = scale*log2(e) folded once.
#include <cuda_fp16.h>
#include <cuda_runtime.h>

constexpr int WARPS = 4;  // rows per block of 128 threads
constexpr unsigned FULL = 0xffffffffu;

// Adds one more value to a lane's running (max, sum).
__device__ __forceinline__ void push(float v, float& m, float& l) {
    if (v > m) {
        l = l * exp2f(m - v) + 1.0f;  // exp2f(-inf) = 0 on the first value
        m = v;
    } else {
        l += exp2f(v - m);
    }
}

template <bool VEC>
__global__ void __launch_bounds__(WARPS * 32)
causal_softmax(const half* x, const float* scale_ptr, half* y, size_t n_rows, int s) {
    const int lane = threadIdx.x & 31;
    const size_t row = (size_t)blockIdx.x * WARPS + (threadIdx.x >> 5);
    if (row >= n_rows) return;
    const int kept = (int)(row % s) + 1;
    const float c = *scale_ptr * 1.4426950408889634f;
    const half* xr = x + row * s;
    half* yr = y + row * s;

    float m = -INFINITY, l = 0.0f;
    if (VEC) {
        for (int j0 = lane * 8; j0 < kept; j0 += 256) {  // j0 + 7 < s: s is a multiple of 8
            uint4 raw = __ldcs(reinterpret_cast<const uint4*>(xr + j0));
            const half2* h2 = reinterpret_cast<const half2*>(&raw);
#pragma unroll
            for (int k = 0; k < 4; ++k) {
                float2 f = __half22float2(h2[k]);
                if (j0 + 2 * k < kept) push(f.x * c, m, l);
                if (j0 + 2 * k + 1 < kept) push(f.y * c, m, l);
            }
        }
    } else {
        for (int j = lane; j < kept; j += 32) push(__half2float(xr[j]) * c, m, l);
    }
#pragma unroll
    for (int off = 16; off > 0; off >>= 1) {
        float om = __shfl_xor_sync(FULL, m, off);
        float ol = __shfl_xor_sync(FULL, l, off);
        float nm = fmaxf(m, om);
        if (nm != -INFINITY) {  // both empty: nothing to merge (and -inf - -inf is NaN)
            l = l * exp2f(m - nm) + ol * exp2f(om - nm);
            m = nm;
        }
    }
    const float inv = 1.0f / l;

    if (VEC) {
        for (int j0 = lane * 8; j0 < s; j0 += 256) {
            uint4 out = make_uint4(0u, 0u, 0u, 0u);
            if (j0 < kept) {
                uint4 raw = *reinterpret_cast<const uint4*>(xr + j0);  // an L2 hit
                const half2* h2 = reinterpret_cast<const half2*>(&raw);
                half2* o2 = reinterpret_cast<half2*>(&out);
#pragma unroll
                for (int k = 0; k < 4; ++k) {
                    float2 f = __half22float2(h2[k]);
                    float p0 = j0 + 2 * k < kept ? exp2f(f.x * c - m) * inv : 0.0f;
                    float p1 = j0 + 2 * k + 1 < kept ? exp2f(f.y * c - m) * inv : 0.0f;
                    o2[k] = __floats2half2_rn(p0, p1);
                }
            }
            __stcs(reinterpret_cast<uint4*>(yr + j0), out);
        }
    } else {
        for (int j = lane; j < s; j += 32) {
            float p = j < kept ? exp2f(__half2float(xr[j]) * c - m) * inv : 0.0f;
            yr[j] = __float2half_rn(p);
        }
    }
}

extern "C" void solve(const half* x, const float* scale, half* y, int b, int h, int s) {
    const size_t n_rows = (size_t)b * h * s;
    const unsigned blocks = (unsigned)((n_rows + WARPS - 1) / WARPS);
    if (s % 8 == 0)
        causal_softmax<true><<<blocks, WARPS * 32>>>(x, scale, y, n_rows, s);
    else
        causal_softmax<false><<<blocks, WARPS * 32>>>(x, scale, y, n_rows, s);
}
