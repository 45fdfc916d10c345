// expect: wrong_answer
// expect-message: y: wrote past the end
// Bug: the output loop writes a whole number of block-widths (256 columns at a time) with no
// `j < s` check, as if every row were a multiple of 256 wide. The extra columns of each row
// land in the next row (which its own block then overwrites, or not, depending on timing)
// and, from the last row, past the end of y. The fix: `j < s` in the loop condition.
#include <cuda_fp16.h>
#include <cuda_runtime.h>

constexpr int THREADS = 256;

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
    __syncthreads();
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
    const int padded = (s + THREADS - 1) / THREADS * THREADS;
    for (int j = threadIdx.x; j < padded; j += THREADS) {  // no j < s check
        float p = j <= i ? expf(scale * __half2float(xr[j]) - m) * inv : 0.0f;
        yr[j] = __float2half_rn(p);
    }
}

extern "C" void solve(const half* x, const float* scale, half* y, int b, int h, int s) {
    causal_softmax<<<(unsigned)b * h * s, THREADS>>>(x, scale, y, s);
}
