// Top-p sampling without sorting: one block of 256 threads per row, binary searches over
// probability values. Every probability is a whole number of 2^-24 units, so the block works
// in integers: mass_from(v), the units held by tokens of weight >= v, is one pass over the row
// with a block-wide sum. The nucleus ends in the group of weight w* = the largest v with
// mass_from(v) >= P (P = ceil(p * 2^24)); it takes the first j tokens of weight w* by index.
// The draw is the same search for min(floor(u * mass * 2^24) + 1, mass). The chosen token is
// the nth of its weight by index: each thread counts those in its stretch of the row, thread 0
// walks the counts, and the thread whose stretch holds the nth walks it.
#include <cuda_runtime.h>
#include <math.h>

constexpr int THREADS = 256;
constexpr int ONE = 1 << 24;

__device__ int weight(const float* row, int i) { return (int)(row[i] * 16777216.0f); }

__device__ int mass_from(const float* row, int vocab, int v, int* total) {
    int local = 0;
    for (int i = threadIdx.x; i < vocab; i += THREADS) {
        const int w = weight(row, i);
        if (w >= v) local += w;
    }
    __syncthreads();  // the previous call's total has been read by every thread
    if (threadIdx.x == 0) *total = 0;
    __syncthreads();
    atomicAdd(total, local);
    __syncthreads();
    return *total;
}

__device__ int last_level(const float* row, int vocab, int target, int* total) {
    int lo = 1, hi = ONE + 1;  // mass_from(1) = 2^24 >= target > 0 = mass_from(2^24 + 1)
    while (hi - lo > 1) {
        const int mid = (lo + hi) / 2;
        if (mass_from(row, vocab, mid, total) >= target) lo = mid;
        else hi = mid;
    }
    return lo;
}

__global__ void top_p_row(const float* probs, const float* top_p, const float* u, int* token, int vocab) {
    __shared__ int total;
    __shared__ int counts[THREADS];
    __shared__ int owner, rank;
    const float* row = probs + (long long)blockIdx.x * vocab;
    const int target = (int)ceilf(top_p[blockIdx.x] * 16777216.0f);
    const int level = last_level(row, vocab, target, &total);
    const int above = mass_from(row, vocab, level + 1, &total);
    const int mass = above + (target - above + level - 1) / level * level;
    const float t = u[blockIdx.x] * ((float)mass * (1.0f / 16777216.0f));
    const int goal = min((int)floorf(t * 16777216.0f) + 1, mass);
    const int pick = last_level(row, vocab, goal, &total);
    const int nth = (goal - mass_from(row, vocab, pick + 1, &total) + pick - 1) / pick;
    // thread k owns the stretch [k * span, (k + 1) * span) of the row
    const int span = (vocab + THREADS - 1) / THREADS;
    const int first = threadIdx.x * span;
    const int last = min(first + span, vocab);
    int hits = 0;
    for (int i = first; i < last; ++i) hits += weight(row, i) == pick;
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
            if (weight(row, i) == pick && ++seen == rank) {
                token[blockIdx.x] = i;
                break;
            }
        }
    }
}

extern "C" void solve(const float* probs, const float* top_p, const float* u, int* token, int batch, int vocab) {
    top_p_row<<<batch, THREADS>>>(probs, top_p, u, token, vocab);
}
