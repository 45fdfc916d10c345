// Top-p sampling by radix select: the binary searches of cuda_simple.cu, four bits of the
// weight at a time. One block of 512 threads per row; every probability is a whole number
// of 2^-24 units. select(target) finds the largest weight v whose tokens of weight >= v hold
// at least target units, and the units above v, in seven passes instead of twenty-five: each
// pass adds the weights of the tokens that agree with the digits found so far into sixteen
// shared buckets by their next four bits (shared-memory atomics), and every thread keeps the
// highest bucket whose mass, with everything above it, still reaches the target. The row is
// read as float4 where it is 16-byte aligned. The chosen token, the nth of its weight by
// index, is found as in the simple sample: counts per stretch of the row, then one walk.
#include <cuda_runtime.h>
#include <math.h>
#include <stdint.h>

constexpr int THREADS = 512;

__device__ __forceinline__ int weight(float p) { return (int)(p * 16777216.0f); }

__device__ __forceinline__ void add(int w, int prefix, int shift, int* hist) {
    if (w > 0 && (w >> (shift + 4)) == (prefix >> (shift + 4))) atomicAdd(&hist[(w >> shift) & 15], w);
}

// the largest weight v with (units of weights >= v) >= target, and the units above v
__device__ void select(const float* row, int vocab, bool vec, int target, int* hist, int* level, int* above) {
    int prefix = 0, up = 0;
    for (int shift = 24; shift >= 0; shift -= 4) {
        if (threadIdx.x < 16) hist[threadIdx.x] = 0;
        __syncthreads();
        if (vec) {
            const float4* row4 = reinterpret_cast<const float4*>(row);
            for (int i = threadIdx.x; i < vocab / 4; i += THREADS) {
                const float4 p = row4[i];
                add(weight(p.x), prefix, shift, hist);
                add(weight(p.y), prefix, shift, hist);
                add(weight(p.z), prefix, shift, hist);
                add(weight(p.w), prefix, shift, hist);
            }
        } else {
            for (int i = threadIdx.x; i < vocab; i += THREADS) add(weight(row[i]), prefix, shift, hist);
        }
        __syncthreads();
        int d = 15, higher = 0;
        for (; d > 0; --d) {
            if (up + higher + hist[d] >= target) break;
            higher += hist[d];
        }
        up += higher;
        prefix |= d << shift;
        __syncthreads();  // every thread has read hist before the next round clears it
    }
    *level = prefix;
    *above = up;
}

__global__ void __launch_bounds__(THREADS) top_p_row(const float* probs, const float* top_p, const float* u,
                                                     int* token, int vocab) {
    __shared__ int hist[16];
    __shared__ int counts[THREADS];
    __shared__ int owner, rank;
    const float* row = probs + (long long)blockIdx.x * vocab;
    const bool vec = vocab % 4 == 0 && reinterpret_cast<uintptr_t>(probs) % 16 == 0;
    const int target = (int)ceilf(top_p[blockIdx.x] * 16777216.0f);
    int level, above;
    select(row, vocab, vec, target, hist, &level, &above);
    const int mass = above + (target - above + level - 1) / level * level;
    const float t = u[blockIdx.x] * ((float)mass * (1.0f / 16777216.0f));
    const int goal = min((int)floorf(t * 16777216.0f) + 1, mass);
    int pick, below;
    select(row, vocab, vec, goal, hist, &pick, &below);
    const int nth = (goal - below + pick - 1) / pick;
    const int span = (vocab + THREADS - 1) / THREADS;
    const int first = threadIdx.x * span;
    const int last = min(first + span, vocab);
    int hits = 0;
    for (int i = first; i < last; ++i) hits += weight(row[i]) == pick;
    counts[threadIdx.x] = hits;
    __syncthreads();
    if (threadIdx.x == 0) {
        int seen = 0, k = 0;
        while (seen + counts[k] < nth) seen += counts[k++];
        owner = k;
        rank = nth - seen;
    }
    __syncthreads();
    if (threadIdx.x == owner) {
        int seen = 0;
        for (int i = first; i < last; ++i) {
            if (weight(row[i]) == pick && ++seen == rank) {
                token[blockIdx.x] = i;
                break;
            }
        }
    }
}

extern "C" void solve(const float* probs, const float* top_p, const float* u, int* token, int batch, int vocab) {
    top_p_row<<<batch, THREADS>>>(probs, top_p, u, token, vocab);
}
