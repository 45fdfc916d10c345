// Cross-entropy forward and backward at memory speed.
//
// Rows of v % 4 == 0, v <= 8192 (aligned pointers): one block of 256 threads per row keeps the
// row in registers (up to 8 float4 per thread): max and sum of e^(x - max) are block
// reductions (warp shuffles, then one value per warp through shared memory), and dlogits is
// written from the same registers. Logits read once, dlogits written once, streaming hints.
//
// Other rows (the vocabulary-wide ones): a persistent grid of 1024-thread blocks, one per SM,
// loops over rows. Pass 1 is an online softmax: each thread keeps a running max m and a sum s
// rescaled by e^(m_old - m_new) when the max grows, so one read gives both; the block combines
// the (m, s) pairs. Pass 2 re-reads the row and writes dlogits: from L2 at v = 32000 (132 rows
// of 125 KB in flight, 17 MB), partly from HBM at v = 128256 (132 rows of 500 KB are 68 MB,
// more than the H200's 60 MB of L2).
// Each row adds its loss / b into the output with one atomicAdd (zeroed first).
#include <cuda_runtime.h>
#include <stdint.h>

constexpr unsigned FULL = 0xffffffffu;

__device__ __forceinline__ float warp_max(float v) {
#pragma unroll
    for (int off = 16; off > 0; off >>= 1) v = fmaxf(v, __shfl_xor_sync(FULL, v, off));
    return v;
}

__device__ __forceinline__ float warp_sum(float v) {
#pragma unroll
    for (int off = 16; off > 0; off >>= 1) v += __shfl_xor_sync(FULL, v, off);
    return v;
}

// Max (MAX) or sum of v over the block, returned to every thread. red: 32 floats of shared memory.
template <bool MAX>
__device__ __forceinline__ float block_reduce(float v, float* red) {
    v = MAX ? warp_max(v) : warp_sum(v);
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5, nwarps = blockDim.x >> 5;
    if (lane == 0) red[warp] = v;
    __syncthreads();
    v = lane < nwarps ? red[lane] : (MAX ? -INFINITY : 0.0f);
    v = MAX ? warp_max(v) : warp_sum(v);
    __syncthreads();  // red may be reused right after
    return v;
}

constexpr int RT = 256;  // threads per row in the register path

// V float4 of logits per thread: rows of up to RT * 4 * V logits, v % 4 == 0.
template <int V>
__global__ void __launch_bounds__(RT) ce_regs(const float* __restrict__ logits, const int* __restrict__ labels,
                                              float* __restrict__ loss, float* __restrict__ dlogits, int b, int v) {
    __shared__ float red[32];
    const size_t base = (size_t)blockIdx.x * v;
    const float4* xr = reinterpret_cast<const float4*>(logits + base);
    float4* dr = reinterpret_cast<float4*>(dlogits + base);
    const int v4 = v >> 2;
    const float4 ninf = make_float4(-INFINITY, -INFINITY, -INFINITY, -INFINITY);
    float4 x[V];
    float m = -INFINITY;
#pragma unroll
    for (int k = 0; k < V; ++k) {
        const int j = threadIdx.x + k * RT;
        x[k] = j < v4 ? __ldcs(xr + j) : ninf;  // -inf past the row: e^-inf = 0
        m = fmaxf(m, fmaxf(fmaxf(x[k].x, x[k].y), fmaxf(x[k].z, x[k].w)));
    }
    m = block_reduce<true>(m, red);
    float s = 0.0f;
#pragma unroll
    for (int k = 0; k < V; ++k) {
        x[k] = make_float4(__expf(x[k].x - m), __expf(x[k].y - m), __expf(x[k].z - m), __expf(x[k].w - m));
        s += (x[k].x + x[k].y) + (x[k].z + x[k].w);
    }
    s = block_reduce<false>(s, red);
    const int label = labels[blockIdx.x];
    const float inv_s = 1.0f / s, inv_b = 1.0f / b;
#pragma unroll
    for (int k = 0; k < V; ++k) {
        const int j = threadIdx.x + k * RT;
        if (j < v4) {
            const int c = 4 * j;
            __stcs(dr + j, make_float4((x[k].x * inv_s - (c == label ? 1.0f : 0.0f)) * inv_b,
                                       (x[k].y * inv_s - (c + 1 == label ? 1.0f : 0.0f)) * inv_b,
                                       (x[k].z * inv_s - (c + 2 == label ? 1.0f : 0.0f)) * inv_b,
                                       (x[k].w * inv_s - (c + 3 == label ? 1.0f : 0.0f)) * inv_b));
        }
    }
    if (threadIdx.x == 0) atomicAdd(loss, (m + logf(s) - logits[base + label]) * inv_b);
}

constexpr int WT = 1024;  // threads per row in the online path

__global__ void __launch_bounds__(WT) ce_online(const float* __restrict__ logits, const int* __restrict__ labels,
                                                float* __restrict__ loss, float* __restrict__ dlogits, int b, int v) {
    __shared__ float red[32];
    const float inv_b = 1.0f / b;
    for (int row = blockIdx.x; row < b; row += gridDim.x) {
        const size_t base = (size_t)row * v;
        float m = -INFINITY, s = 0.0f;
        for (int j = threadIdx.x; j < v; j += WT) {
            const float x = logits[base + j];  // default caching: pass 2 finds the row in L2
            if (x > m) {
                s = s * __expf(m - x) + 1.0f;  // e^-inf = 0 on the first element
                m = x;
            } else {
                s += __expf(x - m);
            }
        }
        const float row_max = block_reduce<true>(m, red);
        // a thread that saw no logit has m = -inf, s = 0: it adds 0
        const float total = block_reduce<false>(s * __expf(m - row_max), red);
        const float inv_s = 1.0f / total;
        const int label = labels[row];
        for (int j = threadIdx.x; j < v; j += WT) {
            const float p = __expf(__ldcs(logits + base + j) - row_max) * inv_s;
            __stcs(dlogits + base + j, (p - (j == label ? 1.0f : 0.0f)) * inv_b);
        }
        if (threadIdx.x == 0) atomicAdd(loss, (row_max + logf(total) - logits[base + label]) * inv_b);
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

extern "C" void solve(const float* logits, const int* labels, float* loss, float* dlogits, int b, int v) {
    cudaMemsetAsync(loss, 0, sizeof(float));
    const bool vec = v % 4 == 0 && (((uintptr_t)logits | (uintptr_t)dlogits) & 15) == 0;
    const int v4 = v / 4;
    if (vec && v4 <= RT) {
        ce_regs<1><<<b, RT>>>(logits, labels, loss, dlogits, b, v);
    } else if (vec && v4 <= 2 * RT) {
        ce_regs<2><<<b, RT>>>(logits, labels, loss, dlogits, b, v);
    } else if (vec && v4 <= 4 * RT) {
        ce_regs<4><<<b, RT>>>(logits, labels, loss, dlogits, b, v);
    } else if (vec && v4 <= 8 * RT) {
        ce_regs<8><<<b, RT>>>(logits, labels, loss, dlogits, b, v);
    } else {
        const int blocks = b < sm_count() ? b : sm_count();
        ce_online<<<blocks, WT>>>(logits, labels, loss, dlogits, b, v);
    }
}
