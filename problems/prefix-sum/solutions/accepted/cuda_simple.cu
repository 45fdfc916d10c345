// Inclusive prefix sum, scan-then-propagate in three kernels:
//   1. each block of 1024 threads scans its 1024 elements in shared memory (Kogge-Stone:
//      log2(1024) = 10 steps, each adding the value `offset` places to the left), writes the
//      local scan to y and its total to a scratch array;
//   2. one block scans those totals, 1024 at a time with a running carry, into each block's
//      offset (the sum of all blocks before it);
//   3. every element of y gets its block's offset added.
#include <cuda_runtime.h>

constexpr int THREADS = 1024;

// Inclusive scan of s[0..THREADS) in place; every thread of the block must call it.
__device__ void block_scan(int* s) {
    int t = threadIdx.x;
    for (int offset = 1; offset < THREADS; offset *= 2) {
        int add = t >= offset ? s[t - offset] : 0;
        __syncthreads();  // everyone has read before anyone writes
        s[t] += add;
        __syncthreads();
    }
}

__global__ void scan_blocks(const int* x, int* y, int* sums, int n) {
    __shared__ int s[THREADS];
    long long i = (long long)blockIdx.x * THREADS + threadIdx.x;
    s[threadIdx.x] = i < n ? x[i] : 0;
    __syncthreads();
    block_scan(s);
    if (i < n) y[i] = s[threadIdx.x];
    if (threadIdx.x == THREADS - 1) sums[blockIdx.x] = s[THREADS - 1];
}

__global__ void scan_sums(int* sums, int blocks) {
    __shared__ int s[THREADS];
    __shared__ int carry;
    if (threadIdx.x == 0) carry = 0;
    for (int start = 0; start < blocks; start += THREADS) {
        int i = start + threadIdx.x;
        int v = i < blocks ? sums[i] : 0;
        s[threadIdx.x] = v;
        __syncthreads();
        block_scan(s);
        if (i < blocks) sums[i] = carry + s[threadIdx.x] - v;  // exclusive: the blocks before
        __syncthreads();
        if (threadIdx.x == 0) carry += s[THREADS - 1];
        __syncthreads();
    }
}

__global__ void add_offsets(int* y, const int* sums, int n) {
    long long i = (long long)blockIdx.x * THREADS + threadIdx.x;
    if (i < n) y[i] += sums[blockIdx.x];
}

extern "C" void solve(const int* x, int* y, int n) {
    static int* sums = nullptr;
    static int capacity = 0;
    int blocks = (n + THREADS - 1) / THREADS;
    if (blocks > capacity) {
        if (sums) cudaFree(sums);
        cudaMalloc(&sums, (size_t)blocks * sizeof(int));
        capacity = blocks;
    }
    scan_blocks<<<blocks, THREADS>>>(x, y, sums, n);
    scan_sums<<<1, THREADS>>>(sums, blocks);
    add_offsets<<<blocks, THREADS>>>(y, sums, n);
}
