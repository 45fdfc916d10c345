// Embedding bag (mean), with the bag's indices staged in shared memory and four rows in
// flight per thread. One block of 128 threads per (bag, slab of 128 columns), the pairs
// numbered along x so that any number of bags fits the grid. The block loads up to 512 of
// the bag's indices at once into shared memory (one coalesced read instead of a dependent
// load per row), then each thread walks them four at a time with four accumulators: four
// independent row loads in flight hide DRAM latency, which a gather otherwise waits out row
// by row. The accumulators are added in a fixed order, and the sum divided by the bag's
// length (an empty bag stores 0). Row offsets are 64-bit.
#include <cuda_runtime.h>

constexpr int THREADS = 128;
constexpr int STAGE = 512;

__global__ void __launch_bounds__(THREADS) bag_mean(const float* __restrict__ weight, const int* __restrict__ indices,
                                                    const int* __restrict__ offsets, float* __restrict__ out,
                                                    int dim, int slabs) {
    __shared__ long long rows[STAGE];
    const int bag = blockIdx.x / slabs;
    const int d = (blockIdx.x % slabs) * THREADS + threadIdx.x;
    const bool live = d < dim;
    const int start = offsets[bag];
    const int end = offsets[bag + 1];
    float a0 = 0.0f, a1 = 0.0f, a2 = 0.0f, a3 = 0.0f;
    for (int base = start; base < end; base += STAGE) {
        const int n = min(STAGE, end - base);
        __syncthreads();  // the previous stage is no longer read
        for (int j = threadIdx.x; j < n; j += THREADS) rows[j] = (long long)__ldg(indices + base + j) * dim;
        __syncthreads();
        if (live) {
            int j = 0;
            for (; j + 4 <= n; j += 4) {
                a0 += __ldg(weight + rows[j] + d);
                a1 += __ldg(weight + rows[j + 1] + d);
                a2 += __ldg(weight + rows[j + 2] + d);
                a3 += __ldg(weight + rows[j + 3] + d);
            }
            for (; j < n; ++j) a0 += __ldg(weight + rows[j] + d);
        }
    }
    if (live) {
        const int count = end > start ? end - start : 1;
        out[(long long)bag * dim + d] = ((a0 + a1) + (a2 + a3)) / (float)count;
    }
}

extern "C" void solve(const float* weight, const int* indices, const int* offsets, float* out, int num_embeddings,
                      int dim, int bags, int nnz) {
    const int slabs = (dim + THREADS - 1) / THREADS;
    bag_mean<<<(unsigned)bags * slabs, THREADS>>>(weight, indices, offsets, out, dim, slabs);
}
