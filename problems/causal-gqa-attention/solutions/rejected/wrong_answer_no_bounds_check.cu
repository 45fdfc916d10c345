// expect: wrong_answer
// expect-message: o: wrote past the end
// Bug: the output rows are written without the `if (i < s)` guard. When s is not a multiple of
// 64, the threads of the last block whose row i >= s write rows past s: into the next head's
// rows (racing with the block that owns them) and, from the last head, past the end of o.
#include <cuda_runtime.h>
#include <cuda_bf16.h>
#include <math.h>

#define ROWS 64
#define KEYS 32

template <int D>
__global__ void __launch_bounds__(ROWS)
attn_rows(const __nv_bfloat16* q, const __nv_bfloat16* k, const __nv_bfloat16* v,
          __nv_bfloat16* o, int hq, int hkv, int s, float scale) {
    __shared__ float ks[KEYS][D];
    __shared__ float vs[KEYS][D];
    const int bh = blockIdx.y;
    const int kvh = (bh / hq) * hkv + (bh % hq) / (hq / hkv);
    const int i = blockIdx.x * ROWS + threadIdx.x;
    const __nv_bfloat16* qrow = q + ((size_t)bh * s + i) * D;
    const __nv_bfloat16* kh = k + (size_t)kvh * s * D;
    const __nv_bfloat16* vh = v + (size_t)kvh * s * D;

    float qr[D], acc[D];
#pragma unroll
    for (int c = 0; c < D; ++c) {
        qr[c] = i < s ? __bfloat162float(qrow[c]) * scale : 0.0f;
        acc[c] = 0.0f;
    }
    float m = -INFINITY, l = 0.0f;
    const int last = min(s, (blockIdx.x + 1) * ROWS);  // no key beyond the block's last row
    for (int j0 = 0; j0 < last; j0 += KEYS) {
        for (int e = threadIdx.x; e < KEYS * D; e += ROWS) {
            int r = e / D, c = e % D, j = j0 + r;
            ks[r][c] = j < s ? __bfloat162float(kh[(size_t)j * D + c]) : 0.0f;
            vs[r][c] = j < s ? __bfloat162float(vh[(size_t)j * D + c]) : 0.0f;
        }
        __syncthreads();
        const int jn = min(KEYS, min(i + 1, s) - j0);  // keys j0 ... j0 + jn - 1 are <= i
        for (int r = 0; r < jn; ++r) {
            float score = 0.0f;
#pragma unroll
            for (int c = 0; c < D; ++c) score = fmaf(qr[c], ks[r][c], score);
            if (score > m) {  // a new maximum: rescale what was summed so far
                float alpha = __expf(m - score);
                l *= alpha;
#pragma unroll
                for (int c = 0; c < D; ++c) acc[c] *= alpha;
                m = score;
            }
            float p = __expf(score - m);
            l += p;
#pragma unroll
            for (int c = 0; c < D; ++c) acc[c] = fmaf(p, vs[r][c], acc[c]);
        }
        __syncthreads();
    }
    {  // no row guard
        __nv_bfloat16* orow = o + ((size_t)bh * s + i) * D;
#pragma unroll
        for (int c = 0; c < D; ++c) orow[c] = __float2bfloat16_rn(acc[c] / l);
    }
}

extern "C" void solve(const __nv_bfloat16* q, const __nv_bfloat16* k, const __nv_bfloat16* v,
                      __nv_bfloat16* o, int b, int hq, int hkv, int s, int d) {
    dim3 grid((s + ROWS - 1) / ROWS, b * hq);
    float scale = 1.0f / sqrtf((float)d);
    if (d == 32) attn_rows<32><<<grid, ROWS>>>(q, k, v, o, hq, hkv, s, scale);
    else if (d == 64) attn_rows<64><<<grid, ROWS>>>(q, k, v, o, hq, hkv, s, scale);
    else attn_rows<128><<<grid, ROWS>>>(q, k, v, o, hq, hkv, s, scale);
}
