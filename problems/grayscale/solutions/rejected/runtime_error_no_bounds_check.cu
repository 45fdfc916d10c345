// expect: runtime_error
// On an H100 this is an illegal memory access (CUDA error 700), measured 2026-11-25: the
// blocks below the last row read past the end of rgb and write past y's guard band into
// memory that is not mapped. A learner meets this bug as a crash, not a wrong value.
// Bug: no bounds check. The 2-D grid is rounded up in both directions, as it should be, but
// the kernel lacks its `if (row < h && col < w)`: threads of edge blocks that hang over the
// right edge write into the next row, and those below the last row write past the end of y
// (reading past the end of rgb on the way). Right only when w is a multiple of 32 and h of
// 8. The fix: the bounds check.
#include <cuda_runtime.h>

__global__ void gray_kernel(const unsigned char* rgb, float* y, int h, int w) {
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    long long p = (long long)row * w + col;  // BUG: needs if (row < h && col < w)
    float r = rgb[3 * p], g = rgb[3 * p + 1], b = rgb[3 * p + 2];
    y[p] = (0.299f * r + 0.587f * g + 0.114f * b) / 255.0f;
}

extern "C" void solve(const unsigned char* rgb, float* y, int h, int w) {
    dim3 block(32, 8);
    dim3 grid((w + block.x - 1) / block.x, (h + block.y - 1) / block.y);
    gray_kernel<<<grid, block>>>(rgb, y, h, w);
}
