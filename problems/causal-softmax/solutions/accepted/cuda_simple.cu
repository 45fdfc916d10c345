// Causal softmax, the straightforward way: one block of 256 threads per row. Row r of the
// flattened [b*h*s, s] matrix is query position i = r % s and keeps columns 0..i. Three passes
// over those columns, each a block-wide loop: the maximum of the scaled scores, the sum of
// exp(score - max), then the outputs; a shared-memory tree combines the threads' partial
// results. The columns above the diagonal are written as 0.
#include <cuda_fp16.h>
#include <cuda_runtime.h>

constexpr int THREADS = 256;

// Combines one value per thread across the block (op: max or sum); every thread gets the result.
template <bool IS_MAX>
__device__ float block_reduce(float v, float* shared) {
    shared[threadIdx.x] = v;
    __syncthreads();
    for (int stride = THREADS / 2; stride > 0; stride /= 2) {
        if (threadIdx.x < stride) {
            float other = shared[threadIdx.x + stride];
            shared[threadIdx.x] = IS_MAX ? fmaxf(shared[threadIdx.x], other)
                                         : shared[threadIdx.x] + other;
        }
        __syncthreads();
    }
    float result = shared[0];
    __syncthreads();  // shared[] is reused by the next reduction
    return result;
}

__global__ void causal_softmax(const half* x, const float* scale_ptr, half* y, int s) {
    __shared__ float shared[THREADS];
    const size_t row = blockIdx.x;
    const int i = (int)(row % s);
    const half* xr = x + row * s;
    half* yr = y + row * s;
    const float scale = *scale_ptr;

    float m = -INFINITY;
    for (int j = threadIdx.x; j <= i; j += THREADS) m = fmaxf(m, scale * __half2float(xr[j]));
    m = block_reduce<true>(m, shared);

    float sum = 0.0f;
    for (int j = threadIdx.x; j <= i; j += THREADS) sum += expf(scale * __half2float(xr[j]) - m);
    sum = block_reduce<false>(sum, shared);

    const float inv = 1.0f / sum;
    for (int j = threadIdx.x; j < s; j += THREADS) {
        float p = j <= i ? expf(scale * __half2float(xr[j]) - m) * inv : 0.0f;
        yr[j] = __float2half_rn(p);
    }
}

extern "C" void solve(const half* x, const float* scale, half* y, int b, int h, int s) {
    const unsigned rows = (unsigned)b * h * s;
    causal_softmax<<<rows, THREADS>>>(x, scale, y, s);
}
