#include <cuda_runtime.h>

__global__ void solve_kernel(const float* weight, const int* indices, const int* offsets, float* out, int num_embeddings, int dim, int bags, int nnz) {
    // TODO: thread i computes element i of out (return if i is past its end).
}

// inputs weight [num_embeddings, dim] float32, indices [nnz] int32, offsets [bags + 1] int32; output out [bags, dim] float32.
// Device pointers to contiguous arrays; launch your kernel(s) and return (no synchronization
// needed).
extern "C" void solve(const float* weight, const int* indices, const int* offsets, float* out, int num_embeddings, int dim, int bags, int nnz) {
    int total = bags * dim;  // elements of out
    int threads = 256;
    int blocks = (total + threads - 1) / threads;
    solve_kernel<<<blocks, threads>>>(weight, indices, offsets, out, num_embeddings, dim, bags, nnz);
}
