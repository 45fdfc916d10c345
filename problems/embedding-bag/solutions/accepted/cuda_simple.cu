// Embedding bag (mean), the straightforward way: one thread per output element (bag, column).
// It walks the bag's indices and adds column d of each named row; the threads of a warp hold
// consecutive columns, so each row is read in coalesced pieces. An empty bag divides 0 by 1.
// index * dim is computed in 64 bits: a table may hold more than 2^31 floats.
#include <cuda_runtime.h>

__global__ void bag_mean(const float* weight, const int* indices, const int* offsets, float* out, int dim,
                         long long total) {
    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= total) return;
    const int bag = (int)(i / dim);
    const int d = (int)(i % dim);
    const int start = offsets[bag];
    const int end = offsets[bag + 1];
    float acc = 0.0f;
    for (int k = start; k < end; ++k) acc += weight[(long long)indices[k] * dim + d];
    const int count = end > start ? end - start : 1;
    out[i] = acc / (float)count;
}

extern "C" void solve(const float* weight, const int* indices, const int* offsets, float* out, int num_embeddings,
                      int dim, int bags, int nnz) {
    const long long total = (long long)bags * dim;
    const int threads = 256;
    bag_mean<<<(unsigned)((total + threads - 1) / threads), threads>>>(weight, indices, offsets, out, dim, total);
}
