// expect: wrong_answer
// expect-message: y: wrote past the end
// Bug: the taps are bounds-checked (zero padding) but the output is not: no
// `if (i >= h || j >= w) return;`. The grid is rounded up to 16 x 16 blocks, so the threads
// past the right edge write into the next row and those past the bottom edge write past the
// end of y. Right only when h and w are multiples of 16.
#include <cuda_runtime.h>

constexpr int RMAX = 31;
__constant__ float c_f[RMAX * RMAX];

__global__ void conv2d_kernel(const float* x, float* y, int h, int w, int r) {
    const int j = blockIdx.x * blockDim.x + threadIdx.x;
    const int i = blockIdx.y * blockDim.y + threadIdx.y;
    const int half = r / 2;
    float acc = 0.0f;
    for (int a = 0; a < r; ++a) {
        const int si = i + a - half;
        if (si < 0 || si >= h) continue;
        for (int b = 0; b < r; ++b) {
            const int sj = j + b - half;
            if (sj < 0 || sj >= w) continue;
            acc += x[(size_t)si * w + sj] * c_f[a * r + b];
        }
    }
    y[(size_t)i * w + j] = acc;  // BUG: i and j may be out of range
}

extern "C" void solve(const float* x, const float* f, float* y, int h, int w, int r) {
    cudaMemcpyToSymbolAsync(c_f, f, r * r * sizeof(float), 0, cudaMemcpyDeviceToDevice, 0);
    const dim3 grid((w + 15) / 16, (h + 15) / 16);
    conv2d_kernel<<<grid, dim3(16, 16)>>>(x, y, h, w, r);
}
