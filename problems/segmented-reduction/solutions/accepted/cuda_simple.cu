// Segmented sum, the straightforward way: one block of 256 threads per segment. The threads
// stride over the segment offsets[s] .. offsets[s + 1] - 1, each adding into its own float
// register, and the block combines the 256 partial sums in shared memory as a tree; thread 0
// writes the sum (0 for an empty segment, whose threads add nothing). Correct for any
// segments, but a block with a long segment runs long while the short ones finish at once.
#include <cuda_runtime.h>

constexpr int THREADS = 256;

__global__ void segment_sum(const float* x, const int* offsets, float* out) {
    __shared__ float part[THREADS];
    const int start = offsets[blockIdx.x], end = offsets[blockIdx.x + 1];
    float acc = 0.0f;
    for (int i = start + threadIdx.x; i < end; i += THREADS) acc += x[i];
    part[threadIdx.x] = acc;
    __syncthreads();
    for (int stride = THREADS / 2; stride > 0; stride /= 2) {
        if (threadIdx.x < stride) part[threadIdx.x] += part[threadIdx.x + stride];
        __syncthreads();
    }
    if (threadIdx.x == 0) out[blockIdx.x] = part[0];
}

extern "C" void solve(const float* x, const int* offsets, float* out, int n, int segments) {
    segment_sum<<<segments, THREADS>>>(x, offsets, out);
}
