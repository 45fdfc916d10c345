// expect: wrong_answer
// Bug: the block's threads stride over the row rounded up to a whole number of rounds of 256,
// and read every position: past vocab they read the next row's probabilities (the last row
// reads past the end of probs), which then count in every mass. Right only when 256 divides
// vocab. The fix: stop at vocab.
#include <cuda_runtime.h>
#include <math.h>

constexpr int THREADS = 256;
constexpr int ONE = 1 << 24;

__device__ int weight(const float* row, int i) { return (int)(row[i] * 16777216.0f); }

__device__ int mass_from(const float* row, int vocab, int v, int* total) {
    int local = 0;
    const int rounded = (vocab + THREADS - 1) / THREADS * THREADS;
    for (int i = threadIdx.x; i < rounded; i += THREADS) {  // BUG: no i < vocab
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
