// bf16 GEMM on the tensor cores with WMMA (mma.sync), tiles staged by cp.async in a two-stage
// shared-memory pipeline.
//
// Each block of 256 threads (8 warps, 4 along m x 2 along n) computes a 128 x 128 tile of c;
// each warp a 32 x 64 sub-tile: 2 x 4 WMMA fragments of 16 x 16 with float32 accumulators. k is
// walked 32 at a time. While the warps multiply the tiles in one shared-memory buffer, the
// 16-byte cp.async copies of the next a and b tiles land in the other, so loads overlap math.
//
// Edges: a 16-byte chunk (8 bf16) is copied asynchronously only when it is wholly inside the
// matrix and 16-byte aligned (k or n a multiple of 8); any other chunk is loaded element by
// element with zeros past the edges (they add nothing to the sums). The epilogue goes through a
// per-warp 16 x 16 float staging tile in shared memory, so each element is rounded to bf16 once
// and stored only if row < m and col < n.
//
// Shared-memory rows are padded by 8 elements (16 bytes) against bank conflicts; every WMMA
// fragment pointer stays 32-byte aligned (rows of 80 and 272 bytes, fragments at multiples of 16
// rows and 16 columns). This is the step before Hopper's wgmma/TMA (the Triton sample's path):
// mma.sync reads operands from registers and keeps every warp busy loading them.
#include <cuda_runtime.h>
#include <cuda_bf16.h>
#include <mma.h>
#include <stdint.h>

using namespace nvcuda;

namespace {

constexpr int BM = 128, BN = 128, BK = 32;
constexpr int APAD = BK + 8, BPAD = BN + 8;
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

// One 16-byte chunk of 8 consecutive elements of a row: cp.async when whole and aligned, else
// element by element with zeros past `cols` or past `rows`.
__device__ __forceinline__ void load_chunk(__nv_bfloat16* dst, const __nv_bfloat16* src, int row,
                                           int col, int rows, int cols, bool vec_ok) {
    if (row < rows && vec_ok && col + 8 <= cols) {
        cp_async16(dst, src + (size_t)row * cols + col);
        return;
    }
#pragma unroll
    for (int e = 0; e < 8; ++e) {
        bool in = row < rows && col + e < cols;
        dst[e] = in ? src[(size_t)row * cols + col + e] : __float2bfloat16(0.0f);
    }
}

__global__ void __launch_bounds__(THREADS)
gemm_wmma(const __nv_bfloat16* __restrict__ a, const __nv_bfloat16* __restrict__ b,
          __nv_bfloat16* __restrict__ c, int m, int n, int k, bool a_vec, bool b_vec) {
    __shared__ __align__(128) __nv_bfloat16 as[2][BM][APAD];
    __shared__ __align__(128) __nv_bfloat16 bs[2][BK][BPAD];
    __shared__ __align__(128) float stage[THREADS / 32][16 * 16];

    const int tid = threadIdx.x, warp = tid / 32, lane = tid % 32;
    const int warp_m = warp / 2, warp_n = warp % 2;  // 4 x 2 warps: 32 x 64 each
    const int m0 = blockIdx.y * BM, n0 = blockIdx.x * BN;

    auto load_tiles = [&](int buf, int k0) {
#pragma unroll
        for (int i = 0; i < 2; ++i) {  // a: 128 rows x 4 chunks
            int ch = tid + i * THREADS;
            int r = ch / 4, cc = (ch % 4) * 8;
            load_chunk(&as[buf][r][cc], a, m0 + r, k0 + cc, m, k, a_vec);
        }
#pragma unroll
        for (int i = 0; i < 2; ++i) {  // b: 32 rows x 16 chunks
            int ch = tid + i * THREADS;
            int r = ch / 16, cc = (ch % 16) * 8;
            load_chunk(&bs[buf][r][cc], b, k0 + r, n0 + cc, k, n, b_vec);
        }
    };

    wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc[2][4];
#pragma unroll
    for (int i = 0; i < 2; ++i)
#pragma unroll
        for (int j = 0; j < 4; ++j) wmma::fill_fragment(acc[i][j], 0.0f);

    const int tiles = (k + BK - 1) / BK;
    load_tiles(0, 0);
    cp_async_commit();
    for (int t = 0; t < tiles; ++t) {
        const int buf = t & 1;
        if (t + 1 < tiles) {
            load_tiles(buf ^ 1, (t + 1) * BK);
            cp_async_commit();
            cp_async_wait<1>();  // this tile's copies are done; the next one's may still fly
        } else {
            cp_async_wait<0>();
        }
        __syncthreads();
#pragma unroll
        for (int kk = 0; kk < BK; kk += 16) {
            wmma::fragment<wmma::matrix_a, 16, 16, 16, __nv_bfloat16, wmma::row_major> fa[2];
            wmma::fragment<wmma::matrix_b, 16, 16, 16, __nv_bfloat16, wmma::row_major> fb[4];
#pragma unroll
            for (int i = 0; i < 2; ++i)
                wmma::load_matrix_sync(fa[i], &as[buf][warp_m * 32 + i * 16][kk], APAD);
#pragma unroll
            for (int j = 0; j < 4; ++j)
                wmma::load_matrix_sync(fb[j], &bs[buf][kk][warp_n * 64 + j * 16], BPAD);
#pragma unroll
            for (int i = 0; i < 2; ++i)
#pragma unroll
                for (int j = 0; j < 4; ++j) wmma::mma_sync(acc[i][j], fa[i], fb[j], acc[i][j]);
        }
        __syncthreads();  // everyone is done with `buf` before it is refilled
    }

    float* st = stage[warp];
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
                if (r < m && col < n) c[(size_t)r * n + col] = __float2bfloat16_rn(st[idx]);
            }
            __syncwarp();
        }
}

}  // namespace

extern "C" void solve(const __nv_bfloat16* a, const __nv_bfloat16* b, __nv_bfloat16* c, int m,
                      int n, int k) {
    bool a_vec = k % 8 == 0 && reinterpret_cast<uintptr_t>(a) % 16 == 0;
    bool b_vec = n % 8 == 0 && reinterpret_cast<uintptr_t>(b) % 16 == 0;
    dim3 grid((n + BN - 1) / BN, (m + BM - 1) / BM);
    gemm_wmma<<<grid, THREADS>>>(a, b, c, m, n, k, a_vec, b_vec);
}
