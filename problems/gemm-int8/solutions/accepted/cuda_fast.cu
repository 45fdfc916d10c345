// int8 GEMM on the integer tensor cores with WMMA (mma.sync, int32 accumulators), tiles staged
// by cp.async in a two-stage shared-memory pipeline, and a fused scaling epilogue.
//
// Each block of 256 threads (8 warps, 4 along m x 2 along n) computes a 128 x 128 tile of c;
// each warp a 32 x 64 sub-tile: 2 x 4 WMMA fragments of 16 x 16 x 16. k is walked 64 at a time;
// while the warps multiply the tiles in one buffer, the next tiles' 16-byte cp.async copies land
// in the other.
//
// Layout: WMMA wants 256-bit aligned fragment pointers, but a 16-element int8 k-step is only 16
// bytes, so a k slice is stored as four 16-wide sub-slices, each a [rows][16] block: fragment
// (r0, kk) starts at sub-slice kk/16, row r0, a multiple of 256 bytes. A row's 16 consecutive k
// values are one 16-byte chunk, copied by cp.async when wholly inside the matrix and aligned (k a
// multiple of 16), else loaded element by element with zeros past the edges. b is stored n x k, so
// a sub-slice of b is exactly WMMA's column-major matrix_b with ldm = 16.
//
// Epilogue: each fragment goes through a per-warp 16 x 16 staging tile in shared memory; then
// c = (float)acc * sa[row] * sb[col] in float32, rounded to bf16 once, stored if row < m and
// col < n. The int32 sums never leave the SM.
#include <cuda_runtime.h>
#include <cuda_bf16.h>
#include <mma.h>
#include <stdint.h>

using namespace nvcuda;

namespace {

constexpr int BM = 128, BN = 128, BK = 64, KS = BK / 16;
constexpr int THREADS = 256;

__device__ __forceinline__ void cp_async16(void* smem, const void* gmem) {
    uint32_t s = static_cast<uint32_t>(__cvta_generic_to_shared(smem));
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(s), "l"(gmem) : "memory");
}
__device__ __forceinline__ void cp_async_commit() { asm volatile("cp.async.commit_group;" ::: "memory"); }
template <int N>
__device__ __forceinline__ void cp_async_wait() {
    asm volatile("cp.async.wait_group %0;" ::"n"(N) : "memory");
}

// 16 consecutive k values of one row (of a or b, both row-major with k columns).
__device__ __forceinline__ void load_chunk(signed char* dst, const signed char* src, int row,
                                           int col, int rows, int k, bool vec_ok) {
    if (row < rows && vec_ok && col + 16 <= k) {
        cp_async16(dst, src + (size_t)row * k + col);
        return;
    }
#pragma unroll
    for (int e = 0; e < 16; ++e) dst[e] = (row < rows && col + e < k) ? src[(size_t)row * k + col + e] : 0;
}

__global__ void __launch_bounds__(THREADS)
gemm_int8(const signed char* __restrict__ a, const signed char* __restrict__ b,
          const float* __restrict__ sa, const float* __restrict__ sb, __nv_bfloat16* __restrict__ c,
          int m, int n, int k, bool vec_ok) {
    __shared__ __align__(128) signed char as[2][KS][BM][16];
    __shared__ __align__(128) signed char bs[2][KS][BN][16];
    __shared__ __align__(128) int stage[THREADS / 32][16 * 16];

    const int tid = threadIdx.x, warp = tid / 32, lane = tid % 32;
    const int warp_m = warp / 2, warp_n = warp % 2;
    const int m0 = blockIdx.y * BM, n0 = blockIdx.x * BN;

    auto load_tiles = [&](int buf, int k0) {
#pragma unroll
        for (int i = 0; i < 2; ++i) {  // 128 rows x 4 chunks, for a and for b
            int ch = tid + i * THREADS;
            int r = ch / KS, s = ch % KS;
            load_chunk(as[buf][s][r], a, m0 + r, k0 + s * 16, m, k, vec_ok);
            load_chunk(bs[buf][s][r], b, n0 + r, k0 + s * 16, n, k, vec_ok);
        }
    };

    wmma::fragment<wmma::accumulator, 16, 16, 16, int> acc[2][4];
#pragma unroll
    for (int i = 0; i < 2; ++i)
#pragma unroll
        for (int j = 0; j < 4; ++j) wmma::fill_fragment(acc[i][j], 0);

    const int tiles = (k + BK - 1) / BK;
    load_tiles(0, 0);
    cp_async_commit();
    for (int t = 0; t < tiles; ++t) {
        const int buf = t & 1;
        if (t + 1 < tiles) {
            load_tiles(buf ^ 1, (t + 1) * BK);
            cp_async_commit();
            cp_async_wait<1>();
        } else {
            cp_async_wait<0>();
        }
        __syncthreads();
#pragma unroll
        for (int s = 0; s < KS; ++s) {
            wmma::fragment<wmma::matrix_a, 16, 16, 16, signed char, wmma::row_major> fa[2];
            wmma::fragment<wmma::matrix_b, 16, 16, 16, signed char, wmma::col_major> fb[4];
#pragma unroll
            for (int i = 0; i < 2; ++i)
                wmma::load_matrix_sync(fa[i], as[buf][s][warp_m * 32 + i * 16], 16);
#pragma unroll
            for (int j = 0; j < 4; ++j)
                wmma::load_matrix_sync(fb[j], bs[buf][s][warp_n * 64 + j * 16], 16);
#pragma unroll
            for (int i = 0; i < 2; ++i)
#pragma unroll
                for (int j = 0; j < 4; ++j) wmma::mma_sync(acc[i][j], fa[i], fb[j], acc[i][j]);
        }
        __syncthreads();
    }

    int* st = stage[warp];
#pragma unroll
    for (int i = 0; i < 2; ++i)
#pragma unroll
        for (int j = 0; j < 4; ++j) {
            wmma::store_matrix_sync(st, acc[i][j], 16, wmma::mem_row_major);
            __syncwarp();
            const int r0 = m0 + warp_m * 32 + i * 16, c0 = n0 + warp_n * 64 + j * 16;
#pragma unroll
            for (int e = 0; e < 8; ++e) {
                int idx = lane * 8 + e, r = r0 + idx / 16, col = c0 + idx % 16;
                if (r < m && col < n)
                    c[(size_t)r * n + col] = __float2bfloat16_rn((float)st[idx] * sa[r] * sb[col]);
            }
            __syncwarp();
        }
}

}  // namespace

extern "C" void solve(const signed char* a, const signed char* b, const float* sa,
                      const float* sb, __nv_bfloat16* c, int m, int n, int k) {
    bool vec_ok = k % 16 == 0 && reinterpret_cast<uintptr_t>(a) % 16 == 0 &&
                  reinterpret_cast<uintptr_t>(b) % 16 == 0;
    dim3 grid((n + BN - 1) / BN, (m + BM - 1) / BM);
    gemm_int8<<<grid, THREADS>>>(a, b, sa, sb, c, m, n, k, vec_ok);
}
