// 1-D convolution, the straightforward way: one thread per output, the taps in constant
// memory. Every thread of a warp reads the same tap w[j] at the same time, which is the
// access constant memory is built for (one read, broadcast to the warp). The inputs come
// from global memory: x[i + j] for 32 consecutive i is one coalesced load, and the k - 1
// inputs that neighbouring outputs share are found in the L1 cache after the first tap.
#include <cuda_runtime.h>

constexpr int KMAX = 1024;  // the largest filter (the statement's limit): 4 KB of the 64 KB
__constant__ float c_w[KMAX];

__global__ void conv1d_kernel(const float* x, float* y, int n_out, int k) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n_out) return;
    float acc = 0.0f;
    for (int j = 0; j < k; ++j) acc += x[i + j] * c_w[j];
    y[i] = acc;
}

extern "C" void solve(const float* x, const float* w, float* y, int n, int k) {
    // w is on the device: copy it device-to-device into the constant bank, on the same
    // (default) stream as the kernel, so the kernel sees it.
    cudaMemcpyToSymbolAsync(c_w, w, k * sizeof(float), 0, cudaMemcpyDeviceToDevice, 0);
    const int n_out = n - k + 1;
    conv1d_kernel<<<(n_out + 255) / 256, 256>>>(x, y, n_out, k);
}
