// expect: runtime_error
// Bug: a debugging store left in the kernel writes far past the end of c (2^40 floats = 4 TiB
// beyond it, an address no allocation covers). The GPU raises an illegal memory access, which
// the host sees as an error at the next synchronization.
#include <cuda_runtime.h>
#include <stddef.h>

__global__ void matmul_naive(const float* a, const float* b, float* c, int m, int n, int k) {
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    if (row >= m || col >= n) return;
    float acc = 0.0f;
    for (int i = 0; i < k; ++i) acc += a[(size_t)row * k + i] * b[(size_t)i * n + col];
    c[(size_t)row * n + col] = acc;
    if (row == 0 && col == 0) c[(size_t)1 << 40] = acc;  // BUG: out-of-bounds write
}

extern "C" void solve(const float* a, const float* b, float* c, int m, int n, int k) {
    dim3 block(16, 16);
    dim3 grid((n + 15) / 16, (m + 15) / 16);
    matmul_naive<<<grid, block>>>(a, b, c, m, n, k);
}
