// RGB to grayscale, the straightforward way: a 2-D grid of 32 x 8 thread blocks laid over
// the image, one thread per pixel, three byte loads per pixel.
#include <cuda_runtime.h>

__global__ void gray_kernel(const unsigned char* rgb, float* y, int h, int w) {
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    if (row < h && col < w) {  // edge blocks hang over the image
        long long p = (long long)row * w + col;
        float r = rgb[3 * p], g = rgb[3 * p + 1], b = rgb[3 * p + 2];
        y[p] = (0.299f * r + 0.587f * g + 0.114f * b) / 255.0f;
    }
}

extern "C" void solve(const unsigned char* rgb, float* y, int h, int w) {
    dim3 block(32, 8);
    dim3 grid((w + block.x - 1) / block.x, (h + block.y - 1) / block.y);
    gray_kernel<<<grid, block>>>(rgb, y, h, w);
}
