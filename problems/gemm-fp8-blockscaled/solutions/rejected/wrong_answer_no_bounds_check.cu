// expect: wrong_answer
// expect-message: c: wrote past the end
// Bug: the tiled kernel guards its loads and scale reads but not its final store: the
// `if (row < m && col < n)` before writing c is missing. Threads of an edge block whose
// col >= n write into the next row of c, and those whose row >= m write past the end of c.
// Right only when m and n are multiples of 16.
#include <cuda_runtime.h>
#include <cuda_bf16.h>
#include <cuda_fp8.h>

#define TILE 16
#define SCALE_K 128

__global__ void gemm_tiled(const __nv_fp8_e4m3* a, const __nv_fp8_e4m3* b, const float* sa,
                           const float* sb, __nv_bfloat16* c, int m, int n, int k) {
    __shared__ float as[TILE][TILE + 1];
    __shared__ float bs[TILE][TILE + 1];
    const int row = blockIdx.y * TILE + threadIdx.y;
    const int col = blockIdx.x * TILE + threadIdx.x;
    const int brow = blockIdx.x * TILE + threadIdx.y;  // the row of b this thread loads
    const int kb = (k + SCALE_K - 1) / SCALE_K;
    float acc = 0.0f, part = 0.0f;
    for (int k0 = 0; k0 < k; k0 += TILE) {
        int kk = k0 + threadIdx.x;
        as[threadIdx.y][threadIdx.x] = (row < m && kk < k) ? float(a[(size_t)row * k + kk]) : 0.0f;
        bs[threadIdx.y][threadIdx.x] = (brow < n && kk < k) ? float(b[(size_t)brow * k + kk]) : 0.0f;
        __syncthreads();
#pragma unroll
        for (int l = 0; l < TILE; ++l) part = fmaf(as[threadIdx.y][l], bs[threadIdx.x][l], part);
        __syncthreads();
        const int t = k0 / SCALE_K;
        if ((k0 + TILE) % SCALE_K == 0 || k0 + TILE >= k) {  // the end of block t
            if (row < m && col < n) acc += part * sa[(size_t)row * kb + t] * sb[(size_t)(col / SCALE_K) * kb + t];
            part = 0.0f;
        }
    }
    c[(size_t)row * n + col] = __float2bfloat16_rn(acc);
}

extern "C" void solve(const __nv_fp8_e4m3* a, const __nv_fp8_e4m3* b, const float* sa,
                      const float* sb, __nv_bfloat16* c, int m, int n, int k) {
    dim3 block(TILE, TILE);
    dim3 grid((n + TILE - 1) / TILE, (m + TILE - 1) / TILE);
    gemm_tiled<<<grid, block>>>(a, b, sa, sb, c, m, n, k);
}
