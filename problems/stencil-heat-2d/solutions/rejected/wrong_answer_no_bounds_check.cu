// expect: wrong_answer
// expect-message: out: wrote past the end
// Bug: no `if (i < h && j < w)`. The grid is rounded up to whole 32 x 8 blocks, so threads
// past the last column write into the next row (and past the end from the last row), and
// threads past the last row write whole rows past the end of out. (The scratch grid is padded
// to whole blocks, so that only out shows it.)
#include <cuda_runtime.h>

__global__ void heat_step(const float* src, float* dst, int h, int w) {
    const int j = blockIdx.x * blockDim.x + threadIdx.x;
    const int i = blockIdx.y * blockDim.y + threadIdx.y;
    // BUG: if (i < h && j < w)
    const long long p = (long long)i * w + j;
    const float c = src[p];
    if (i > 0 && i < h - 1 && j > 0 && j < w - 1)
        dst[p] = c + 0.2f * (src[p - w] + src[p + w] + src[p - 1] + src[p + 1] - 4.0f * c);
    else
        dst[p] = c;
}

extern "C" void solve(const float* u, float* out, int h, int w, int steps) {
    // The scratch grid is kept from call to call (cudaFree would wait for the GPU), grown
    // when a larger grid comes.
    static float* scratch = nullptr;
    static size_t capacity = 0;
    const size_t points = (size_t)((h + 7) / 8 * 8) * w + 32;  // room for whole blocks
    if (steps > 1 && points > capacity) {
        if (scratch) cudaFree(scratch);
        cudaMalloc(&scratch, sizeof(float) * points);
        capacity = points;
    }
    const dim3 block(32, 8);
    const dim3 grid((w + 31) / 32, (h + 7) / 8);
    const float* src = u;
    for (int t = 0; t < steps; ++t) {
        float* dst = (steps - t) % 2 == 1 ? out : scratch;  // the last step writes out
        heat_step<<<grid, block>>>(src, dst, h, w);
        src = dst;
    }
}
