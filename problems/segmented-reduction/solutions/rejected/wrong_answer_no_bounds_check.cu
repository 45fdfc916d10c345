// expect: wrong_answer
// expect-message: out: wrote past the end
// Bug: the kernel that zeroes out before the atomic adds has no `if (i < segments)`: the grid
// is rounded up to whole blocks of 256, so its last block writes zeros past the end of out.
// (The sum itself is right, if slow: one thread per element finds its segment by a binary
// search of offsets and adds its value into out[segment] with atomicAdd.) Right only when
// segments is a multiple of 256.
#include <cuda_runtime.h>

__global__ void zero(float* out) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = 0.0f;  // BUG: i may be >= segments
}

__global__ void add_elements(const float* x, const int* offsets, float* out, int n, int segments) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    int a = 0, b = segments - 1;  // the last segment with offsets[seg] <= i
    while (a < b) {
        const int mid = (a + b + 1) >> 1;
        if (offsets[mid] <= i) a = mid; else b = mid - 1;
    }
    atomicAdd(out + a, x[i]);
}

extern "C" void solve(const float* x, const int* offsets, float* out, int n, int segments) {
    zero<<<(segments + 255) / 256, 256>>>(out);
    add_elements<<<(n + 255) / 256, 256>>>(x, offsets, out, n, segments);
}
