// expect: wrong_answer
// Bug: a race on shared memory. Each 16 x 16 block stages its (16 + 2R) x (16 + 2R) inputs,
// halo included, in shared memory and then computes from there, with no __syncthreads()
// between the two. A warp that has loaded its own share of the tile reads slots (the halo
// rows below, the rows of the next warps) that other warps have not written yet, and gets
// what the previous block on that SM left there. Wrong on some outputs of a large image.
#include <cuda_runtime.h>

constexpr int T = 16;
constexpr int RMAX = 31;
constexpr int S = T + RMAX - 1;

__global__ void conv2d_kernel(const float* x, const float* f, float* y, int h, int w, int r) {
    __shared__ float xs[S * S];
    __shared__ float fs[RMAX * RMAX];
    const int half = r / 2, sw = T + 2 * half;
    const int tid = threadIdx.y * T + threadIdx.x;
    const int i0 = blockIdx.y * T - half, j0 = blockIdx.x * T - half;
    for (int e = tid; e < r * r; e += T * T) fs[e] = f[e];
    for (int e = tid; e < sw * sw; e += T * T) {
        const int si = i0 + e / sw, sj = j0 + e % sw;
        xs[e] = (si >= 0 && si < h && sj >= 0 && sj < w) ? x[(size_t)si * w + sj] : 0.0f;
    }
    // BUG: __syncthreads() missing here
    const int i = blockIdx.y * T + threadIdx.y, j = blockIdx.x * T + threadIdx.x;
    if (i >= h || j >= w) return;
    float acc = 0.0f;
    for (int a = 0; a < r; ++a)
        for (int b = 0; b < r; ++b) acc += xs[(threadIdx.y + a) * sw + threadIdx.x + b] * fs[a * r + b];
    y[(size_t)i * w + j] = acc;
}

extern "C" void solve(const float* x, const float* f, float* y, int h, int w, int r) {
    const dim3 grid((w + T - 1) / T, (h + T - 1) / T);
    conv2d_kernel<<<grid, dim3(T, T)>>>(x, f, y, h, w, r);
}
