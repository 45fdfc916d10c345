// Cross-entropy at memory speed: one block of 512 threads per row, the row read once.
//
// - Each thread keeps a running (max m, sum l of exp(x - m)) over its logits (the online
//   log-sum-exp: a larger max rescales the sum by exp2(m_old - m_new)); shuffles merge the
//   pairs within a warp, shared memory across the 16 warps.
// - When v is a multiple of 8, every row starts 16-byte aligned and each thread loads 8 bf16
//   logits at a time (uint4, streaming: __ldcs), two loads in flight per iteration; other rows
//   take a scalar loop.
// - Everything is in base-2 units (x * log2 e), so each logit costs one FMA-ish multiply and
//   one exp2f.
#include <cuda_bf16.h>
#include <cuda_runtime.h>

constexpr int THREADS = 512;
constexpr unsigned FULL = 0xffffffffu;
constexpr float LOG2E = 1.4426950408889634f;

__device__ __forceinline__ void push(float x, float& m, float& l) {
    if (x > m) {
        l = l * exp2f(m - x) + 1.0f;  // exp2f(-inf) = 0 on a thread's first logit
        m = x;
    } else {
        l += exp2f(x - m);
    }
}

__device__ __forceinline__ void merge(float& m, float& l, float om, float ol) {
    float nm = fmaxf(m, om);
    if (nm == -INFINITY) return;  // both empty (-inf - -inf would be NaN)
    l = l * exp2f(m - nm) + ol * exp2f(om - nm);
    m = nm;
}

__device__ __forceinline__ void push8(uint4 raw, float& m, float& l) {
    const __nv_bfloat162* h2 = reinterpret_cast<const __nv_bfloat162*>(&raw);
#pragma unroll
    for (int k = 0; k < 4; ++k) {
        float2 f = __bfloat1622float2(h2[k]);
        push(f.x * LOG2E, m, l);
        push(f.y * LOG2E, m, l);
    }
}

template <bool VEC>
__global__ void __launch_bounds__(THREADS)
cross_entropy(const __nv_bfloat16* logits, const int* labels, float* loss, int b, int v) {
    __shared__ float sm[THREADS / 32], sl[THREADS / 32];
    const __nv_bfloat16* row = logits + (size_t)blockIdx.x * v;
    float m = -INFINITY, l = 0.0f;
    if (VEC) {
        const uint4* row8 = reinterpret_cast<const uint4*>(row);
        const int n8 = v / 8;
        int j = threadIdx.x;
        for (; j + THREADS < n8; j += 2 * THREADS) {  // two 16-byte loads in flight
            uint4 a = __ldcs(row8 + j);
            uint4 c = __ldcs(row8 + j + THREADS);
            push8(a, m, l);
            push8(c, m, l);
        }
        if (j < n8) push8(__ldcs(row8 + j), m, l);
    } else {
        for (int j = threadIdx.x; j < v; j += THREADS) push(__bfloat162float(row[j]) * LOG2E, m, l);
    }
#pragma unroll
    for (int off = 16; off > 0; off >>= 1)
        merge(m, l, __shfl_xor_sync(FULL, m, off), __shfl_xor_sync(FULL, l, off));
    const int warp = threadIdx.x >> 5, lane = threadIdx.x & 31;
    if (lane == 0) {
        sm[warp] = m;
        sl[warp] = l;
    }
    __syncthreads();
    if (warp == 0) {
        m = lane < THREADS / 32 ? sm[lane] : -INFINITY;
        l = lane < THREADS / 32 ? sl[lane] : 0.0f;
#pragma unroll
        for (int off = 16; off > 0; off >>= 1)
            merge(m, l, __shfl_xor_sync(FULL, m, off), __shfl_xor_sync(FULL, l, off));
        if (lane == 0) {
            float lse = (m + log2f(l)) / LOG2E;
            float picked = __bfloat162float(row[labels[blockIdx.x]]);
            atomicAdd(loss, (lse - picked) / b);
        }
    }
}

extern "C" void solve(const __nv_bfloat16* logits, const int* labels, float* loss, int b, int v) {
    cudaMemsetAsync(loss, 0, sizeof(float));
    if (v % 8 == 0)
        cross_entropy<true><<<b, THREADS>>>(logits, labels, loss, b, v);
    else
        cross_entropy<false><<<b, THREADS>>>(logits, labels, loss, b, v);
}
