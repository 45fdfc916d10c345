// TF32 matmul for Hopper (sm_90a): c = a @ b with warpgroup MMA (wgmma) fed by TMA.
//
// Why c^T = b^T a^T. For .tf32, wgmma only accepts shared-memory operands that are K-major
// (the transpose bits exist for 16-bit types only). a (m x k, row-major) is K-major; b (k x n,
// row-major) is not. A separate transpose pass over b costs ~44 us at 4096^2, which alone eats
// the headroom between cuBLAS (~347 us) and the 0.9x target, so instead each CTA computes a tile
// of c^T = b^T a^T:
//   * wgmma's B operand (shared memory, K-major) is a^T: TMA copies a 256(m) x 32(k) box of a
//     with the 128-byte swizzle; its rows are contiguous along k, which is exactly the canonical
//     K-major SW128 layout (8-row x 128-byte atoms, stride 1024 bytes between 8-row groups).
//   * wgmma's A operand comes from REGISTERS (allowed for tf32): the 64 x 8 fragment of b^T.
//     TMA copies b as 32(n) x 32(k) boxes (128-byte swizzle) and each thread picks its four
//     fragment values with two 8-byte shared loads per k-step.
//   * The accumulator (64 rows of n x 256 columns of m per consumer warpgroup) is a tile of c^T;
//     the epilogue writes it to c directly from registers.
// The wgmma M dimension (rows of b^T = columns of c) may be permuted freely, as long as the
// epilogue knows the permutation. The permutation P below is chosen so that (1) every fragment
// load is an 8-byte ld.shared of two values that are adjacent along n (the fragment rows g and
// g+8 map to n and n+1), (2) those loads are free of bank conflicts under the 128-byte TMA
// swizzle, and (3) each epilogue st.global.v2 instruction of a warp covers full 32-byte sectors
// (8 consecutive floats of a row of c per group of 4 lanes).
//
// Kernel structure: persistent (one CTA per SM, tiles in L2-friendly groups of 8 m-tiles),
// 384 threads = 1 producer warpgroup (one thread issues TMA; setmaxnreg.dec to 56) + 2 consumer
// warpgroups (setmaxnreg.inc to 224) each owning 64 (n) x 256 (m) of the 128 x 256 CTA tile with
// m64n256k8 wgmmas (128 fp32 accumulators per thread). 4-stage smem ring (48 KB per stage) with
// full/empty mbarriers; consumers keep one k-tile of wgmmas in flight (wait_group 1) while
// loading the next k-tile's register fragments. K, M, N edges: TMA zero-fills out-of-bounds box
// elements (they add 0), the epilogue masks stores. Values enter the tensor cores as raw fp32
// bits (the tf32 datapath ignores the low 13 mantissa bits: truncation, within tolerance).
//
// Clusters of 2 CTAs sharing the a tile through TMA multicast (halving its L2->SM traffic) were
// measured at 0.345 ms vs 0.342 ms at 4096^3 on an H100 (no gain) and dropped.
//
// Fast path requirements: n % 4 == 0 (b's TMA row stride must be a 16-byte multiple; n even also
// keeps the 8-byte epilogue stores in bounds), b 16-byte aligned, c 8-byte aligned, and the
// tensor-map encoder available. a's TMA row stride k * 4 must be a 16-byte multiple too: when
// k % 4 != 0 (or a is not 16-byte aligned), solve first copies a into a cached scratch buffer of
// row stride k4 = round_up(k, 4) with zero padding columns (one extra read and write of a: about
// 50 MB at 3000 x 2049, tens of microseconds). The a map then spans k4 columns and b's map keeps
// its k real rows, so TMA zero-fills b's rows >= k and the padding adds exactly 0; the kernel's
// k-tile count ceil(k / 32) equals ceil(k4 / 32). n % 4 != 0 goes to a WMMA fallback kernel (the
// approach of problems/matmul/solutions/accepted/cuda_fast.cu), correct for any shape.
#include <cuda.h>  // CUtensorMap and its enums only; the driver entry point comes via cudart
#include <cuda_runtime.h>
#include <mma.h>
#include <limits.h>
#include <stdint.h>

namespace {

// ----------------------------------------------------------------------------------------------
// Fast path: TMA + wgmma, warp-specialised, persistent.
// ----------------------------------------------------------------------------------------------
constexpr int TM = 256;  // m per CTA tile (wgmma N)
constexpr int TN = 128;  // n per CTA tile (2 consumer warpgroups x wgmma M = 64)
constexpr int TK = 32;   // k per stage: one 128-byte swizzle row of fp32
constexpr int STAGES = 4;
constexpr int A_BYTES = TM * TK * 4;             // 32 KB: a box, 256 rows (m) x 128 B (k)
constexpr int B_BOX_BYTES = 32 * TK * 4;         // 4 KB: b box, 32 rows (k) x 128 B (32 n)
constexpr int B_BYTES = (TN / 32) * B_BOX_BYTES; // 16 KB
constexpr int STAGE_BYTES = A_BYTES + B_BYTES;   // 48 KB, a multiple of 1024
constexpr int SMEM_BYTES = STAGES * STAGE_BYTES + 2 * STAGES * 8 + 1024;  // + barriers + align slack
constexpr int THREADS_WS = 384;
constexpr int GROUP_M = 8;
static_assert(STAGE_BYTES % 1024 == 0 && A_BYTES % 1024 == 0, "SW128 needs 1024-byte alignment");

__device__ __forceinline__ uint32_t smem_u32(const void* p) {
    return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}

__device__ __forceinline__ void mbar_init(uint32_t bar, uint32_t count) {
    asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(bar), "r"(count) : "memory");
}

__device__ __forceinline__ void mbar_arrive(uint32_t bar) {
    asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" ::"r"(bar) : "memory");
}

__device__ __forceinline__ void mbar_arrive_expect_tx(uint32_t bar, uint32_t bytes) {
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(bar), "r"(bytes)
                 : "memory");
}

__device__ __forceinline__ void mbar_wait(uint32_t bar, uint32_t parity) {
    asm volatile(
        "{\n"
        ".reg .pred p;\n"
        "WAIT_%=:\n"
        "mbarrier.try_wait.parity.shared::cta.b64 p, [%0], %1;\n"
        "@!p bra WAIT_%=;\n"
        "}\n" ::"r"(bar),
        "r"(parity)
        : "memory");
}

__device__ __forceinline__ void tma_load_2d(uint32_t dst, const CUtensorMap* map, uint32_t bar,
                                            int c0, int c1) {
    asm volatile(
        "cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes"
        " [%0], [%1, {%3, %4}], [%2];" ::"r"(dst),
        "l"(reinterpret_cast<uint64_t>(map)), "r"(bar), "r"(c0), "r"(c1)
        : "memory");
}

__device__ __forceinline__ void wgmma_fence() {
    asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
}
__device__ __forceinline__ void wgmma_commit() {
    asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
}
template <int N>
__device__ __forceinline__ void wgmma_wait() {
    asm volatile("wgmma.wait_group.sync.aligned %0;" ::"n"(N) : "memory");
}

// Shared-memory matrix descriptor: K-major, 128-byte swizzle, 8-row groups 1024 bytes apart.
// bits 0-13 start address >> 4, 16-29 leading byte offset >> 4 (unused for swizzled K-major,
// set to 1), 32-45 stride byte offset >> 4, 49-51 base offset (0: stage buffers are
// 1024-aligned), 62-63 layout (1 = 128-byte swizzle).
__device__ __forceinline__ uint64_t make_desc_sw128(uint32_t saddr) {
    uint64_t d = 0;
    d |= static_cast<uint64_t>((saddr & 0x3FFFF) >> 4);
    d |= static_cast<uint64_t>(1) << 16;
    d |= static_cast<uint64_t>(1024 >> 4) << 32;
    d |= static_cast<uint64_t>(1) << 62;
    return d;
}

// D(64 x 256, fp32) += A(64 x 8, tf32, registers) * B(8 x 256, tf32, smem descriptor).
__device__ __forceinline__ void wgmma_m64n256k8_rs(float (&d)[128], uint32_t a0, uint32_t a1,
                                                   uint32_t a2, uint32_t a3, uint64_t desc) {
    asm volatile(
        "{\n"
        "wgmma.mma_async.sync.aligned.m64n256k8.f32.tf32.tf32\n"
        "{"
        "%0,%1,%2,%3,%4,%5,%6,%7,%8,%9,%10,%11,%12,%13,%14,%15,"
        "%16,%17,%18,%19,%20,%21,%22,%23,%24,%25,%26,%27,%28,%29,%30,%31,"
        "%32,%33,%34,%35,%36,%37,%38,%39,%40,%41,%42,%43,%44,%45,%46,%47,"
        "%48,%49,%50,%51,%52,%53,%54,%55,%56,%57,%58,%59,%60,%61,%62,%63,"
        "%64,%65,%66,%67,%68,%69,%70,%71,%72,%73,%74,%75,%76,%77,%78,%79,"
        "%80,%81,%82,%83,%84,%85,%86,%87,%88,%89,%90,%91,%92,%93,%94,%95,"
        "%96,%97,%98,%99,%100,%101,%102,%103,%104,%105,%106,%107,%108,%109,%110,%111,"
        "%112,%113,%114,%115,%116,%117,%118,%119,%120,%121,%122,%123,%124,%125,%126,%127"
        "},\n"
        "{%128, %129, %130, %131},\n"
        "%132, 1, 1, 1;\n"
        "}\n"
        :
      "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]),
      "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]),
      "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]),
      "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]),
      "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]),
      "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]),
      "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]),
      "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63]),
      "+f"(d[64]), "+f"(d[65]), "+f"(d[66]), "+f"(d[67]), "+f"(d[68]), "+f"(d[69]), "+f"(d[70]), "+f"(d[71]),
      "+f"(d[72]), "+f"(d[73]), "+f"(d[74]), "+f"(d[75]), "+f"(d[76]), "+f"(d[77]), "+f"(d[78]), "+f"(d[79]),
      "+f"(d[80]), "+f"(d[81]), "+f"(d[82]), "+f"(d[83]), "+f"(d[84]), "+f"(d[85]), "+f"(d[86]), "+f"(d[87]),
      "+f"(d[88]), "+f"(d[89]), "+f"(d[90]), "+f"(d[91]), "+f"(d[92]), "+f"(d[93]), "+f"(d[94]), "+f"(d[95]),
      "+f"(d[96]), "+f"(d[97]), "+f"(d[98]), "+f"(d[99]), "+f"(d[100]), "+f"(d[101]), "+f"(d[102]), "+f"(d[103]),
      "+f"(d[104]), "+f"(d[105]), "+f"(d[106]), "+f"(d[107]), "+f"(d[108]), "+f"(d[109]), "+f"(d[110]), "+f"(d[111]),
      "+f"(d[112]), "+f"(d[113]), "+f"(d[114]), "+f"(d[115]), "+f"(d[116]), "+f"(d[117]), "+f"(d[118]), "+f"(d[119]),
      "+f"(d[120]), "+f"(d[121]), "+f"(d[122]), "+f"(d[123]), "+f"(d[124]), "+f"(d[125]), "+f"(d[126]), "+f"(d[127])
        : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "l"(desc));
}

// Keeps the compiler from moving accumulator reads/writes across wgmma fences/waits.
__device__ __forceinline__ void fence_acc(float (&d)[128]) {
#pragma unroll
    for (int i = 0; i < 128; ++i) asm volatile("" : "+f"(d[i])::"memory");
}

// Tile order: groups of GROUP_M m-tiles; within a group m varies fastest, so the CTAs running at
// the same time share a few panels of a and b in L2.
__device__ __forceinline__ void tile_coords(int tile, int tiles_m, int tiles_n, int& mt, int& nt) {
    const int per_group = GROUP_M * tiles_n;
    const int group = tile / per_group;
    const int first_m = group * GROUP_M;
    const int gsz = min(tiles_m - first_m, GROUP_M);
    const int r = tile - group * per_group;
    mt = first_m + r % gsz;
    nt = r / gsz;
}

// Each CTA loads its own a and b boxes. k only sets the k-tile count (see the header for k % 4 != 0).
__global__ void __launch_bounds__(THREADS_WS, 1)
tf32_wgmma_kernel(const __grid_constant__ CUtensorMap tm_a, const __grid_constant__ CUtensorMap tm_b,
                  float* __restrict__ c, int m, int n, int k) {
    extern __shared__ uint8_t smem_raw[];
    const uint32_t raw = smem_u32(smem_raw);
    const uint32_t base = (raw + 1023u) & ~1023u;  // SW128 atoms must start 1024-aligned
    const uint8_t* base_ptr = smem_raw + (base - raw);
    const uint32_t full0 = base + STAGES * STAGE_BYTES;  // full[s]: TMA landed stage s
    const uint32_t empty0 = full0 + STAGES * 8;          // empty[s]: 8 consumer warps done with s
    const int tiles_m = (m + TM - 1) / TM, tiles_n = (n + TN - 1) / TN;
    const int num_units = tiles_m * tiles_n;  // work units: one output tile each
    const int unit0 = blockIdx.x, unit_step = gridDim.x;
    const int ktiles = (k + TK - 1) / TK;
    const int wg = threadIdx.x / 128;

    if (threadIdx.x == 0) {
#pragma unroll
        for (int s = 0; s < STAGES; ++s) {
            mbar_init(full0 + 8 * s, 1);
            mbar_init(empty0 + 8 * s, 8);  // the 8 consumer warps
        }
        asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
    }
    __syncthreads();

    if (wg == 0) {
        // ---------------- producer warpgroup: one thread drives the TMA ring ----------------
        asm volatile("setmaxnreg.dec.sync.aligned.u32 56;\n" ::: "memory");
        if (threadIdx.x == 0) {
            asm volatile("prefetch.tensormap [%0];" ::"l"(reinterpret_cast<uint64_t>(&tm_a)) : "memory");
            asm volatile("prefetch.tensormap [%0];" ::"l"(reinterpret_cast<uint64_t>(&tm_b)) : "memory");
            uint32_t it = 0;
            for (int unit = unit0; unit < num_units; unit += unit_step) {
                int mt, nt;
                tile_coords(unit, tiles_m, tiles_n, mt, nt);
                for (int kt = 0; kt < ktiles; ++kt, ++it) {
                    const uint32_t s = it % STAGES, ph = (it / STAGES) & 1;
                    mbar_wait(empty0 + 8 * s, ph ^ 1);  // fresh barrier: parity 1 passes at once
                    const uint32_t full = full0 + 8 * s;
                    mbar_arrive_expect_tx(full, STAGE_BYTES);  // OOB-filled bytes count too
                    const uint32_t sa = base + s * STAGE_BYTES, sb = sa + A_BYTES;
                    tma_load_2d(sa, &tm_a, full, kt * TK, mt * TM);
#pragma unroll
                    for (int j = 0; j < TN / 32; ++j)
                        tma_load_2d(sb + j * B_BOX_BYTES, &tm_b, full, nt * TN + j * 32, kt * TK);
                }
            }
        }
    } else {
        // ---------------- consumer warpgroups ----------------
        asm volatile("setmaxnreg.inc.sync.aligned.u32 224;\n" ::: "memory");
        const int cw = wg - 1;                       // rows cw*64 .. cw*64+63 of the c^T tile
        const int warp = (threadIdx.x / 32) & 3;     // warp within the warpgroup
        const int lane = threadIdx.x & 31, g = lane >> 2, t = lane & 3;
        // Row permutation P (wgmma row -> n within the warpgroup's 64): row 16*warp + g + 8*h
        // maps to n = h | (g&1)<<1 | ((g>>2)&1)<<2 | (warp&1)<<3 | ((g>>1)&1)<<4 | (warp>>1)<<5.
        // chunk = bits 2..4 of n = the 16-byte chunk within the 128-byte row of a b box.
        const int chunk = ((g >> 2) & 1) | ((warp & 1) << 1) | (((g >> 1) & 1) << 2);
        const int box = 2 * cw + (warp >> 1);
        // Byte offsets within a stage's b region of (k = t, n, n+1) and (k = t + 4, n, n+1)
        // under the 128-byte swizzle (16-byte chunk index XOR (row & 7)); k-step ks adds 1024.
        const uint32_t off0 = box * B_BOX_BYTES + t * 128 + ((chunk ^ t) << 4) + (g & 1) * 8;
        const uint32_t off1 =
            box * B_BOX_BYTES + (t + 4) * 128 + ((chunk ^ (t + 4)) << 4) + (g & 1) * 8;
        const int n_loc = cw * 64 + (warp >> 1) * 32 + chunk * 4 + (g & 1) * 2;

        uint32_t it = 0;
        for (int unit = unit0; unit < num_units; unit += unit_step) {
            int mt, nt;
            tile_coords(unit, tiles_m, tiles_n, mt, nt);
            float d[128];
#pragma unroll
            for (int i = 0; i < 128; ++i) d[i] = 0.0f;
            fence_acc(d);
            for (int kt = 0; kt < ktiles; ++kt, ++it) {
                const uint32_t s = it % STAGES, ph = (it / STAGES) & 1;
                mbar_wait(full0 + 8 * s, ph);
                const uint8_t* bs = base_ptr + s * STAGE_BYTES + A_BYTES;
                uint32_t fa[4][4];
#pragma unroll
                for (int ks = 0; ks < 4; ++ks) {
                    const uint2 v0 = *reinterpret_cast<const uint2*>(bs + off0 + ks * 1024);
                    const uint2 v1 = *reinterpret_cast<const uint2*>(bs + off1 + ks * 1024);
                    fa[ks][0] = v0.x;  // (row g,   k = t)     -> n
                    fa[ks][1] = v0.y;  // (row g+8, k = t)     -> n + 1
                    fa[ks][2] = v1.x;  // (row g,   k = t + 4) -> n
                    fa[ks][3] = v1.y;  // (row g+8, k = t + 4) -> n + 1
                }
                wgmma_fence();
                const uint64_t desc = make_desc_sw128(base + s * STAGE_BYTES);
#pragma unroll
                for (int ks = 0; ks < 4; ++ks)  // k-step ks = bytes 32*ks of each 128-byte row
                    wgmma_m64n256k8_rs(d, fa[ks][0], fa[ks][1], fa[ks][2], fa[ks][3],
                                       desc + static_cast<uint64_t>(2 * ks));
                wgmma_commit();
                wgmma_wait<1>();  // k-tile kt-1 is done: its stage may be refilled
                if (kt > 0 && lane == 0) mbar_arrive(empty0 + 8 * ((it - 1) % STAGES));
            }
            wgmma_wait<0>();
            fence_acc(d);
            if (lane == 0) mbar_arrive(empty0 + 8 * ((it - 1) % STAGES));

            // Epilogue: d[4j + 2h + e] = c^T[row(g, h)][8j + 2t + e] = c[m0+8j+2t+e][n + h].
            const int nn = nt * TN + n_loc;
            if (nn < n) {  // n is even and nn is even, so nn + 1 < n too
                const int mrow = mt * TM + 2 * t;
                float* cp = c + static_cast<size_t>(mrow) * n + nn;
#pragma unroll
                for (int j = 0; j < 32; ++j) {
#pragma unroll
                    for (int e = 0; e < 2; ++e) {
                        if (mrow + 8 * j + e < m)
                            *reinterpret_cast<float2*>(cp + static_cast<size_t>(8 * j + e) * n) =
                                make_float2(d[4 * j + e], d[4 * j + 2 + e]);
                    }
                }
            }
        }
    }
}

// a (m x k, row stride k) -> s (m x k4, row stride k4) with columns k .. k4-1 zero, for the fast
// path when k % 4 != 0. A block covers PAD_COLS columns of rows blockIdx.y, blockIdx.y + gridDim.y,
// ...; consecutive threads take consecutive columns (coalesced loads and stores).
constexpr int PAD_THREADS = 256, PAD_COLS = 4 * PAD_THREADS;
__global__ void __launch_bounds__(PAD_THREADS)
pad_a_kernel(const float* __restrict__ a, float* __restrict__ s, int m, int k, int k4) {
    const int col0 = blockIdx.x * PAD_COLS + threadIdx.x;
    for (int row = blockIdx.y; row < m; row += gridDim.y) {
        const float* src = a + static_cast<size_t>(row) * k;
        float* dst = s + static_cast<size_t>(row) * k4;
        float v[4];  // all four loads in flight before the stores
#pragma unroll
        for (int i = 0; i < 4; ++i) {
            const int col = col0 + i * PAD_THREADS;
            v[i] = col < k ? __ldg(src + col) : 0.0f;
        }
#pragma unroll
        for (int i = 0; i < 4; ++i) {
            const int col = col0 + i * PAD_THREADS;
            if (col < k4) dst[col] = v[i];
        }
    }
}

// ----------------------------------------------------------------------------------------------
// Fallback for any shape/alignment: WMMA m16n16k8 TF32 (as problems/matmul/solutions/accepted/cuda_fast.cu).
// ----------------------------------------------------------------------------------------------
namespace fb {

using namespace nvcuda;

constexpr int BM = 128, BN = 128, BK = 32;
constexpr int WARPS_M = 2, WARPS_N = 4;
constexpr int WM = BM / WARPS_M;  // 64 rows per warp
constexpr int WN = BN / WARPS_N;  // 32 columns per warp
constexpr int FM = WM / 16, FN = WN / 16;
constexpr int THREADS = 32 * WARPS_M * WARPS_N;  // 256
// Row padding (4 floats) staggers the shared-memory banks and keeps each 16-row fragment
// 32-byte aligned, as load_matrix_sync requires.
constexpr int A_LD = BK + 4;
constexpr int B_LD = BN + 4;
constexpr int PREFETCH = BM * BK / THREADS;  // 16 floats of a and 16 of b per thread
static_assert(BK * BN / THREADS == PREFETCH, "a and b tiles must split evenly");

template <bool VEC>
__device__ __forceinline__ void load_tiles(const float* __restrict__ a, const float* __restrict__ b,
                                           int m, int n, int k, int bm0, int bn0, int k0,
                                           float* ra, float* rb) {
    const int tid = threadIdx.x;
    if (VEC) {
#pragma unroll
        for (int i = 0; i < PREFETCH / 4; ++i) {
            int idx = tid + i * THREADS;
            int r = idx / (BK / 4), cc = (idx % (BK / 4)) * 4;
            int gr = bm0 + r, gc = k0 + cc;  // k % 4 == 0: gc < k means all 4 are inside
            float4 v = make_float4(0.f, 0.f, 0.f, 0.f);
            if (gr < m && gc < k) v = __ldg(reinterpret_cast<const float4*>(a + (size_t)gr * k + gc));
            ra[4 * i] = v.x; ra[4 * i + 1] = v.y; ra[4 * i + 2] = v.z; ra[4 * i + 3] = v.w;
        }
#pragma unroll
        for (int i = 0; i < PREFETCH / 4; ++i) {
            int idx = tid + i * THREADS;
            int r = idx / (BN / 4), cc = (idx % (BN / 4)) * 4;
            int gr = k0 + r, gc = bn0 + cc;
            float4 v = make_float4(0.f, 0.f, 0.f, 0.f);
            if (gr < k && gc < n) v = __ldg(reinterpret_cast<const float4*>(b + (size_t)gr * n + gc));
            rb[4 * i] = v.x; rb[4 * i + 1] = v.y; rb[4 * i + 2] = v.z; rb[4 * i + 3] = v.w;
        }
    } else {
#pragma unroll
        for (int i = 0; i < PREFETCH; ++i) {
            int idx = tid + i * THREADS;
            int r = idx / BK, cc = idx % BK;
            int gr = bm0 + r, gc = k0 + cc;
            ra[i] = (gr < m && gc < k) ? __ldg(a + (size_t)gr * k + gc) : 0.0f;
        }
#pragma unroll
        for (int i = 0; i < PREFETCH; ++i) {
            int idx = tid + i * THREADS;
            int r = idx / BN, cc = idx % BN;
            int gr = k0 + r, gc = bn0 + cc;
            rb[i] = (gr < k && gc < n) ? __ldg(b + (size_t)gr * n + gc) : 0.0f;
        }
    }
}

template <bool VEC>
__device__ __forceinline__ void store_tiles(float* as, float* bs, const float* ra, const float* rb) {
    const int tid = threadIdx.x;
    if (VEC) {
#pragma unroll
        for (int i = 0; i < PREFETCH / 4; ++i) {
            int idx = tid + i * THREADS;
            int r = idx / (BK / 4), cc = (idx % (BK / 4)) * 4;
            *reinterpret_cast<float4*>(as + r * A_LD + cc) =
                make_float4(wmma::__float_to_tf32(ra[4 * i]), wmma::__float_to_tf32(ra[4 * i + 1]),
                            wmma::__float_to_tf32(ra[4 * i + 2]), wmma::__float_to_tf32(ra[4 * i + 3]));
        }
#pragma unroll
        for (int i = 0; i < PREFETCH / 4; ++i) {
            int idx = tid + i * THREADS;
            int r = idx / (BN / 4), cc = (idx % (BN / 4)) * 4;
            *reinterpret_cast<float4*>(bs + r * B_LD + cc) =
                make_float4(wmma::__float_to_tf32(rb[4 * i]), wmma::__float_to_tf32(rb[4 * i + 1]),
                            wmma::__float_to_tf32(rb[4 * i + 2]), wmma::__float_to_tf32(rb[4 * i + 3]));
        }
    } else {
#pragma unroll
        for (int i = 0; i < PREFETCH; ++i) {
            int idx = tid + i * THREADS;
            as[(idx / BK) * A_LD + idx % BK] = wmma::__float_to_tf32(ra[i]);
        }
#pragma unroll
        for (int i = 0; i < PREFETCH; ++i) {
            int idx = tid + i * THREADS;
            bs[(idx / BN) * B_LD + idx % BN] = wmma::__float_to_tf32(rb[i]);
        }
    }
}

template <bool VEC>
__global__ void __launch_bounds__(THREADS)
matmul_wmma_tf32(const float* __restrict__ a, const float* __restrict__ b, float* __restrict__ c,
                 int m, int n, int k) {
    __shared__ __align__(128) float as[BM * A_LD];
    __shared__ __align__(128) float bs[BK * B_LD];
    __shared__ __align__(128) float cs[WARPS_M * WARPS_N][16 * 16];

    const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    const int wm = warp / WARPS_N, wn = warp % WARPS_N;
    const int bm0 = blockIdx.y * BM, bn0 = blockIdx.x * BN;

    wmma::fragment<wmma::accumulator, 16, 16, 8, float> acc[FM][FN];
#pragma unroll
    for (int i = 0; i < FM; ++i)
#pragma unroll
        for (int j = 0; j < FN; ++j) wmma::fill_fragment(acc[i][j], 0.0f);

    float ra[PREFETCH], rb[PREFETCH];
    const int ktiles = (k + BK - 1) / BK;
    load_tiles<VEC>(a, b, m, n, k, bm0, bn0, 0, ra, rb);

    for (int t = 0; t < ktiles; ++t) {
        store_tiles<VEC>(as, bs, ra, rb);
        __syncthreads();
        if (t + 1 < ktiles) load_tiles<VEC>(a, b, m, n, k, bm0, bn0, (t + 1) * BK, ra, rb);
#pragma unroll
        for (int kk = 0; kk < BK; kk += 8) {
            wmma::fragment<wmma::matrix_a, 16, 16, 8, wmma::precision::tf32, wmma::row_major> fa[FM];
            wmma::fragment<wmma::matrix_b, 16, 16, 8, wmma::precision::tf32, wmma::row_major> fb[FN];
#pragma unroll
            for (int i = 0; i < FM; ++i)
                wmma::load_matrix_sync(fa[i], as + (wm * WM + i * 16) * A_LD + kk, A_LD);
#pragma unroll
            for (int j = 0; j < FN; ++j)
                wmma::load_matrix_sync(fb[j], bs + kk * B_LD + wn * WN + j * 16, B_LD);
#pragma unroll
            for (int i = 0; i < FM; ++i)
#pragma unroll
                for (int j = 0; j < FN; ++j) wmma::mma_sync(acc[i][j], fa[i], fb[j], acc[i][j]);
        }
        __syncthreads();
    }

    // Epilogue: fragment -> per-warp staging buffer -> guarded stores into c.
    float* stage = cs[warp];
#pragma unroll
    for (int i = 0; i < FM; ++i) {
#pragma unroll
        for (int j = 0; j < FN; ++j) {
            wmma::store_matrix_sync(stage, acc[i][j], 16, wmma::mem_row_major);
            __syncwarp();
            const int r0 = bm0 + wm * WM + i * 16, c0 = bn0 + wn * WN + j * 16;
            for (int e = lane; e < 256; e += 32) {
                int r = r0 + e / 16, cc = c0 + e % 16;
                if (r < m && cc < n) c[(size_t)r * n + cc] = stage[e];
            }
            __syncwarp();
        }
    }
}

}  // namespace fb

// ----------------------------------------------------------------------------------------------
// Host side.
// ----------------------------------------------------------------------------------------------
typedef CUresult (*EncodeTiledFn)(CUtensorMap*, CUtensorMapDataType, cuuint32_t, void*,
                                  const cuuint64_t*, const cuuint64_t*, const cuuint32_t*,
                                  const cuuint32_t*, CUtensorMapInterleave, CUtensorMapSwizzle,
                                  CUtensorMapL2promotion, CUtensorMapFloatOOBfill);

EncodeTiledFn get_encoder() {
    static bool tried = false;
    static EncodeTiledFn fn = nullptr;
    if (!tried) {
        tried = true;
        void* p = nullptr;
        cudaDriverEntryPointQueryResult q;
        if (cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &p, 12000, cudaEnableDefault,
                                             &q) == cudaSuccess &&
            q == cudaDriverEntryPointSuccess && p != nullptr)
            fn = reinterpret_cast<EncodeTiledFn>(p);
        else
            (void)cudaGetLastError();
    }
    return fn;
}

// 2D fp32 tensor map, dims {inner, outer}, row pitch inner * 4 bytes, box {32, box_outer}, SW128.
bool encode_2d(EncodeTiledFn enc, CUtensorMap* map, const float* ptr, uint64_t inner,
               uint64_t outer, uint32_t box_outer) {
    cuuint64_t dims[2] = {inner, outer};
    cuuint64_t strides[1] = {inner * sizeof(float)};
    cuuint32_t box[2] = {32, box_outer};
    cuuint32_t estr[2] = {1, 1};
    return enc(map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, const_cast<float*>(ptr), dims, strides, box,
               estr, CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B,
               CU_TENSOR_MAP_L2_PROMOTION_L2_256B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE) == CUDA_SUCCESS;
}

// Scratch for the padded copy of a (k % 4 != 0): allocated once, grown when needed, kept for the
// life of the process. cudaFree synchronises the device, but only when the buffer grows.
float* pad_scratch(size_t floats) {
    static float* buf = nullptr;
    static size_t cap = 0;
    if (floats > cap) {
        if (buf != nullptr) (void)cudaFree(buf);
        buf = nullptr;
        cap = 0;
        if (cudaMalloc(&buf, floats * sizeof(float)) != cudaSuccess) {
            (void)cudaGetLastError();
            buf = nullptr;
            return nullptr;
        }
        cap = floats;
    }
    return buf;
}

bool launch_fast(const float* a, const float* b, float* c, int m, int n, int k) {
    if (n % 4 != 0 || k <= 0 || k > INT_MAX - 3) return false;
    if ((uintptr_t)b % 16 != 0 || (uintptr_t)c % 8 != 0) return false;
    EncodeTiledFn enc = get_encoder();
    if (enc == nullptr) return false;

    static bool attr_done = false;
    static int max_ctas = 0;  // CTAs that can be resident at once: one per SM
    if (!attr_done) {
        int dev = 0, sms = 0;
        if (cudaGetDevice(&dev) != cudaSuccess ||
            cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev) != cudaSuccess ||
            cudaFuncSetAttribute(tf32_wgmma_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                 SMEM_BYTES) != cudaSuccess) {
            (void)cudaGetLastError();
            return false;
        }
        max_ctas = sms;
        attr_done = true;
    }

    // a's TMA row stride must be a multiple of 16 bytes (and its base 16-byte aligned): otherwise
    // run on a copy with row stride k4 whose columns k .. k4-1 are zero.
    const int k4 = (k + 3) & ~3;
    const bool pad = k4 != k || (uintptr_t)a % 16 != 0;
    float* scratch = nullptr;
    if (pad) {
        scratch = pad_scratch(static_cast<size_t>(m) * k4);
        if (scratch == nullptr) return false;
    }
    const float* a_tma = pad ? scratch : a;

    // The maps depend only on (a_tma, k4, b, m, n, k): keep the last pair. a's map spans k4
    // columns (the padding is zero); b's map spans the k real rows (TMA zero-fills rows >= k).
    static CUtensorMap map_a, map_b;
    static const float *last_a = nullptr, *last_b = nullptr;
    static int lm = -1, ln = -1, lk = -1, lk4 = -1;
    if (a_tma != last_a || b != last_b || m != lm || n != ln || k != lk || k4 != lk4) {
        last_a = nullptr;
        if (!encode_2d(enc, &map_a, a_tma, (uint64_t)k4, (uint64_t)m, TM) ||
            !encode_2d(enc, &map_b, b, (uint64_t)n, (uint64_t)k, TK))
            return false;
        last_a = a_tma, last_b = b, lm = m, ln = n, lk = k, lk4 = k4;
    }

    if (pad) {  // same (legacy default) stream as the GEMM: ordered, no host synchronisation
        const int rows = m < 65535 ? m : 65535;
        dim3 pgrid((k4 - 1) / PAD_COLS + 1, rows);
        pad_a_kernel<<<pgrid, PAD_THREADS>>>(a, scratch, m, k, k4);
    }
    const int units = ((m + TM - 1) / TM) * ((n + TN - 1) / TN);
    const int grid = units < max_ctas ? units : max_ctas;
    // k sets the k-tile count: ceil(k / TK) == ceil(k4 / TK) because TK is a multiple of 4.
    tf32_wgmma_kernel<<<grid, THREADS_WS, SMEM_BYTES>>>(map_a, map_b, c, m, n, k);
    return true;
}

}  // namespace

extern "C" void solve(const float* a, const float* b, float* c, int m, int n, int k) {
    if (m <= 0 || n <= 0) return;
    if (launch_fast(a, b, c, m, n, k)) return;
    dim3 grid((n + fb::BN - 1) / fb::BN, (m + fb::BM - 1) / fb::BM);
    bool vec = (k % 4 == 0) && (n % 4 == 0) && ((uintptr_t)a % 16 == 0) && ((uintptr_t)b % 16 == 0);
    if (vec)
        fb::matmul_wmma_tf32<true><<<grid, fb::THREADS>>>(a, b, c, m, n, k);
    else
        fb::matmul_wmma_tf32<false><<<grid, fb::THREADS>>>(a, b, c, m, n, k);
}
