// expect: wrong_answer
// Bug: a race on shared memory. Each block stages its 256 inputs and the k - 1 inputs of
// the halo in shared memory (the first k - 1 threads load the halo), then computes from
// there, but there is no __syncthreads() between the loads and the reads. A warp that
// finishes its own loads starts reading slots that other warps (and the halo loaders) have
// not written yet, and gets whatever the previous block left in shared memory. The result
// depends on warp timing: wrong on some outputs of a large input, every time.
#include <cuda_runtime.h>

constexpr int THREADS = 256;
constexpr int KMAX = 1024;

__global__ void conv1d_kernel(const float* x, const float* w, float* y, int n, int k, int n_out) {
    __shared__ float xs[THREADS + KMAX - 1];
    __shared__ float ws[KMAX];
    const int base = blockIdx.x * THREADS;
    const int t = threadIdx.x;
    xs[t] = base + t < n ? x[base + t] : 0.0f;
    for (int h = t; h < k - 1; h += THREADS)
        xs[THREADS + h] = base + THREADS + h < n ? x[base + THREADS + h] : 0.0f;
    for (int j = t; j < k; j += THREADS) ws[j] = w[j];
    // BUG: __syncthreads() missing here
    if (base + t >= n_out) return;
    float acc = 0.0f;
    for (int j = 0; j < k; ++j) acc += xs[t + j] * ws[j];
    y[base + t] = acc;
}

extern "C" void solve(const float* x, const float* w, float* y, int n, int k) {
    const int n_out = n - k + 1;
    conv1d_kernel<<<(n_out + THREADS - 1) / THREADS, THREADS>>>(x, w, y, n, k, n_out);
}
