#include <cuda_runtime.h>

__global__ void solve_kernel(const float* points, const float* centroids, int* labels, int n, int k, int d) {
    // TODO: thread i computes element i of labels (return if i is past its end).
}

// inputs points [n, d] float32, centroids [k, d] float32; output labels [n] int32.
// Device pointers to contiguous arrays; launch your kernel(s) and return (no synchronization
// needed).
extern "C" void solve(const float* points, const float* centroids, int* labels, int n, int k, int d) {
    int total = n;  // elements of labels
    int threads = 256;
    int blocks = (total + threads - 1) / threads;
    solve_kernel<<<blocks, threads>>>(points, centroids, labels, n, k, d);
}
