// Softmax backward at memory speed.
//
// Rows up to 8192 columns: one block of 256 threads per row keeps the row's y and dy in
// registers (up to 8 float4 of each per thread), so both are read once and dx written once.
// s = sum(dy·y) is a block all-reduction: warp shuffles, then one value per warp through
// shared memory. Loads and stores use the streaming hints (__ldcs/__stcs): the data is
// touched once. Rows whose length is not a multiple of 4 (or unaligned pointers) take the same
// path with scalar loads, up to 4096 columns.
//
// Wider rows: a persistent grid (one 1024-thread block per SM, looping over rows) sums dy·y in
// a first pass with default caching, so the row (256 KB at 32000 columns; one row per SM is
// ~34 MB in flight, inside the H200's 60 MB L2) is still in L2 when the second pass re-reads
// it to write dx.
#include <cuda_runtime.h>
#include <stdint.h>

constexpr unsigned FULL = 0xffffffffu;

__device__ __forceinline__ float warp_sum(float v) {
#pragma unroll
    for (int off = 16; off > 0; off >>= 1) v += __shfl_xor_sync(FULL, v, off);
    return v;
}

// Sum of v over the block, returned to every thread. red: 32 floats of shared memory.
__device__ __forceinline__ float block_sum(float v, float* red) {
    v = warp_sum(v);
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5, nwarps = blockDim.x >> 5;
    if (lane == 0) red[warp] = v;
    __syncthreads();
    v = lane < nwarps ? red[lane] : 0.0f;
    v = warp_sum(v);
    __syncthreads();  // red may be reused right after
    return v;
}

__device__ __forceinline__ float dot4(float4 a, float4 b) { return (a.x * b.x + a.y * b.y) + (a.z * b.z + a.w * b.w); }

constexpr int RT = 256;  // threads per row in the register path

// V float4 of y and of dy per thread: rows of up to RT * 4 * V columns, cols % 4 == 0.
template <int V>
__global__ void __launch_bounds__(RT) bwd_regs_vec(const float* __restrict__ y, const float* __restrict__ dy,
                                                   float* __restrict__ dx, int cols) {
    __shared__ float red[32];
    const size_t base = (size_t)blockIdx.x * cols;
    const float4* yr = reinterpret_cast<const float4*>(y + base);
    const float4* dyr = reinterpret_cast<const float4*>(dy + base);
    float4* dxr = reinterpret_cast<float4*>(dx + base);
    const int c4 = cols >> 2;
    const float4 zero = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
    float4 a[V], g[V];
    float part = 0.0f;
#pragma unroll
    for (int k = 0; k < V; ++k) {
        const int j = threadIdx.x + k * RT;
        a[k] = j < c4 ? __ldcs(yr + j) : zero;
        g[k] = j < c4 ? __ldcs(dyr + j) : zero;
        part += dot4(a[k], g[k]);
    }
    const float s = block_sum(part, red);
#pragma unroll
    for (int k = 0; k < V; ++k) {
        const int j = threadIdx.x + k * RT;
        if (j < c4)
            __stcs(dxr + j, make_float4(a[k].x * (g[k].x - s), a[k].y * (g[k].y - s), a[k].z * (g[k].z - s),
                                        a[k].w * (g[k].w - s)));
    }
}

// K floats of y and of dy per thread: rows of up to RT * K columns, any alignment.
template <int K>
__global__ void __launch_bounds__(RT) bwd_regs_scalar(const float* __restrict__ y, const float* __restrict__ dy,
                                                      float* __restrict__ dx, int cols) {
    __shared__ float red[32];
    const size_t base = (size_t)blockIdx.x * cols;
    float a[K], g[K];
    float part = 0.0f;
#pragma unroll
    for (int k = 0; k < K; ++k) {
        const int j = threadIdx.x + k * RT;
        a[k] = j < cols ? __ldcs(y + base + j) : 0.0f;
        g[k] = j < cols ? __ldcs(dy + base + j) : 0.0f;
        part += a[k] * g[k];
    }
    const float s = block_sum(part, red);
#pragma unroll
    for (int k = 0; k < K; ++k) {
        const int j = threadIdx.x + k * RT;
        if (j < cols) __stcs(dx + base + j, a[k] * (g[k] - s));
    }
}

constexpr int WT = 1024;  // threads per row in the wide-row path

template <bool VEC>
__global__ void __launch_bounds__(WT) bwd_two_pass(const float* __restrict__ y, const float* __restrict__ dy,
                                                   float* __restrict__ dx, int rows, int cols) {
    __shared__ float red[32];
    for (int row = blockIdx.x; row < rows; row += gridDim.x) {
        const size_t base = (size_t)row * cols;
        float part = 0.0f;
        if (VEC) {
            const float4* yr = reinterpret_cast<const float4*>(y + base);
            const float4* dyr = reinterpret_cast<const float4*>(dy + base);
            for (int j = threadIdx.x; j < (cols >> 2); j += WT) part += dot4(yr[j], dyr[j]);
        } else {
            for (int j = threadIdx.x; j < cols; j += WT) part += y[base + j] * dy[base + j];
        }
        const float s = block_sum(part, red);
        if (VEC) {
            const float4* yr = reinterpret_cast<const float4*>(y + base);
            const float4* dyr = reinterpret_cast<const float4*>(dy + base);
            float4* dxr = reinterpret_cast<float4*>(dx + base);
            for (int j = threadIdx.x; j < (cols >> 2); j += WT) {
                const float4 a = __ldcs(yr + j), g = __ldcs(dyr + j);
                __stcs(dxr + j, make_float4(a.x * (g.x - s), a.y * (g.y - s), a.z * (g.z - s), a.w * (g.w - s)));
            }
        } else {
            for (int j = threadIdx.x; j < cols; j += WT)
                __stcs(dx + base + j, __ldcs(y + base + j) * (__ldcs(dy + base + j) - s));
        }
    }
}

static int sm_count() {
    static int sms = 0;
    if (sms == 0) {
        int dev = 0;
        cudaGetDevice(&dev);
        cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
        if (sms <= 0) sms = 132;
    }
    return sms;
}

extern "C" void solve(const float* y, const float* dy, float* dx, int rows, int cols) {
    const bool vec = cols % 4 == 0 && (((uintptr_t)y | (uintptr_t)dy | (uintptr_t)dx) & 15) == 0;
    if (vec && cols <= RT * 4 * 8) {
        const int c4 = cols / 4;
        if (c4 <= RT)          bwd_regs_vec<1><<<rows, RT>>>(y, dy, dx, cols);
        else if (c4 <= 2 * RT) bwd_regs_vec<2><<<rows, RT>>>(y, dy, dx, cols);
        else if (c4 <= 4 * RT) bwd_regs_vec<4><<<rows, RT>>>(y, dy, dx, cols);
        else                   bwd_regs_vec<8><<<rows, RT>>>(y, dy, dx, cols);
    } else if (!vec && cols <= RT * 16) {
        if (cols <= RT)          bwd_regs_scalar<1><<<rows, RT>>>(y, dy, dx, cols);
        else if (cols <= 2 * RT) bwd_regs_scalar<2><<<rows, RT>>>(y, dy, dx, cols);
        else if (cols <= 4 * RT) bwd_regs_scalar<4><<<rows, RT>>>(y, dy, dx, cols);
        else if (cols <= 8 * RT) bwd_regs_scalar<8><<<rows, RT>>>(y, dy, dx, cols);
        else                     bwd_regs_scalar<16><<<rows, RT>>>(y, dy, dx, cols);
    } else {
        const int blocks = rows < sm_count() ? rows : sm_count();
        if (vec)
            bwd_two_pass<true><<<blocks, WT>>>(y, dy, dx, rows, cols);
        else
            bwd_two_pass<false><<<blocks, WT>>>(y, dy, dx, rows, cols);
    }
}
