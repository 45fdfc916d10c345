// expect: wrong_answer
// expect-message: y: wrote past the end
// Bug: the vertical pass has no `if (i < h && j < w)` (its reads are clamped into the image, so
// it "cannot go wrong"). The grid is rounded up to whole 32 x 8 blocks: threads past the last
// column write into the next row and past the end of y from the last row, and threads past the
// last row write whole rows past the end.
#include <cuda_runtime.h>

__device__ __forceinline__ int clampi(int v, int lo, int hi) { return v < lo ? lo : (v > hi ? hi : v); }

__global__ void blur_rows(const float* x, const float* g, float* t, int h, int w, int r) {
    const int j = blockIdx.x * blockDim.x + threadIdx.x;
    const int i = blockIdx.y * blockDim.y + threadIdx.y;
    if (i < h && j < w) {
        const int radius = r / 2;
        float acc = 0.0f;
        for (int b = 0; b < r; ++b) acc += g[b] * x[(long long)i * w + clampi(j + b - radius, 0, w - 1)];
        t[(long long)i * w + j] = acc;
    }
}

__global__ void blur_cols(const float* t, const float* g, float* y, int h, int w, int r) {
    const int j = blockIdx.x * blockDim.x + threadIdx.x;
    const int i = blockIdx.y * blockDim.y + threadIdx.y;
    // BUG: no if (i < h && j < w); the clamps keep the reads inside t, not the write
    const int radius = r / 2;
    float acc = 0.0f;
    for (int a = 0; a < r; ++a) acc += g[a] * t[(long long)clampi(i + a - radius, 0, h - 1) * w + clampi(j, 0, w - 1)];
    y[(long long)i * w + j] = acc;
}

extern "C" void solve(const float* x, const float* g, float* y, int h, int w, int r) {
    // The scratch image is kept from call to call (cudaFree would wait for the GPU), grown
    // when a larger image comes.
    static float* t = nullptr;
    static size_t capacity = 0;
    const size_t pixels = (size_t)h * w;
    if (pixels > capacity) {
        if (t) cudaFree(t);
        cudaMalloc(&t, sizeof(float) * pixels);
        capacity = pixels;
    }
    const dim3 block(32, 8);
    const dim3 grid((w + 31) / 32, (h + 7) / 8);
    blur_rows<<<grid, block>>>(x, g, t, h, w, r);
    blur_cols<<<grid, block>>>(t, g, y, h, w, r);
}
