// TF32 tensor-core matmul with WMMA (m16n16k8), shared-memory tiling and register prefetch.
//
// A block of 8 warps computes a 128 x 128 tile of c; each warp owns a 64 x 32 sub-tile, i.e.
// 4 x 2 accumulator fragments of 16 x 16. The k loop moves in steps of 32: the block copies a
// 128 x 32 tile of a and a 32 x 128 tile of b into shared memory (rounding each value to TF32
// with __float_to_tf32 on the way), and while the tensor cores work on them the loads of the
// next step are already in flight into registers.
//
// Edges: elements past m, n or k load as 0 (adding nothing), and the epilogue goes through a
// small per-warp shared-memory buffer so each element of c is stored only if it is inside m x n.
// When k and n are multiples of 4 (and the pointers 16-byte aligned) the loads are float4.
#include <cuda_runtime.h>
#include <mma.h>
#include <stdint.h>

using namespace nvcuda;

namespace {

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

}  // namespace

extern "C" void solve(const float* a, const float* b, float* c, int m, int n, int k) {
    dim3 grid((n + BN - 1) / BN, (m + BM - 1) / BM);
    bool vec = (k % 4 == 0) && (n % 4 == 0) && ((uintptr_t)a % 16 == 0) && ((uintptr_t)b % 16 == 0);
    if (vec)
        matmul_wmma_tf32<true><<<grid, THREADS>>>(a, b, c, m, n, k);
    else
        matmul_wmma_tf32<false><<<grid, THREADS>>>(a, b, c, m, n, k);
}
