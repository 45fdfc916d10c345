// Top-k, the straightforward way: one block of 256 threads per row, k rounds of argmax.
// Round t looks for the best element that comes after round t-1's answer (pv, pi) in the order
// "larger value first, then lower column": x < pv, or x == pv and j > pi. Each thread walks
// its columns left to right keeping the first best it sees; a shared-memory tree merges the
// threads' (value, column) pairs with the same order, so ties go to the lower column.
#include <cuda_runtime.h>

constexpr int THREADS = 256;

// (v, i) comes before (bv, bi) in the output order; bi < 0 means "nothing yet".
__device__ __forceinline__ bool before(float v, int i, float bv, int bi) {
    return bi < 0 || v > bv || (v == bv && i < bi);
}

__global__ void topk_rounds(const float* x, float* vals, int* idx, int v, int k) {
    __shared__ float sv[THREADS];
    __shared__ int si[THREADS];
    const float* row = x + (size_t)blockIdx.x * v;
    float pv = INFINITY;
    int pi = -1;
    for (int t = 0; t < k; ++t) {
        float bv = -INFINITY;
        int bi = -1;
        for (int j = threadIdx.x; j < v; j += THREADS) {
            float xj = row[j];
            bool eligible = xj < pv || (xj == pv && j > pi);
            if (eligible && before(xj, j, bv, bi)) {
                bv = xj;
                bi = j;
            }
        }
        sv[threadIdx.x] = bv;
        si[threadIdx.x] = bi;
        __syncthreads();
        for (int stride = THREADS / 2; stride > 0; stride /= 2) {
            if (threadIdx.x < stride) {
                float ov = sv[threadIdx.x + stride];
                int oi = si[threadIdx.x + stride];
                if (oi >= 0 && before(ov, oi, sv[threadIdx.x], si[threadIdx.x])) {
                    sv[threadIdx.x] = ov;
                    si[threadIdx.x] = oi;
                }
            }
            __syncthreads();
        }
        pv = sv[0];
        pi = si[0];
        if (threadIdx.x == 0) {
            vals[(size_t)blockIdx.x * k + t] = pv;
            idx[(size_t)blockIdx.x * k + t] = pi;
        }
        __syncthreads();  // everyone has read sv[0], si[0] before the next round writes them
    }
}

extern "C" void solve(const float* x, float* vals, int* idx, int b, int v, int k) {
    topk_rounds<<<b, THREADS>>>(x, vals, idx, v, k);
}
