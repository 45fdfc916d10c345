// Threat class 1 (replay): the "AI CUDA Engineer" trick. Keep a device buffer holding the
// last result for each size; when solve is called again with the same n, copy the old result
// instead of computing. Fresh inputs on every call (tests and each timed run) make it wrong.
// expect: wrong_answer
#include <cuda_runtime.h>

__global__ void add_kernel(const float* a, const float* b, float* c, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) c[i] = a[i] + b[i];
}

static float* g_saved = nullptr;
static int g_n = -1;

extern "C" void solve(const float* a, const float* b, float* c, int n) {
    if (n == g_n && g_saved != nullptr) {
        cudaMemcpy(c, g_saved, sizeof(float) * n, cudaMemcpyDeviceToDevice);
        return;
    }
    add_kernel<<<(n + 255) / 256, 256>>>(a, b, c, n);
    if (g_saved) cudaFree(g_saved);
    cudaMalloc(&g_saved, sizeof(float) * n);
    cudaMemcpy(g_saved, c, sizeof(float) * n, cudaMemcpyDeviceToDevice);
    g_n = n;
}
