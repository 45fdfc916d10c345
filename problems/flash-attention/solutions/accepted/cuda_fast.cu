// Flash-attention forward (non-causal, fp16 in/out, fp32 accumulation) for Hopper (sm_90a):
// TMA + mbarrier pipeline, wgmma tensor-core products, FA3-style warp specialisation.
//
// Fast path (d = 64 or 128): one CTA = 128 query rows of one (batch, head), 3 warpgroups:
//   * warpgroup 0 = producer: one thread issues TMA loads (cp.async.bulk.tensor, 128B swizzle)
//     of the Q tile once and of K/V tiles of 128 keys into a ring of STAGES buffers, with
//     full/empty mbarriers (setmaxnreg.dec: it needs almost no registers);
//   * warpgroups 1, 2 = consumers, 64 query rows each (setmaxnreg.inc to 240 registers):
//       S  = Q K^T      wgmma m64n128k16, Q and K both from shared memory, K-major;
//       P  = exp2(S * log2(e)/sqrt(d) - m) (online softmax, fp32), rounded to fp16 in
//            registers: the wgmma accumulator layout of S is, pair by pair, the register-A
//            fragment layout of the next wgmma, so no shuffles and no shared memory;
//       O += P V        wgmma m64n{d}k16, P from registers, V from shared memory as an
//                       N-major ("transposed") operand.
//     The S wgmma of key block j is issued before the P V wgmma of block j-1, and the softmax
//     of block j runs while P V of block j-1 is still on the tensor cores.
//   Keys past s: TMA zero-fills rows past s (3-D tensor map [b*h][s][d]) and the scores of the
//   last partial block are masked to -inf. Query rows past s are computed on zero rows and
//   never stored.
// Other head sizes (d = 32): a simple WMMA kernel (the approach of the CUDA editorial).
//
// The driver entry point cuTensorMapEncodeTiled is fetched through the runtime
// (cudaGetDriverEntryPointByVersion), so nothing links against libcuda.
#include <cuda.h>  // CUtensorMap and its enums (types only)
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include <math.h>
#include <mma.h>
#include <stdint.h>

#include <type_traits>

namespace {

// ------------------------------------------------------------------------------------------
// Fast path constants and shared-memory layout
// ------------------------------------------------------------------------------------------
constexpr int BM = 128;           // query rows per CTA (2 consumer warpgroups x 64)
constexpr int BN = 128;           // keys per block
constexpr int FAST_THREADS = 384; // producer warpgroup + 2 consumer warpgroups
constexpr int PANEL_BYTES = 128 * 128;  // 128 rows x 64 halves (128 B, one swizzle width)
constexpr int EMPTY_ARRIVALS = 8;        // one per consumer warp

template <int D>
struct Fast {
    static constexpr int PANELS = D / 64;               // 64-column panels of a tile
    static constexpr int STAGES = D == 64 ? 3 : 2;      // K/V ring depth
    static constexpr int TILE_BYTES = PANELS * PANEL_BYTES;  // a Q, K or V tile
    static constexpr int Q_OFF = 0;
    static constexpr int K_OFF = Q_OFF + TILE_BYTES;
    static constexpr int V_OFF = K_OFF + STAGES * TILE_BYTES;
    static constexpr int BAR_OFF = V_OFF + STAGES * TILE_BYTES;
    static constexpr int NBARS = 1 + 4 * STAGES;        // q_full, k_full, k_empty, v_full, v_empty
    static constexpr int SMEM = BAR_OFF + 8 * NBARS + 1024;  // + slack for 1024-B alignment
    static constexpr int NO = D / 2;                    // O accumulator floats per thread
};

// ------------------------------------------------------------------------------------------
// PTX wrappers
// ------------------------------------------------------------------------------------------
__device__ __forceinline__ uint32_t smem_u32(const void* p) {
    return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}

__device__ __forceinline__ void mbar_init(uint32_t bar, uint32_t count) {
    asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" : : "r"(bar), "r"(count) : "memory");
}

__device__ __forceinline__ void mbar_expect_tx(uint32_t bar, uint32_t bytes) {
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" : : "r"(bar), "r"(bytes)
                 : "memory");
}

__device__ __forceinline__ void mbar_arrive(uint32_t bar) {
    asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" : : "r"(bar) : "memory");
}

__device__ __forceinline__ void mbar_wait(uint32_t bar, uint32_t parity) {
    uint32_t done;
    do {
        asm volatile(
            "{\n.reg .pred p;\n"
            "mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n"
            "selp.u32 %0, 1, 0, p;\n}\n"
            : "=r"(done)
            : "r"(bar), "r"(parity)
            : "memory");
    } while (!done);
}

// 3-D tiled TMA load (coordinates innermost first: d, row, head) completing on an mbarrier.
__device__ __forceinline__ void tma_load_3d(uint32_t dst, const CUtensorMap* map, int c0, int c1,
                                            int c2, uint32_t bar) {
    asm volatile(
        "cp.async.bulk.tensor.3d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"
        " [%0], [%1, {%2, %3, %4}], [%5];"
        :
        : "r"(dst), "l"(reinterpret_cast<uint64_t>(map)), "r"(c0), "r"(c1), "r"(c2), "r"(bar)
        : "memory");
}

__device__ __forceinline__ void prefetch_map(const CUtensorMap* map) {
    asm volatile("prefetch.tensormap [%0];" : : "l"(reinterpret_cast<uint64_t>(map)) : "memory");
}

// wgmma shared-memory matrix descriptor: start address >> 4 (bits 0-13), leading byte offset
// >> 4 (16-29), stride byte offset >> 4 (32-45), base offset 0 (tiles are 1024-B aligned),
// swizzle mode 1 = 128B (bits 62-63).
__device__ __forceinline__ uint64_t make_desc(uint32_t addr, uint32_t lbo, uint32_t sbo) {
    return (uint64_t)((addr & 0x3FFFF) >> 4) | ((uint64_t)((lbo >> 4) & 0x3FFF) << 16) |
           ((uint64_t)((sbo >> 4) & 0x3FFF) << 32) | (1ull << 62);
}

__device__ __forceinline__ void wgmma_fence() {
    asm volatile("wgmma.fence.sync.aligned;" : : : "memory");
}
__device__ __forceinline__ void wgmma_commit() {
    asm volatile("wgmma.commit_group.sync.aligned;" : : : "memory");
}
template <int N>
__device__ __forceinline__ void wgmma_wait() {
    asm volatile("wgmma.wait_group.sync.aligned %0;" : : "n"(N) : "memory");
}

// Pin register values after a wgmma wait: the compiler must neither read accumulators before
// the wait nor reuse the registers of an A fragment still read by an in-flight wgmma.
template <int N>
__device__ __forceinline__ void reg_fence(float (&r)[N]) {
#pragma unroll
    for (int i = 0; i < N; ++i) asm volatile("" : "+f"(r[i]) : : "memory");
}
template <int N>
__device__ __forceinline__ void reg_fence(uint32_t (&r)[N]) {
#pragma unroll
    for (int i = 0; i < N; ++i) asm volatile("" : "+r"(r[i]) : : "memory");
}

__device__ __forceinline__ float ex2(float x) {
    float y;
    asm("ex2.approx.ftz.f32 %0, %1;" : "=f"(y) : "f"(x));
    return y;
}

__device__ __forceinline__ uint32_t pack_half2(float lo, float hi) {
    __half2 h = __floats2half2_rn(lo, hi);  // .x = lo (low 16 bits)
    return *reinterpret_cast<uint32_t*>(&h);
}

// D[64 x 128] (+)= A[64 x 16] * B[16 x 128]; A and B from shared memory, both K-major.
__device__ __forceinline__ void wgmma_ss_n128(float (&d)[64], uint64_t da, uint64_t db, int accumulate) {
    asm volatile(
        "{\n.reg .pred p;\n"
        "setp.ne.b32 p, %66, 0;\n"
        "wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16 "
        "{"
        "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15,"
        "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31,"
        "%32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47,"
        "%48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63"
        "}, %64, %65, p, 1, 1, 0, 0;\n}\n"
        : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]),
          "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]),
          "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]),
          "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]),
          "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]),
          "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]),
          "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]),
          "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63])
        : "l"(da), "l"(db), "r"(accumulate));
}

// D[64 x 64] += A[64 x 16] * B[16 x 64]; A from registers (fp16 fragments), B from shared memory,
// N-major (imm-trans-b = 1).
__device__ __forceinline__ void wgmma_rs_n64_tb(float (&d)[32], const uint32_t (&a)[4], uint64_t db) {
    asm volatile(
        "wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 "
        "{"
        "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15,"
        "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31"
        "}, {%32, %33, %34, %35}, %36, 1, 1, 1, 1;\n"
        : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]),
          "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]),
          "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]),
          "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31])
        : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(db));
}

// D[64 x 128] += A[64 x 16] * B[16 x 128]; A from registers (fp16 fragments), B from shared memory,
// N-major (imm-trans-b = 1).
__device__ __forceinline__ void wgmma_rs_n128_tb(float (&d)[64], const uint32_t (&a)[4], uint64_t db) {
    asm volatile(
        "wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16 "
        "{"
        "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15,"
        "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31,"
        "%32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47,"
        "%48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63"
        "}, {%64, %65, %66, %67}, %68, 1, 1, 1, 1;\n"
        : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]),
          "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]),
          "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]),
          "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]),
          "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]),
          "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]),
          "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]),
          "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63])
        : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(db));
}

// ------------------------------------------------------------------------------------------
// Fast kernel
// ------------------------------------------------------------------------------------------
template <int D>
__device__ __forceinline__ void issue_pv(float (&o)[D / 2], const uint32_t (&p)[BN / 4],
                                         uint32_t v_tile) {
#pragma unroll
    for (int kk = 0; kk < BN / 16; ++kk) {
        // B = V[16 keys x D]: N-major, rows of 128 B (one 64-column panel), 8-key groups
        // 1024 B apart (SBO), panels PANEL_BYTES apart (LBO).
        const uint64_t db = make_desc(v_tile + kk * 2048, PANEL_BYTES, 1024);
        const uint32_t a[4] = {p[4 * kk], p[4 * kk + 1], p[4 * kk + 2], p[4 * kk + 3]};
        if constexpr (D == 64)
            wgmma_rs_n64_tb(o, a, db);
        else
            wgmma_rs_n128_tb(o, a, db);
    }
}

template <int D>
__device__ __forceinline__ void issue_s(float (&sacc)[BN / 2], uint32_t q_rows, uint32_t k_tile) {
#pragma unroll
    for (int kk = 0; kk < D / 16; ++kk) {
        // K-major, 128B swizzle: 16 columns = 32 B further along the 128-B row inside a panel;
        // 8-row groups 1024 B apart (SBO); LBO unused for swizzled K-major layouts.
        const uint32_t off = (kk >> 2) * PANEL_BYTES + (kk & 3) * 32;
        const uint64_t da = make_desc(q_rows + off, 16, 1024);
        const uint64_t db = make_desc(k_tile + off, 16, 1024);
        wgmma_ss_n128(sacc, da, db, kk > 0);
    }
}

// Online-softmax update of one key block. sacc holds raw scores (this thread: rows r and r+8
// of its warp's 16, columns 8j + 2(lane%4) + {0,1}); on return it holds P = exp2(S*c - m_new)
// in fp32, m/l are updated (l is this thread's partial row sum), corr = exp2(m_old - m_new).
__device__ __forceinline__ void softmax_block(float (&sacc)[BN / 2], float (&m)[2], float (&l)[2],
                                              float (&corr)[2], float scale_log2) {
    // Four independent chains per row (8 in all) for instruction-level parallelism.
    float mxc[2][4];
#pragma unroll
    for (int h = 0; h < 2; ++h)
#pragma unroll
        for (int g = 0; g < 4; ++g) mxc[h][g] = -INFINITY;
#pragma unroll
    for (int i = 0; i < BN / 2; ++i) {
        float& acc = mxc[(i >> 1) & 1][(i >> 2) & 3];
        acc = fmaxf(acc, sacc[i]);
    }
    float mx[2];
#pragma unroll
    for (int h = 0; h < 2; ++h) {
        mx[h] = fmaxf(fmaxf(mxc[h][0], mxc[h][1]), fmaxf(mxc[h][2], mxc[h][3]));
        mx[h] = fmaxf(mx[h], __shfl_xor_sync(0xffffffffu, mx[h], 1));
        mx[h] = fmaxf(mx[h], __shfl_xor_sync(0xffffffffu, mx[h], 2));
        const float m_new = fmaxf(m[h], mx[h] * scale_log2);  // finite: every block has a key
        corr[h] = ex2(m[h] - m_new);                          // 0 on the first block
        m[h] = m_new;
    }
    float sumc[2][4];
#pragma unroll
    for (int h = 0; h < 2; ++h)
#pragma unroll
        for (int g = 0; g < 4; ++g) sumc[h][g] = 0.0f;
    const float neg_m[2] = {-m[0], -m[1]};
#pragma unroll
    for (int i = 0; i < BN / 2; ++i) {
        const int h = (i >> 1) & 1;
        sacc[i] = ex2(fmaf(sacc[i], scale_log2, neg_m[h]));
        sumc[h][(i >> 2) & 3] += sacc[i];
    }
#pragma unroll
    for (int h = 0; h < 2; ++h)
        l[h] = l[h] * corr[h] + ((sumc[h][0] + sumc[h][1]) + (sumc[h][2] + sumc[h][3]));
}

// Scores of keys >= lim (lim = s - first key of the block, < BN) become -inf.
__device__ __forceinline__ void mask_block(float (&sacc)[BN / 2], int lim, int lane) {
#pragma unroll
    for (int i = 0; i < BN / 2; ++i) {
        const int col = 8 * (i >> 2) + 2 * (lane & 3) + (i & 1);
        if (col >= lim) sacc[i] = -INFINITY;
    }
}

// The fp32 accumulator of S (64 x BN) as fp16 register-A fragments of the P V wgmma: fragment
// kk (keys 16kk .. 16kk+15) is {p[4kk], .., p[4kk+3]} and p[u] = (sacc[2u], sacc[2u+1]).
__device__ __forceinline__ void convert_p(uint32_t (&p)[BN / 4], const float (&sacc)[BN / 2]) {
#pragma unroll
    for (int u = 0; u < BN / 4; ++u) p[u] = pack_half2(sacc[2 * u], sacc[2 * u + 1]);
}

template <int D>
__global__ void __launch_bounds__(FAST_THREADS, 1)
attn_fwd_wgmma(const __grid_constant__ CUtensorMap tmq, const __grid_constant__ CUtensorMap tmk,
               const __grid_constant__ CUtensorMap tmv, half* __restrict__ o, int s,
               float scale_log2) {
    using C = Fast<D>;
    constexpr int S = C::STAGES;
    extern __shared__ unsigned char smem_raw[];
    const uint32_t base = (smem_u32(smem_raw) + 1023u) & ~1023u;
    const uint32_t sQ = base + C::Q_OFF, sK = base + C::K_OFF, sV = base + C::V_OFF;
    const uint32_t bars = base + C::BAR_OFF;
    const uint32_t q_full = bars;
    auto k_full = [&](int i) { return bars + 8u * (1 + i); };
    auto k_empty = [&](int i) { return bars + 8u * (1 + S + i); };
    auto v_full = [&](int i) { return bars + 8u * (1 + 2 * S + i); };
    auto v_empty = [&](int i) { return bars + 8u * (1 + 3 * S + i); };

    const int tid = threadIdx.x;
    const int wg = tid / 128;
    const int bh = blockIdx.y;
    const int q0 = blockIdx.x * BM;
    const int nblk = (s + BN - 1) / BN;

    if (tid == 0) {
        mbar_init(q_full, 1);
        for (int i = 0; i < S; ++i) {
            mbar_init(k_full(i), 1);
            mbar_init(v_full(i), 1);
            mbar_init(k_empty(i), EMPTY_ARRIVALS);
            mbar_init(v_empty(i), EMPTY_ARRIVALS);
        }
        asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
        asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    }
    __syncthreads();

    if (wg == 0) {
        // ---------------- producer ----------------
        asm volatile("setmaxnreg.dec.sync.aligned.u32 24;\n" ::: "memory");
        if (tid == 0) {
            prefetch_map(&tmq);
            prefetch_map(&tmk);
            prefetch_map(&tmv);
            mbar_expect_tx(q_full, C::TILE_BYTES);
#pragma unroll
            for (int p = 0; p < C::PANELS; ++p)
                tma_load_3d(sQ + p * PANEL_BYTES, &tmq, 64 * p, q0, bh, q_full);
            for (int j = 0; j < nblk; ++j) {
                const int st = j % S;
                const uint32_t ph = (j / S) & 1;
                mbar_wait(k_empty(st), ph ^ 1);
                mbar_expect_tx(k_full(st), C::TILE_BYTES);
#pragma unroll
                for (int p = 0; p < C::PANELS; ++p)
                    tma_load_3d(sK + st * C::TILE_BYTES + p * PANEL_BYTES, &tmk, 64 * p, j * BN, bh,
                                k_full(st));
                mbar_wait(v_empty(st), ph ^ 1);
                mbar_expect_tx(v_full(st), C::TILE_BYTES);
#pragma unroll
                for (int p = 0; p < C::PANELS; ++p)
                    tma_load_3d(sV + st * C::TILE_BYTES + p * PANEL_BYTES, &tmv, 64 * p, j * BN, bh,
                                v_full(st));
            }
        }
    } else {
        // ---------------- consumers ----------------
        asm volatile("setmaxnreg.inc.sync.aligned.u32 240;\n" ::: "memory");
        const int cw = wg - 1;           // which 64-row half of the CTA's queries
        const int t = tid & 127;
        const int warp = t >> 5, lane = t & 31;
        const uint32_t q_rows = sQ + cw * 64 * 128;  // this warpgroup's 64 rows of each Q panel

        float oacc[C::NO];
#pragma unroll
        for (int i = 0; i < C::NO; ++i) oacc[i] = 0.0f;
        float sacc[BN / 2];
        uint32_t p[BN / 4];
        float m[2] = {-INFINITY, -INFINITY}, l[2] = {0.0f, 0.0f}, corr[2];

        mbar_wait(q_full, 0);

        // Block 0: S, softmax, P.
        mbar_wait(k_full(0), 0);
        wgmma_fence();
        issue_s<D>(sacc, q_rows, sK);
        wgmma_commit();
        wgmma_wait<0>();
        reg_fence(sacc);
        __syncwarp();
        if (lane == 0) mbar_arrive(k_empty(0));
        if (s < BN) mask_block(sacc, s, lane);
        softmax_block(sacc, m, l, corr, scale_log2);
        convert_p(p, sacc);

        // One key block j >= 1. MASK (last block, s not a multiple of BN) is a template flag so
        // that each version of the body is straight-line code: with a run-time branch between
        // the two wgmma waits, ptxas hoisted the wait for P V above the softmax, losing the
        // overlap of softmax and tensor cores.
        auto step = [&](int j, auto mask_tag) {
            const int st = j % S, pst = (j - 1) % S;
            const uint32_t ph = (j / S) & 1, pph = ((j - 1) / S) & 1;
            mbar_wait(k_full(st), ph);
            wgmma_fence();
            issue_s<D>(sacc, q_rows, sK + st * C::TILE_BYTES);  // S_j = Q K_j^T
            wgmma_commit();
            mbar_wait(v_full(pst), pph);
            wgmma_fence();  // explicit: ptxas would otherwise inject one here (C7519)
            issue_pv<D>(oacc, p, sV + pst * C::TILE_BYTES);      // O += P_{j-1} V_{j-1}
            wgmma_commit();
            wgmma_wait<1>();  // S_j done
            reg_fence(sacc);
            __syncwarp();
            if (lane == 0) mbar_arrive(k_empty(st));
            if constexpr (decltype(mask_tag)::value) mask_block(sacc, s - j * BN, lane);
            softmax_block(sacc, m, l, corr, scale_log2);
            wgmma_wait<0>();  // P_{j-1} V_{j-1} done
            reg_fence(oacc);
            reg_fence(p);
            __syncwarp();
            if (lane == 0) mbar_arrive(v_empty(pst));
#pragma unroll
            for (int i = 0; i < C::NO; ++i) oacc[i] *= corr[(i >> 1) & 1];
            convert_p(p, sacc);
        };
        for (int j = 1; j < nblk - 1; ++j) step(j, std::false_type{});
        if (nblk > 1) {
            if (s % BN != 0)
                step(nblk - 1, std::true_type{});
            else
                step(nblk - 1, std::false_type{});
        }

        {
            const int j = nblk - 1;
            const int st = j % S;
            const uint32_t ph = (j / S) & 1;
            mbar_wait(v_full(st), ph);
            wgmma_fence();
            issue_pv<D>(oacc, p, sV + st * C::TILE_BYTES);
            wgmma_commit();
            wgmma_wait<0>();
            reg_fence(oacc);
            reg_fence(p);
        }

        // Epilogue: full row sums, O / l, fp16 stores of rows < s.
#pragma unroll
        for (int h = 0; h < 2; ++h) {
            l[h] += __shfl_xor_sync(0xffffffffu, l[h], 1);
            l[h] += __shfl_xor_sync(0xffffffffu, l[h], 2);
        }
        const float inv[2] = {1.0f / l[0], 1.0f / l[1]};
        const int row0 = q0 + cw * 64 + warp * 16 + (lane >> 2);
        half* obase = o + (size_t)bh * s * D;
#pragma unroll
        for (int h = 0; h < 2; ++h) {
            const int row = row0 + 8 * h;
            if (row < s) {
                half* orow = obase + (size_t)row * D + 2 * (lane & 3);
#pragma unroll
                for (int jn = 0; jn < D / 8; ++jn) {
                    const float a = oacc[4 * jn + 2 * h] * inv[h];
                    const float b = oacc[4 * jn + 2 * h + 1] * inv[h];
                    *reinterpret_cast<__half2*>(orow + 8 * jn) = __floats2half2_rn(a, b);
                }
            }
        }
    }
}

// ------------------------------------------------------------------------------------------
// Fallback: WMMA kernel (the CUDA editorial's approach), used for d = 32 and if TMA setup fails
// ------------------------------------------------------------------------------------------
namespace fallback {
using namespace nvcuda;
constexpr int FBM = 64;
constexpr int FBN = 64;
constexpr int WARPS = FBM / 16;
constexpr int THREADS = WARPS * 32;

constexpr size_t align128(size_t x) { return (x + 127) / 128 * 128; }

template <int D>
struct Layout {
    static constexpr int QLD = D + 8;
    static constexpr int SLD = FBN + 4;
    static constexpr int PLD = FBN + 8;
    static constexpr int OLD = D + 4;
    static constexpr size_t Q = 0;
    static constexpr size_t K = Q + align128(sizeof(half) * FBM * QLD);
    static constexpr size_t V = K + align128(sizeof(half) * FBN * QLD);
    static constexpr size_t S = V + align128(sizeof(half) * FBN * QLD);
    static constexpr size_t P = S + align128(sizeof(float) * FBM * SLD);
    static constexpr size_t O = P + align128(sizeof(half) * FBM * PLD);
    static constexpr size_t BYTES = O + align128(sizeof(float) * FBM * OLD);
};

template <int D>
__device__ __forceinline__ void load_rows(half* dst, const half* src, int r0, int rows, int s) {
    constexpr int VPR = D / 8;
    for (int i = threadIdx.x; i < rows * VPR; i += THREADS) {
        const int r = i / VPR, c = (i % VPR) * 8;
        uint4 val = make_uint4(0u, 0u, 0u, 0u);
        if (r0 + r < s) val = *reinterpret_cast<const uint4*>(src + (size_t)(r0 + r) * D + c);
        *reinterpret_cast<uint4*>(dst + r * Layout<D>::QLD + c) = val;
    }
}

template <int D>
__global__ void __launch_bounds__(THREADS)
attn_wmma(const half* __restrict__ q, const half* __restrict__ k, const half* __restrict__ v,
          half* __restrict__ o, int s, float scale_log2) {
    using L = Layout<D>;
    extern __shared__ __align__(128) unsigned char smem[];
    half* qs = reinterpret_cast<half*>(smem + L::Q);
    half* ks = reinterpret_cast<half*>(smem + L::K);
    half* vs = reinterpret_cast<half*>(smem + L::V);
    const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    float* sw = reinterpret_cast<float*>(smem + L::S) + warp * 16 * L::SLD;
    half* pw = reinterpret_cast<half*>(smem + L::P) + warp * 16 * L::PLD;
    float* ow = reinterpret_cast<float*>(smem + L::O) + warp * 16 * L::OLD;

    const size_t head = (size_t)blockIdx.y * s * D;
    const int q0 = blockIdx.x * FBM;
    load_rows<D>(qs, q + head, q0, FBM, s);
    for (int i = lane; i < 16 * D; i += 32) ow[(i / D) * L::OLD + i % D] = 0.0f;
    __syncthreads();

    wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> qf[D / 16];
#pragma unroll
    for (int kk = 0; kk < D / 16; ++kk)
        wmma::load_matrix_sync(qf[kk], qs + warp * 16 * L::QLD + kk * 16, L::QLD);

    const int r = lane / 2, hc = lane % 2;
    float m_i = -INFINITY, l_i = 0.0f;

    for (int n0 = 0; n0 < s; n0 += FBN) {
        __syncthreads();
        load_rows<D>(ks, k + head, n0, FBN, s);
        load_rows<D>(vs, v + head, n0, FBN, s);
        __syncthreads();
#pragma unroll
        for (int nf = 0; nf < FBN / 16; ++nf) {
            wmma::fragment<wmma::accumulator, 16, 16, 16, float> sf;
            wmma::fill_fragment(sf, 0.0f);
#pragma unroll
            for (int kk = 0; kk < D / 16; ++kk) {
                wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::col_major> kf;
                wmma::load_matrix_sync(kf, ks + nf * 16 * L::QLD + kk * 16, L::QLD);
                wmma::mma_sync(sf, qf[kk], kf, sf);
            }
            wmma::store_matrix_sync(sw + nf * 16, sf, L::SLD, wmma::mem_row_major);
        }
        __syncwarp();
        const int valid = min(FBN, s - n0);
        float* srow = sw + r * L::SLD;
        half* prow = pw + r * L::PLD;
        float mx = -INFINITY;
        for (int j = hc; j < FBN; j += 2) {
            const float x = j < valid ? srow[j] * scale_log2 : -INFINITY;
            srow[j] = x;
            mx = fmaxf(mx, x);
        }
        mx = fmaxf(mx, __shfl_xor_sync(0xffffffffu, mx, 1));
        const float m_new = fmaxf(m_i, mx);
        const float cr = exp2f(m_i - m_new);
        float sum = 0.0f;
        for (int j = hc; j < FBN; j += 2) {
            const half pv = __float2half_rn(exp2f(srow[j] - m_new));
            prow[j] = pv;
            sum += __half2float(pv);
        }
        sum += __shfl_xor_sync(0xffffffffu, sum, 1);
        l_i = l_i * cr + sum;
        m_i = m_new;
        float* orow = ow + r * L::OLD;
        for (int c = hc; c < D; c += 2) orow[c] *= cr;
        __syncwarp();
        wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> pf[FBN / 16];
#pragma unroll
        for (int kk = 0; kk < FBN / 16; ++kk) wmma::load_matrix_sync(pf[kk], pw + kk * 16, L::PLD);
#pragma unroll
        for (int df = 0; df < D / 16; ++df) {
            wmma::fragment<wmma::accumulator, 16, 16, 16, float> of;
            wmma::load_matrix_sync(of, ow + df * 16, L::OLD, wmma::mem_row_major);
#pragma unroll
            for (int kk = 0; kk < FBN / 16; ++kk) {
                wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::row_major> vf;
                wmma::load_matrix_sync(vf, vs + kk * 16 * L::QLD + df * 16, L::QLD);
                wmma::mma_sync(of, pf[kk], vf, of);
            }
            wmma::store_matrix_sync(ow + df * 16, of, L::OLD, wmma::mem_row_major);
        }
        __syncwarp();
    }

    const int row = q0 + warp * 16 + r;
    if (row < s) {
        const float inv = 1.0f / l_i;
        const float* orow = ow + r * L::OLD + hc * (D / 2);
        __half2* dst = reinterpret_cast<__half2*>(o + head + (size_t)row * D + hc * (D / 2));
        for (int c = 0; c < D / 4; ++c)
            dst[c] = __floats2half2_rn(orow[2 * c] * inv, orow[2 * c + 1] * inv);
    }
}

template <int D>
void launch(const half* q, const half* k, const half* v, half* o, int b, int h, int s) {
    const size_t bytes = Layout<D>::BYTES;
    cudaFuncSetAttribute(attn_wmma<D>, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)bytes);
    dim3 grid((s + FBM - 1) / FBM, b * h);
    attn_wmma<D><<<grid, THREADS, bytes>>>(q, k, v, o, s, 1.4426950408889634f / sqrtf((float)D));
}
}  // namespace fallback

// ------------------------------------------------------------------------------------------
// Host side of the fast path
// ------------------------------------------------------------------------------------------
typedef CUresult (*EncodeTiledFn)(CUtensorMap*, CUtensorMapDataType, cuuint32_t, void*,
                                  const cuuint64_t*, const cuuint64_t*, const cuuint32_t*,
                                  const cuuint32_t*, CUtensorMapInterleave, CUtensorMapSwizzle,
                                  CUtensorMapL2promotion, CUtensorMapFloatOOBfill);

EncodeTiledFn encode_fn() {
    static EncodeTiledFn fn = nullptr;
    static bool tried = false;
    if (!tried) {
        tried = true;
        void* p = nullptr;
        cudaDriverEntryPointQueryResult q = cudaDriverEntryPointSymbolNotFound;
        if (cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &p, 12000, cudaEnableDefault,
                                             &q) == cudaSuccess &&
            q == cudaDriverEntryPointSuccess && p != nullptr)
            fn = reinterpret_cast<EncodeTiledFn>(p);
        else
            cudaGetLastError();  // leave no sticky error behind
    }
    return fn;
}

// [b*h][s][d] fp16 viewed as a 3-D tensor (d innermost); boxes of 64 columns x 128 rows x 1 head,
// 128B swizzle; rows past s read as zeros.
bool make_map(EncodeTiledFn enc, CUtensorMap* map, const half* ptr, int bh, int s, int d) {
    const cuuint64_t dims[3] = {(cuuint64_t)d, (cuuint64_t)s, (cuuint64_t)bh};
    const cuuint64_t strides[2] = {(cuuint64_t)d * 2, (cuuint64_t)s * d * 2};
    const cuuint32_t box[3] = {64, 128, 1};
    const cuuint32_t estr[3] = {1, 1, 1};
    return enc(map, CU_TENSOR_MAP_DATA_TYPE_FLOAT16, 3, const_cast<half*>(ptr), dims, strides, box,
               estr, CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B,
               CU_TENSOR_MAP_L2_PROMOTION_L2_256B,
               CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE) == CUDA_SUCCESS;
}

template <int D>
bool launch_fast(const half* q, const half* k, const half* v, half* o, int b, int h, int s) {
    EncodeTiledFn enc = encode_fn();
    if (enc == nullptr) return false;
    // TMA needs 16-B aligned base addresses.
    if (((uintptr_t)q | (uintptr_t)k | (uintptr_t)v) & 15) return false;
    CUtensorMap mq, mk, mv;
    const int bh = b * h;
    if (!make_map(enc, &mq, q, bh, s, D) || !make_map(enc, &mk, k, bh, s, D) ||
        !make_map(enc, &mv, v, bh, s, D))
        return false;
    static bool attr_set = false;
    if (!attr_set) {
        if (cudaFuncSetAttribute(attn_fwd_wgmma<D>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                 Fast<D>::SMEM) != cudaSuccess) {
            cudaGetLastError();
            return false;
        }
        attr_set = true;
    }
    dim3 grid((s + BM - 1) / BM, bh);
    attn_fwd_wgmma<D><<<grid, FAST_THREADS, Fast<D>::SMEM>>>(
        mq, mk, mv, o, s, 1.4426950408889634f / sqrtf((float)D));
    return true;
}

bool is_hopper() {
    static int cached = -1;
    if (cached < 0) {
        int dev = 0, major = 0, minor = 0;
        cudaGetDevice(&dev);
        cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev);
        cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, dev);
        cached = (major == 9 && minor == 0) ? 1 : 0;
    }
    return cached == 1;
}

}  // namespace

extern "C" void solve(const half* q, const half* k, const half* v, half* o, int b, int h, int s,
                      int d) {
    if (b <= 0 || h <= 0 || s <= 0) return;
    const bool fast_ok = is_hopper();
    switch (d) {
        case 64:
            if (!(fast_ok && launch_fast<64>(q, k, v, o, b, h, s)))
                fallback::launch<64>(q, k, v, o, b, h, s);
            break;
        case 128:
            if (!(fast_ok && launch_fast<128>(q, k, v, o, b, h, s)))
                fallback::launch<128>(q, k, v, o, b, h, s);
            break;
        case 32: fallback::launch<32>(q, k, v, o, b, h, s); break;
        default: break;  // the problem guarantees d in {32, 64, 128}
    }
}
