// expect: wrong_answer
// expect-message: o: wrote past the end
// Bug: written for d = 128 (Llama's head size): every lane handles 4 columns, lane + 32c for
// c < 4, with no check against d. With d = 64 the extra columns are the next head's: q, k and
// v are read from the neighbouring row (past the end of the cache for its last position), and
// the store writes 64 columns into the next head's output and, from the last head, past the
// end of o. The fix: PER = d / 32 (a template per head size), or `if (lane + 32 * c < d)`.
#include <cuda_bf16.h>
#include <cuda_runtime.h>

constexpr int WARPS = 4;
constexpr unsigned FULL = 0xffffffffu;

template <int PER>
__global__ void __launch_bounds__(WARPS * 32)
decode(const __nv_bfloat16* q, const __nv_bfloat16* k, const __nv_bfloat16* v, const int* lens,
       __nv_bfloat16* o, int hq, int hkv, int L, int D, float scale) {
    __shared__ float sm[WARPS], sl[WARPS], sacc[WARPS][32 * PER];
    const int row = blockIdx.x;  // sequence * hq + query head
    const int seq = row / hq;
    const int g = (row % hq) / (hq / hkv);
    const int n = lens[seq];
    const int warp = threadIdx.x >> 5, lane = threadIdx.x & 31;
    const size_t base = ((size_t)seq * hkv + g) * L * D;

    float qr[PER], acc[PER];
#pragma unroll
    for (int c = 0; c < PER; ++c) {
        qr[c] = __bfloat162float(q[(size_t)row * D + lane + 32 * c]) * scale;
        acc[c] = 0.0f;
    }
    float m = -INFINITY, l = 0.0f;
    for (int j = warp; j < n; j += WARPS) {
        const __nv_bfloat16* kj = k + base + (size_t)j * D;
        const __nv_bfloat16* vj = v + base + (size_t)j * D;
        float s = 0.0f;
#pragma unroll
        for (int c = 0; c < PER; ++c) s += qr[c] * __bfloat162float(kj[lane + 32 * c]);
#pragma unroll
        for (int off = 16; off > 0; off >>= 1) s += __shfl_xor_sync(FULL, s, off);
        const float m_new = fmaxf(m, s);
        const float alpha = __expf(m - m_new);  // 0 on the first key (m = -inf)
        const float p = __expf(s - m_new);
        l = l * alpha + p;
#pragma unroll
        for (int c = 0; c < PER; ++c) acc[c] = acc[c] * alpha + p * __bfloat162float(vj[lane + 32 * c]);
        m = m_new;
    }
    if (lane == 0) {
        sm[warp] = m;  // a warp with no positions (n < 4) leaves m = -inf, l = 0: weight 0 below
        sl[warp] = l;
    }
#pragma unroll
    for (int c = 0; c < PER; ++c) sacc[warp][lane + 32 * c] = acc[c];
    __syncthreads();
    if (warp == 0) {
        float big = sm[0];  // warp 0 always has position 0: finite
        for (int w = 1; w < WARPS; ++w) big = fmaxf(big, sm[w]);
        float total = 0.0f, wgt[WARPS];
        for (int w = 0; w < WARPS; ++w) {
            wgt[w] = __expf(sm[w] - big);
            total += sl[w] * wgt[w];
        }
#pragma unroll
        for (int c = 0; c < PER; ++c) {
            float sum = 0.0f;
            for (int w = 0; w < WARPS; ++w) sum += sacc[w][lane + 32 * c] * wgt[w];
            o[(size_t)row * D + lane + 32 * c] = __float2bfloat16_rn(sum / total);
        }
    }
}

extern "C" void solve(const __nv_bfloat16* q, const __nv_bfloat16* k, const __nv_bfloat16* v,
                      const int* lens, __nv_bfloat16* o, int b, int hq, int hkv, int L, int d) {
    const float scale = 1.0f / sqrtf((float)d);
    const unsigned rows = (unsigned)b * hq;
    decode<4><<<rows, WARPS * 32>>>(q, k, v, lens, o, hq, hkv, L, d, scale);  // 4 columns per lane: d = 128
}
