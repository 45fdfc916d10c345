// Argmax of each row, the straightforward way: one block of 256 threads per row. Each thread
// walks its columns (tid, tid + 256, ...) left to right and keeps the first maximum it sees;
// then a tree reduction in shared memory merges (value, index) pairs: the larger value wins,
// and on equal values the smaller index, so the row's first maximum survives.
#include <cuda_runtime.h>

constexpr int THREADS = 256;

__device__ __forceinline__ bool better(float v, int i, float bv, int bi) {
    return v > bv || (v == bv && i < bi);
}

__global__ void argmax_rows(const float* x, int* idx, int n) {
    __shared__ float sv[THREADS];
    __shared__ int si[THREADS];
    const float* row = x + (size_t)blockIdx.x * n;
    float bv = -__int_as_float(0x7f800000);  // -inf
    int bi = n;                              // "none": past every column
    for (int j = threadIdx.x; j < n; j += THREADS) {
        float v = row[j];
        if (bi == n || v > bv) {  // the first element is taken even when it is -inf
            bv = v;
            bi = j;
        }
    }
    sv[threadIdx.x] = bv;
    si[threadIdx.x] = bi;
    __syncthreads();
    for (int stride = THREADS / 2; stride > 0; stride /= 2) {
        if (threadIdx.x < stride) {
            float v = sv[threadIdx.x + stride];
            int i = si[threadIdx.x + stride];
            if (better(v, i, sv[threadIdx.x], si[threadIdx.x])) {
                sv[threadIdx.x] = v;
                si[threadIdx.x] = i;
            }
        }
        __syncthreads();
    }
    if (threadIdx.x == 0) idx[blockIdx.x] = si[0];
}

extern "C" void solve(const float* x, int* idx, int m, int n) {
    argmax_rows<<<m, THREADS>>>(x, idx, n);
}
