// expect: wrong_answer
// expect-message: out: wrote past the end
// Bug: the scatter kernel loads x[i] without `if (i < n)`. The last block's threads past n
// read the memory after x (on a GPU, whatever lies there: here the judge's guard band of
// random bytes), keep the values that look positive and write them after the real kept
// values, past the end of out when the last block is mostly padding. The count kernel checks
// its bounds, so count itself is right. The fix: float v = i < n ? x[i] : 0.0f.
#include <cuda_runtime.h>

constexpr int THREADS = 1024;

__device__ void block_scan(int* s) {
    int t = threadIdx.x;
    for (int offset = 1; offset < THREADS; offset *= 2) {
        int add = t >= offset ? s[t - offset] : 0;
        __syncthreads();
        s[t] += add;
        __syncthreads();
    }
}

__global__ void count_kept(const float* x, int* counts, int n) {
    long long i = (long long)blockIdx.x * THREADS + threadIdx.x;
    int kept = __syncthreads_count(i < n && x[i] > 0.0f);
    if (threadIdx.x == 0) counts[blockIdx.x] = kept;
}

__global__ void positions(int* counts, int* count, int blocks) {
    __shared__ int s[THREADS];
    __shared__ int carry;
    if (threadIdx.x == 0) carry = 0;
    for (int start = 0; start < blocks; start += THREADS) {
        int i = start + threadIdx.x;
        int c = i < blocks ? counts[i] : 0;
        s[threadIdx.x] = c;
        __syncthreads();
        block_scan(s);
        if (i < blocks) counts[i] = carry + s[threadIdx.x] - c;
        __syncthreads();
        if (threadIdx.x == 0) carry += s[THREADS - 1];
        __syncthreads();
    }
    if (threadIdx.x == 0) *count = carry;
}

__global__ void scatter(const float* x, float* out, const int* counts, int n) {
    __shared__ int s[THREADS];
    long long i = (long long)blockIdx.x * THREADS + threadIdx.x;
    float v = x[i];  // BUG: needs i < n
    bool keep = v > 0.0f;
    s[threadIdx.x] = keep;
    __syncthreads();
    block_scan(s);
    if (keep) out[counts[blockIdx.x] + s[threadIdx.x] - 1] = v;
}

extern "C" void solve(const float* x, float* out, int* count, int n) {
    static int* counts = nullptr;
    static int capacity = 0;
    int blocks = (n + THREADS - 1) / THREADS;
    if (blocks > capacity) {
        if (counts) cudaFree(counts);
        cudaMalloc(&counts, (size_t)blocks * sizeof(int));
        capacity = blocks;
    }
    count_kept<<<blocks, THREADS>>>(x, counts, n);
    positions<<<1, THREADS>>>(counts, count, blocks);
    scatter<<<blocks, THREADS>>>(x, out, counts, n);
}
