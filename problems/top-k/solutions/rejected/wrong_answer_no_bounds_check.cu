// expect: wrong_answer
// expect-message: vals: wrote past the end
// Bug: the answers of each row are written by a warp, one lane per output, for all 32 (or 64)
// lanes' worth of outputs, with no `t < k` check: as if k were always a multiple of 32. The
// extra lanes write the candidates after the k-th into the next row of vals and idx and, from
// the last row, past the end of both. The fix: `if (t < k)` around the stores.
#include <cuda_runtime.h>

constexpr int THREADS = 256;
constexpr int MAXK = 64;

__device__ __forceinline__ bool before(float v, int i, float bv, int bi) {
    return bi < 0 || v > bv || (v == bv && i < bi);
}

__global__ void topk_rounds(const float* x, float* vals, int* idx, int v, int k) {
    __shared__ float sv[THREADS];
    __shared__ int si[THREADS];
    __shared__ float out_v[MAXK];
    __shared__ int out_i[MAXK];
    const float* row = x + (size_t)blockIdx.x * v;
    float pv = INFINITY;
    int pi = -1;
    const int rounds = (k + 31) / 32 * 32 < v ? (k + 31) / 32 * 32 : v;  // whole warps' worth
    for (int t = 0; t < rounds; ++t) {
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
            out_v[t] = pv;
            out_i[t] = pi;
        }
        __syncthreads();
    }
    if (threadIdx.x < rounds) {  // no t < k check
        vals[(size_t)blockIdx.x * k + threadIdx.x] = out_v[threadIdx.x];
        idx[(size_t)blockIdx.x * k + threadIdx.x] = out_i[threadIdx.x];
    }
}

extern "C" void solve(const float* x, float* vals, int* idx, int b, int v, int k) {
    topk_rounds<<<b, THREADS>>>(x, vals, idx, v, k);
}
