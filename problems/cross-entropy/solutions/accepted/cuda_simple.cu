// Cross-entropy, the straightforward way: one block of 256 threads per row, two passes. Pass 1
// finds the row maximum m, pass 2 sums exp(x - m); each is a strided loop over the row and a
// shared-memory tree. Thread 0 then adds (m + log(sum) - x[label]) / b into the loss, which
// a memset zeroed first (the judge fills it with NaN).
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
    __syncthreads();  // shared[] is reused by the next reduction
    return result;
}

__global__ void cross_entropy(const __nv_bfloat16* logits, const int* labels, float* loss,
                              int b, int v) {
    __shared__ float shared[THREADS];
    const __nv_bfloat16* row = logits + (size_t)blockIdx.x * v;

    float m = -INFINITY;
    for (int j = threadIdx.x; j < v; j += THREADS) m = fmaxf(m, __bfloat162float(row[j]));
    m = block_reduce<true>(m, shared);

    float sum = 0.0f;
    for (int j = threadIdx.x; j < v; j += THREADS) sum += expf(__bfloat162float(row[j]) - m);
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
