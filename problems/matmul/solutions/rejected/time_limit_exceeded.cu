// expect: time_limit_exceeded
// Bug: the k loop's counter is never advanced. The loop reads and writes c through a volatile
// pointer, so the compiler must keep every iteration (a loop without side effects could be
// assumed to terminate and be removed): the kernel spins until the judge's time limit.
#include <cuda_runtime.h>

__global__ void matmul_naive(const float* a, const float* b, float* c, int m, int n, int k) {
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    if (row >= m || col >= n) return;
    volatile float* out = c + (size_t)row * n + col;
    *out = 0.0f;
    int i = 0;
    while (i < k) {  // BUG: should be for (int i = 0; i < k; ++i)
        *out = *out + a[(size_t)row * k + i] * b[(size_t)i * n + col];
    }
}

extern "C" void solve(const float* a, const float* b, float* c, int m, int n, int k) {
    dim3 block(16, 16);
    dim3 grid((n + 15) / 16, (m + 15) / 16);
    matmul_naive<<<grid, block>>>(a, b, c, m, n, k);
}
