// expect: wrong_answer
// Bug: a race. The first step goes from u into out, and every later one updates out in place
// ("to save memory"). Blocks and warps run in any order: a thread may read a neighbour that
// another thread has already overwritten with this step's value, or not, so the result
// depends on the schedule. Two grids used in turn (ping-pong) fix it. (On a GPU; the CPU only
// compiles CUDA.)
#include <cuda_runtime.h>

__global__ void heat_step(const float* src, float* dst, int h, int w) {
    const int j = blockIdx.x * blockDim.x + threadIdx.x;
    const int i = blockIdx.y * blockDim.y + threadIdx.y;
    if (i < h && j < w) {
        const long long p = (long long)i * w + j;
        const float c = src[p];
        if (i > 0 && i < h - 1 && j > 0 && j < w - 1)
            dst[p] = c + 0.2f * (src[p - w] + src[p + w] + src[p - 1] + src[p + 1] - 4.0f * c);
        else
            dst[p] = c;  // the boundary keeps its value
    }
}

extern "C" void solve(const float* u, float* out, int h, int w, int steps) {
    const dim3 block(32, 8);
    const dim3 grid((w + 31) / 32, (h + 7) / 8);
    heat_step<<<grid, block>>>(u, out, h, w);
    for (int t = 1; t < steps; ++t) heat_step<<<grid, block>>>(out, out, h, w);  // BUG: in place
}
