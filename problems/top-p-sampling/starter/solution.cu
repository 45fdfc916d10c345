#include <cuda_runtime.h>

__global__ void solve_kernel(const float* probs, const float* top_p, const float* u, int* token, int batch, int vocab) {
    // TODO: thread i computes element i of token (return if i is past its end).
}

// inputs probs [batch, vocab] float32, top_p [batch] float32, u [batch] float32; output token [batch] int32.
// Device pointers to contiguous arrays; launch your kernel(s) and return (no synchronization
// needed).
extern "C" void solve(const float* probs, const float* top_p, const float* u, int* token, int batch, int vocab) {
    int total = batch;  // elements of token
    int threads = 256;
    int blocks = (total + threads - 1) / threads;
    solve_kernel<<<blocks, threads>>>(probs, top_p, u, token, batch, vocab);
}
