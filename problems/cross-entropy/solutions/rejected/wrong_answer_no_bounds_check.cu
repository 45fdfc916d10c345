// expect: wrong_answer
// Bug: the loops over a row run to v rounded up to a whole number of block-widths (256), with
// no `j < v` check, as if every row were a multiple of 256 wide. The extra reads take the next
// row's first logits (and, after the last row, whatever lies past the end of logits) into the
// row's maximum and sum. The fix: `j < v` in the loop conditions.
#include <cuda_bf16.h>
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

__global__ void cross_entropy(const __nv_bfloat16* logits, const int* labels, float* loss,
                              int b, int v) {
    __shared__ float shared[THREADS];
    const __nv_bfloat16* row = logits + (size_t)blockIdx.x * v;
    const int padded = (v + THREADS - 1) / THREADS * THREADS;

    float m = -INFINITY;
    for (int j = threadIdx.x; j < padded; j += THREADS) m = fmaxf(m, __bfloat162float(row[j]));
    m = block_reduce<true>(m, shared);
    float sum = 0.0f;
    for (int j = threadIdx.x; j < padded; j += THREADS) sum += expf(__bfloat162float(row[j]) - m);
    sum = block_reduce<false>(sum, shared);

    if (threadIdx.x == 0) {
        float picked = __bfloat162float(row[labels[blockIdx.x]]);
        atomicAdd(loss, (m + logf(sum) - picked) / b);
    }
}

extern "C" void solve(const __nv_bfloat16* logits, const int* labels, float* loss, int b, int v) {
    cudaMemsetAsync(loss, 0, sizeof(float));
    cross_entropy<<<b, THREADS>>>(logits, labels, loss, b, v);
}
