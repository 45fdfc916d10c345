#include <cuda_runtime.h>

__global__ void segment_sum_kernel(const float* x, const int* offsets, float* out, int n, int segments) {
    // TODO: one block per segment (s = blockIdx.x): its elements are x[offsets[s]] ..
    // x[offsets[s + 1] - 1] (offsets[s + 1] is one past the end).
    //   1. each thread adds up its elements (stride blockDim.x), then a block reduction
    //   2. one thread writes out[s] (an empty segment's sum is 0: write it too)
}

// x: n floats; offsets: segments + 1 ints; out: segments floats; device pointers.
extern "C" void solve(const float* x, const int* offsets, float* out, int n, int segments) {
    int threads = 256;
    segment_sum_kernel<<<segments, threads>>>(x, offsets, out, n, segments);
}
