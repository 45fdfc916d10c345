// expect: compile_error
// A typo: `acumulator` is not declared, so nvcc stops with "identifier is undefined".
#include <cuda_runtime.h>

__global__ void matmul_naive(const float* a, const float* b, float* c, int m, int n, int k) {
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    if (row >= m || col >= n) return;
    float accumulator = 0.0f;
    for (int i = 0; i < k; ++i) accumulator += a[(size_t)row * k + i] * b[(size_t)i * n + col];
    c[(size_t)row * n + col] = acumulator;
}

extern "C" void solve(const float* a, const float* b, float* c, int m, int n, int k) {
    dim3 block(16, 16);
    dim3 grid((n + 15) / 16, (m + 15) / 16);
    matmul_naive<<<grid, block>>>(a, b, c, m, n, k);
}
