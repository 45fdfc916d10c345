// Decode attention with split-KV (flash-decoding): each KV head read once for its whole group of
// query heads, each sequence's positions cut into splits that run as separate blocks.
//
// - Block (sequence * hkv + g, t) handles split t (SPLIT positions) of KV head g for the G =
//   hq / hkv query heads that share it; a split past the sequence's length exits at once.
//   Its 4 warps take every 4th position: a lane loads D / 32 contiguous columns of the key and
//   of the value (one 4- or 8-byte load each), and for each of the G heads a score is a
//   warp-wide dot product (five shuffles) feeding that head's online softmax (running max m,
//   sum l, accumulator, in base-2 units: log2(e)/sqrt(d) folded into q).
// - The block merges its warps through shared memory and stores the split's unnormalised
//   (m, l, acc) per head in float32 scratch; a second kernel merges the splits of each head:
//   M = max m_t, o = sum acc_t 2^(m_t - M) / sum l_t 2^(m_t - M).
// Groups of up to MAXG = 8 query heads per KV head (the problem's range).
#include <cuda_bf16.h>
#include <cuda_runtime.h>

constexpr int WARPS = 4;
constexpr int MAXG = 8;
constexpr unsigned FULL = 0xffffffffu;

template <int PER>
__device__ __forceinline__ void load_row(const __nv_bfloat16* p, float* out) {
    const __nv_bfloat162* p2 = reinterpret_cast<const __nv_bfloat162*>(p);  // 4-byte aligned
#pragma unroll
    for (int c = 0; c < PER / 2; ++c) {
        float2 f = __bfloat1622float2(p2[c]);
        out[2 * c] = f.x;
        out[2 * c + 1] = f.y;
    }
}

template <int D>
__global__ void __launch_bounds__(WARPS * 32)
split_kv(const __nv_bfloat16* q, const __nv_bfloat16* k, const __nv_bfloat16* v, const int* lens,
         float* part_o, float* part_m, float* part_l, int hq, int hkv, int L, int n_splits,
         int split, float qk_scale) {
    constexpr int PER = D / 32;
    __shared__ float sm[WARPS][MAXG], sl[WARPS][MAXG], sacc[WARPS][MAXG][D];
    const int pair = blockIdx.x;  // sequence * hkv + KV head
    const int seq = pair / hkv, G = hq / hkv;
    const int head0 = seq * hq + (pair % hkv) * G;  // first query head (row of q) of the group
    const int t = blockIdx.y;
    const int n = lens[seq];
    const int start = t * split;
    if (start >= n) return;  // the whole block leaves together: no barrier is skipped
    const int end = min(start + split, n);
    const int warp = threadIdx.x >> 5, lane = threadIdx.x & 31;

    float qr[MAXG][PER], acc[MAXG][PER], m[MAXG], l[MAXG];
#pragma unroll
    for (int g = 0; g < MAXG; ++g) {
        m[g] = -INFINITY;
        l[g] = 0.0f;
#pragma unroll
        for (int c = 0; c < PER; ++c) acc[g][c] = 0.0f;
        if (g < G) {
            load_row<PER>(q + (size_t)(head0 + g) * D + lane * PER, qr[g]);
#pragma unroll
            for (int c = 0; c < PER; ++c) qr[g][c] *= qk_scale;
        }
    }
    const size_t base = (size_t)pair * L * D + lane * PER;
    for (int j = start + warp; j < end; j += WARPS) {
        float kf[PER], vf[PER];
        load_row<PER>(k + base + (size_t)j * D, kf);
        load_row<PER>(v + base + (size_t)j * D, vf);
#pragma unroll
        for (int g = 0; g < MAXG; ++g) {
            if (g < G) {
                float s = 0.0f;
#pragma unroll
                for (int c = 0; c < PER; ++c) s += qr[g][c] * kf[c];
#pragma unroll
                for (int off = 16; off > 0; off >>= 1) s += __shfl_xor_sync(FULL, s, off);
                const float m_new = fmaxf(m[g], s);
                const float alpha = exp2f(m[g] - m_new);  // 0 on the first position
                const float p = exp2f(s - m_new);
                l[g] = l[g] * alpha + p;
#pragma unroll
                for (int c = 0; c < PER; ++c) acc[g][c] = acc[g][c] * alpha + p * vf[c];
                m[g] = m_new;
            }
        }
    }
#pragma unroll
    for (int g = 0; g < MAXG; ++g) {
        if (g < G) {
            if (lane == 0) {
                sm[warp][g] = m[g];  // a warp without positions: m = -inf, l = 0, weight 0
                sl[warp][g] = l[g];
            }
#pragma unroll
            for (int c = 0; c < PER; ++c) sacc[warp][g][lane * PER + c] = acc[g][c];
        }
    }
    __syncthreads();
    for (int i = threadIdx.x; i < G * D; i += WARPS * 32) {
        const int g = i / D, col = i % D;
        float big = sm[0][g];  // warp 0 always has position `start`: finite
        for (int w = 1; w < WARPS; ++w) big = fmaxf(big, sm[w][g]);
        float a = 0.0f, total = 0.0f;
        for (int w = 0; w < WARPS; ++w) {
            const float wt = exp2f(sm[w][g] - big);
            a += sacc[w][g][col] * wt;
            total += sl[w][g] * wt;
        }
        const size_t slot = (size_t)(head0 + g) * n_splits + t;
        part_o[slot * D + col] = a;
        if (col == 0) {
            part_m[slot] = big;
            part_l[slot] = total;
        }
    }
}

template <int D>
__global__ void combine(const int* lens, const float* part_o, const float* part_m,
                        const float* part_l, __nv_bfloat16* o, int hq, int n_splits, int split) {
    const int row = blockIdx.x;  // sequence * hq + query head
    const int col = threadIdx.x;
    if (col >= D) return;
    const int used = (lens[row / hq] + split - 1) / split;  // splits that wrote a partial
    const size_t slot0 = (size_t)row * n_splits;
    float big = -INFINITY;
    for (int t = 0; t < used; ++t) big = fmaxf(big, part_m[slot0 + t]);
    float a = 0.0f, total = 0.0f;
    for (int t = 0; t < used; ++t) {
        const float wt = exp2f(part_m[slot0 + t] - big);
        a += part_o[(slot0 + t) * D + col] * wt;
        total += part_l[slot0 + t] * wt;
    }
    o[(size_t)row * D + col] = __float2bfloat16_rn(a / total);
}

template <int D>
static void run(const __nv_bfloat16* q, const __nv_bfloat16* k, const __nv_bfloat16* v,
                const int* lens, __nv_bfloat16* o, int b, int hq, int hkv, int L) {
    int split = 64;  // positions per split: about L / 8, between 64 and 1024
    while (split < 1024 && split * 8 < L) split *= 2;
    const int n_splits = (L + split - 1) / split;
    const size_t slots = (size_t)b * hq * n_splits;
    float* part = nullptr;
    cudaMallocAsync(&part, slots * (D + 2) * sizeof(float), 0);
    float* part_m = part + slots * D;
    float* part_l = part_m + slots;
    const float qk_scale = 1.4426950408889634f / sqrtf((float)D);
    split_kv<D><<<dim3(b * hkv, n_splits), WARPS * 32>>>(q, k, v, lens, part, part_m, part_l, hq,
                                                          hkv, L, n_splits, split, qk_scale);
    combine<D><<<b * hq, D>>>(lens, part, part_m, part_l, o, hq, n_splits, split);
    cudaFreeAsync(part, 0);
}

extern "C" void solve(const __nv_bfloat16* q, const __nv_bfloat16* k, const __nv_bfloat16* v,
                      const int* lens, __nv_bfloat16* o, int b, int hq, int hkv, int L, int d) {
    if (d == 64)
        run<64>(q, k, v, lens, o, b, hq, hkv, L);
    else if (d == 128)
        run<128>(q, k, v, lens, o, b, hq, hkv, L);
}
