// Causal grouped-query FlashAttention on the bf16 tensor cores with WMMA (mma.sync).
//
// One block of 4 warps = 64 query rows of one (batch, query head); query head h reads kv head
// h / (hq / hkv). Each warp owns 16 query rows. Per block of 64 keys (only up to the block's
// last query row: the causal triangle):
//   S = Q K^T    WMMA 16 x 16 x 16 bf16 fragments, fp32 accumulators, stored to a per-warp
//                shared-memory strip;
//   softmax      two lanes per row: scale to log2 units, mask keys past s and keys j > i to
//                -inf, running max m and sum l in fp32, weights P = exp2(S - m) rounded to bf16
//                (l sums the rounded weights, so P / l is exactly a convex combination);
//   O = O * c + P V   the fp32 output strip in shared memory is rescaled, then P V accumulated
//                with WMMA (P from shared memory as matrix_a, V row-major as matrix_b).
// Rows past s compute on zero rows and are not stored; key rows past s are loaded as zeros and
// masked. Key 0 is visible to every row, so the first key block makes every m finite and no row
// is ever fully masked. q/k/v rows (d * 2 bytes, d in {32, 64, 128}) move as 16-byte vectors.
//
// This is the Ampere-style step: operands pass through registers for every mma.sync, and the
// softmax runs through shared memory. Hopper's wgmma with TMA (the FlashAttention problem's
// cuda_fast.cu, FA3's design) keeps S and P in registers and is the step after.
#include <cuda_runtime.h>
#include <cuda_bf16.h>
#include <math.h>
#include <mma.h>
#include <stdint.h>

using namespace nvcuda;

namespace {

constexpr int BM = 64;  // query rows per block
constexpr int BN = 64;  // keys per step
constexpr int WARPS = BM / 16;
constexpr int THREADS = WARPS * 32;

constexpr size_t align128(size_t x) { return (x + 127) / 128 * 128; }

template <int D>
struct Layout {
    static constexpr int QLD = D + 8;   // bf16 rows of q, k, v tiles (16-byte padding)
    static constexpr int SLD = BN + 4;  // fp32 score strip
    static constexpr int PLD = BN + 8;  // bf16 weights
    static constexpr int OLD = D + 4;   // fp32 output strip
    static constexpr size_t Q = 0;
    static constexpr size_t K = Q + align128(sizeof(__nv_bfloat16) * BM * QLD);
    static constexpr size_t V = K + align128(sizeof(__nv_bfloat16) * BN * QLD);
    static constexpr size_t S = V + align128(sizeof(__nv_bfloat16) * BN * QLD);
    static constexpr size_t P = S + align128(sizeof(float) * BM * SLD);
    static constexpr size_t O = P + align128(sizeof(__nv_bfloat16) * BM * PLD);
    static constexpr size_t BYTES = O + align128(sizeof(float) * BM * OLD);
};

// rows r0 ... r0 + rows - 1 of a (s x D) head into shared memory; rows past s as zeros.
template <int D>
__device__ __forceinline__ void load_rows(__nv_bfloat16* dst, const __nv_bfloat16* src, int r0,
                                          int rows, int s) {
    constexpr int VPR = D / 8;  // 16-byte vectors per row
    for (int i = threadIdx.x; i < rows * VPR; i += THREADS) {
        const int r = i / VPR, c = (i % VPR) * 8;
        uint4 val = make_uint4(0u, 0u, 0u, 0u);
        if (r0 + r < s) val = *reinterpret_cast<const uint4*>(src + (size_t)(r0 + r) * D + c);
        *reinterpret_cast<uint4*>(dst + r * Layout<D>::QLD + c) = val;
    }
}

template <int D>
__global__ void __launch_bounds__(THREADS)
attn_causal_gqa(const __nv_bfloat16* __restrict__ q, const __nv_bfloat16* __restrict__ k,
                const __nv_bfloat16* __restrict__ v, __nv_bfloat16* __restrict__ o, int hq,
                int hkv, int s, float scale_log2) {
    using L = Layout<D>;
    extern __shared__ __align__(128) unsigned char smem[];
    __nv_bfloat16* qs = reinterpret_cast<__nv_bfloat16*>(smem + L::Q);
    __nv_bfloat16* ks = reinterpret_cast<__nv_bfloat16*>(smem + L::K);
    __nv_bfloat16* vs = reinterpret_cast<__nv_bfloat16*>(smem + L::V);
    const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    float* sw = reinterpret_cast<float*>(smem + L::S) + warp * 16 * L::SLD;
    __nv_bfloat16* pw = reinterpret_cast<__nv_bfloat16*>(smem + L::P) + warp * 16 * L::PLD;
    float* ow = reinterpret_cast<float*>(smem + L::O) + warp * 16 * L::OLD;

    const int bh = blockIdx.y;
    const int kvh = (bh / hq) * hkv + (bh % hq) / (hq / hkv);
    const size_t qhead = (size_t)bh * s * D, kvhead = (size_t)kvh * s * D;
    // The longest query blocks first (the grid runs x fastest): better load balance.
    const int q0 = (gridDim.x - 1 - blockIdx.x) * BM;
    load_rows<D>(qs, q + qhead, q0, BM, s);
    for (int i = lane; i < 16 * D; i += 32) ow[(i / D) * L::OLD + i % D] = 0.0f;
    __syncthreads();

    wmma::fragment<wmma::matrix_a, 16, 16, 16, __nv_bfloat16, wmma::row_major> qf[D / 16];
#pragma unroll
    for (int kk = 0; kk < D / 16; ++kk)
        wmma::load_matrix_sync(qf[kk], qs + warp * 16 * L::QLD + kk * 16, L::QLD);

    const int r = lane / 2, hc = lane % 2;  // two lanes per row of the warp's 16
    const int row = q0 + warp * 16 + r;
    float m_i = -INFINITY, l_i = 0.0f;
    const int last = min(s, q0 + BM);  // causal: no key beyond the block's last row

    for (int n0 = 0; n0 < last; n0 += BN) {
        __syncthreads();  // everyone is done with the previous k and v tiles
        load_rows<D>(ks, k + kvhead, n0, BN, s);
        load_rows<D>(vs, v + kvhead, n0, BN, s);
        __syncthreads();
#pragma unroll
        for (int nf = 0; nf < BN / 16; ++nf) {
            wmma::fragment<wmma::accumulator, 16, 16, 16, float> sf;
            wmma::fill_fragment(sf, 0.0f);
#pragma unroll
            for (int kk = 0; kk < D / 16; ++kk) {
                wmma::fragment<wmma::matrix_b, 16, 16, 16, __nv_bfloat16, wmma::col_major> kf;
                wmma::load_matrix_sync(kf, ks + nf * 16 * L::QLD + kk * 16, L::QLD);
                wmma::mma_sync(sf, qf[kk], kf, sf);
            }
            wmma::store_matrix_sync(sw + nf * 16, sf, L::SLD, wmma::mem_row_major);
        }
        __syncwarp();
        float* srow = sw + r * L::SLD;
        __nv_bfloat16* prow = pw + r * L::PLD;
        float mx = -INFINITY;
        for (int j = hc; j < BN; j += 2) {
            const int key = n0 + j;
            const float x = (key < s && key <= row) ? srow[j] * scale_log2 : -INFINITY;
            srow[j] = x;
            mx = fmaxf(mx, x);
        }
        mx = fmaxf(mx, __shfl_xor_sync(0xffffffffu, mx, 1));
        const float m_new = fmaxf(m_i, mx);  // finite: key 0 was seen in the first block
        const float corr = exp2f(m_i - m_new);
        float sum = 0.0f;
        for (int j = hc; j < BN; j += 2) {
            const __nv_bfloat16 p = __float2bfloat16_rn(exp2f(srow[j] - m_new));
            prow[j] = p;
            sum += __bfloat162float(p);
        }
        sum += __shfl_xor_sync(0xffffffffu, sum, 1);
        l_i = l_i * corr + sum;
        m_i = m_new;
        float* orow = ow + r * L::OLD;
        for (int c = hc; c < D; c += 2) orow[c] *= corr;
        __syncwarp();
        wmma::fragment<wmma::matrix_a, 16, 16, 16, __nv_bfloat16, wmma::row_major> pf[BN / 16];
#pragma unroll
        for (int kk = 0; kk < BN / 16; ++kk) wmma::load_matrix_sync(pf[kk], pw + kk * 16, L::PLD);
#pragma unroll
        for (int df = 0; df < D / 16; ++df) {
            wmma::fragment<wmma::accumulator, 16, 16, 16, float> of;
            wmma::load_matrix_sync(of, ow + df * 16, L::OLD, wmma::mem_row_major);
#pragma unroll
            for (int kk = 0; kk < BN / 16; ++kk) {
                wmma::fragment<wmma::matrix_b, 16, 16, 16, __nv_bfloat16, wmma::row_major> vf;
                wmma::load_matrix_sync(vf, vs + kk * 16 * L::QLD + df * 16, L::QLD);
                wmma::mma_sync(of, pf[kk], vf, of);
            }
            wmma::store_matrix_sync(ow + df * 16, of, L::OLD, wmma::mem_row_major);
        }
        __syncwarp();
    }

    if (row < s) {
        const float inv = 1.0f / l_i;
        const float* orow = ow + r * L::OLD + hc * (D / 2);
        __nv_bfloat162* dst =
            reinterpret_cast<__nv_bfloat162*>(o + qhead + (size_t)row * D + hc * (D / 2));
        for (int c = 0; c < D / 4; ++c)
            dst[c] = __floats2bfloat162_rn(orow[2 * c] * inv, orow[2 * c + 1] * inv);
    }
}

template <int D>
void launch(const __nv_bfloat16* q, const __nv_bfloat16* k, const __nv_bfloat16* v,
            __nv_bfloat16* o, int b, int hq, int hkv, int s) {
    const size_t bytes = Layout<D>::BYTES;  // 103 KB at d = 128: opt in beyond 48 KB
    cudaFuncSetAttribute(attn_causal_gqa<D>, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)bytes);
    dim3 grid((s + BM - 1) / BM, b * hq);
    attn_causal_gqa<D><<<grid, THREADS, bytes>>>(q, k, v, o, hq, hkv, s,
                                                 1.4426950408889634f / sqrtf((float)D));
}

}  // namespace

extern "C" void solve(const __nv_bfloat16* q, const __nv_bfloat16* k, const __nv_bfloat16* v,
                      __nv_bfloat16* o, int b, int hq, int hkv, int s, int d) {
    if (d == 32) launch<32>(q, k, v, o, b, hq, hkv, s);
    else if (d == 64) launch<64>(q, k, v, o, b, hq, hkv, s);
    else launch<128>(q, k, v, o, b, hq, hkv, s);
}
