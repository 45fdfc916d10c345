// Matrix-vector product, the first thing one writes: one thread per row, summing its row in
// order. Correct, and slow for two reasons the editorial walks through: at the same moment
// the 32 threads of a warp read 32 different rows (32 separate memory sectors, 2 useful
// bytes each), and 16384 rows make only 16384 threads, far too few to fill an H100.
#include <cuda_bf16.h>
#include <cuda_runtime.h>

__global__ void gemv_thread_per_row(const __nv_bfloat16* w, const __nv_bfloat16* x, float* y, int m, int k) {
    int row = blockIdx.x * blockDim.x + threadIdx.x;
    if (row < m) {
        const __nv_bfloat16* wr = w + (long long)row * k;
        // One thread sums its whole row in order. In float32 a 10^6-long row of positive
        // products drifts: on an H100 the 3 x 1000003 case came out 1.2e-4 off, over the 1e-4
        // tolerance (2026-11-25). A double accumulator costs nothing here (the loop waits on
        // memory) and keeps the sum exact to ~1e-16.
        double acc = 0.0;
        for (int j = 0; j < k; ++j)
            acc += (double)(__bfloat162float(wr[j]) * __bfloat162float(x[j]));
        y[row] = (float)acc;
    }
}

extern "C" void solve(const __nv_bfloat16* w, const __nv_bfloat16* x, float* y, int m, int k) {
    int threads = 128;
    gemv_thread_per_row<<<(m + threads - 1) / threads, threads>>>(w, x, y, m, k);
}
