// expect: wrong_answer
// expect-message: out: wrote past the end
// Bug: one block of 128 threads per (bag, slab of 128 columns), and no `if (d < dim)`. When
// dim is not a multiple of 128, the last slab's extra threads sum the next row's columns and
// store them past the bag's output row; the last bag's land past the end of out. Right only
// when 128 divides dim. The fix: skip the store (and the loads) where d >= dim.
#include <cuda_runtime.h>

constexpr int THREADS = 128;

__global__ void bag_mean(const float* weight, const int* indices, const int* offsets, float* out, int dim, int slabs) {
    const int bag = blockIdx.x / slabs;
    const int d = (blockIdx.x % slabs) * THREADS + threadIdx.x;
    const int start = offsets[bag];
    const int end = offsets[bag + 1];
    float acc = 0.0f;
    for (int k = start; k < end; ++k) acc += weight[(long long)indices[k] * dim + d];
    const int count = end > start ? end - start : 1;
    out[(long long)bag * dim + d] = acc / (float)count;  // BUG: no if (d < dim)
}

extern "C" void solve(const float* weight, const int* indices, const int* offsets, float* out, int num_embeddings,
                      int dim, int bags, int nnz) {
    const int slabs = (dim + THREADS - 1) / THREADS;
    bag_mean<<<(unsigned)bags * slabs, THREADS>>>(weight, indices, offsets, out, dim, slabs);
}
