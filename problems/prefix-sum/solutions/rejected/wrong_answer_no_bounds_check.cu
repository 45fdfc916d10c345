// expect: wrong_answer
// expect-message: y: wrote past the end
// Bug: the block scan and the offset kernel have no `if (i < n)` on their stores. The loads
// are guarded (padding 0), so every value inside y is right, but the last block's threads
// past n write their scan values past the end of y (on a GPU, into someone else's data).
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

__global__ void scan_blocks(const int* x, int* y, int* sums, int n) {
    __shared__ int s[THREADS];
    long long i = (long long)blockIdx.x * THREADS + threadIdx.x;
    s[threadIdx.x] = i < n ? x[i] : 0;
    __syncthreads();
    block_scan(s);
    y[i] = s[threadIdx.x];  // BUG: needs if (i < n)
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
        if (i < blocks) sums[i] = carry + s[threadIdx.x] - v;
        __syncthreads();
        if (threadIdx.x == 0) carry += s[THREADS - 1];
        __syncthreads();
    }
}

__global__ void add_offsets(int* y, const int* sums, int n) {
    long long i = (long long)blockIdx.x * THREADS + threadIdx.x;
    y[i] += sums[blockIdx.x];  // BUG: needs if (i < n)
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
