// expect: wrong_answer
// expect-message: y: wrote past the end
// Bug: no `if (i < n_out)`. The grid is rounded up to whole blocks of 256 threads, so the
// threads past the last output read past the end of x and write past the end of y. Right
// only when n - k + 1 is a multiple of 256.
#include <cuda_runtime.h>

constexpr int KMAX = 1024;
__constant__ float c_w[KMAX];

__global__ void conv1d_kernel(const float* x, float* y, int k) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    float acc = 0.0f;
    for (int j = 0; j < k; ++j) acc += x[i + j] * c_w[j];
    y[i] = acc;  // BUG: i may be >= n - k + 1
}

extern "C" void solve(const float* x, const float* w, float* y, int n, int k) {
    cudaMemcpyToSymbolAsync(c_w, w, k * sizeof(float), 0, cudaMemcpyDeviceToDevice, 0);
    const int n_out = n - k + 1;
    conv1d_kernel<<<(n_out + 255) / 256, 256>>>(x, y, k);
}
