// expect: wrong_answer
// expect-message: dx: wrote past the end
// Bug: the elementwise kernel that writes dx has no `if (i < n)`: its grid is rounded up to
// whole blocks of 256, so the last block writes past the end of dx. (The row sums are right:
// a first kernel gives each row one warp, which adds up dy·y with shuffles.) Right only when
// rows * cols is a multiple of 256.
#include <cuda_runtime.h>

__global__ void row_sums(const float* y, const float* dy, float* s, int rows, int cols) {
    const int row = blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32;
    const int lane = threadIdx.x & 31;
    if (row >= rows) return;
    float acc = 0.0f;
    for (int j = lane; j < cols; j += 32) acc += y[(size_t)row * cols + j] * dy[(size_t)row * cols + j];
    for (int off = 16; off > 0; off >>= 1) acc += __shfl_xor_sync(0xffffffffu, acc, off);
    if (lane == 0) s[row] = acc;
}

__global__ void write_dx(const float* y, const float* dy, const float* s, float* dx, int cols) {
    const size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    dx[i] = y[i] * (dy[i] - s[i / cols]);  // BUG: i may be >= rows * cols
}

extern "C" void solve(const float* y, const float* dy, float* dx, int rows, int cols) {
    static float* s = nullptr;
    static int capacity = 0;
    if (rows > capacity) {
        if (s) cudaFree(s);
        cudaMalloc(&s, sizeof(float) * rows);
        capacity = rows;
    }
    row_sums<<<(rows + 7) / 8, 256>>>(y, dy, s, rows, cols);
    const size_t n = (size_t)rows * cols;
    write_dx<<<(unsigned)((n + 255) / 256), 256>>>(y, dy, s, dx, cols);
}
