// expect: wrong_answer
// Bug: the scatter has no bounds check on its stores. The loads are guarded (threads past n
// hold key 0), but those threads then rank as digit 0 and write after the last block's real
// digit-0 keys: over slots that belong to digit 1 (destroying keys already placed there) or
// past the end of keys and vals. Right only when n is a multiple of 256. (The scratch pair is
// padded to whole blocks, so the stray stores land in keys and vals, which the judge guards.)
#include <cuda_runtime.h>

constexpr int THREADS = 256;
constexpr int WARPS = THREADS / 32;
constexpr int RADIX_BITS = 4;
constexpr int RADIX = 1 << RADIX_BITS;
constexpr int SCAN_THREADS = 1024;

__global__ void count_digits(const unsigned* keys, int* counts, int n, int blocks, int shift) {
    __shared__ int c[RADIX];
    if (threadIdx.x < RADIX) c[threadIdx.x] = 0;
    __syncthreads();
    long long i = (long long)blockIdx.x * THREADS + threadIdx.x;
    if (i < n) atomicAdd(&c[(keys[i] >> shift) & (RADIX - 1)], 1);
    __syncthreads();
    if (threadIdx.x < RADIX) counts[threadIdx.x * blocks + blockIdx.x] = c[threadIdx.x];
}

__global__ void scan_counts(int* counts, int total) {
    __shared__ int s[SCAN_THREADS];
    __shared__ int carry;
    int t = threadIdx.x;
    if (t == 0) carry = 0;
    for (int start = 0; start < total; start += SCAN_THREADS) {
        int v = start + t < total ? counts[start + t] : 0;
        s[t] = v;
        __syncthreads();
        for (int offset = 1; offset < SCAN_THREADS; offset *= 2) {  // Kogge-Stone, inclusive
            int add = t >= offset ? s[t - offset] : 0;
            __syncthreads();
            s[t] += add;
            __syncthreads();
        }
        if (start + t < total) counts[start + t] = carry + s[t] - v;  // exclusive
        __syncthreads();
        if (t == 0) carry += s[SCAN_THREADS - 1];
        __syncthreads();
    }
}

__global__ void scatter(const unsigned* src_k, const int* src_v, unsigned* dst_k, int* dst_v,
                        const int* slots, int n, int blocks, int shift) {
    __shared__ int warp_counts[WARPS][RADIX];
    for (int j = threadIdx.x; j < WARPS * RADIX; j += THREADS) warp_counts[j / RADIX][j % RADIX] = 0;
    __syncthreads();
    long long i = (long long)blockIdx.x * THREADS + threadIdx.x;
    bool live = i < n;
    unsigned k = live ? src_k[i] : 0u;
    int v = live ? src_v[i] : 0;
    int d = (k >> shift) & (RADIX - 1);
    int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    unsigned peers = __match_any_sync(0xffffffffu, d);
    int rank = __popc(peers & ((1u << lane) - 1u));  // same digit, lower lane
    if (lane == 31 - __clz(peers)) warp_counts[warp][d] = __popc(peers);
    __syncthreads();
    // BUG: threads past n go on to store (needs: if (!live) return;)
    for (int w = 0; w < warp; ++w) rank += warp_counts[w][d];  // same digit, earlier warps
    int slot = slots[d * blocks + blockIdx.x] + rank;
    dst_k[slot] = k;
    dst_v[slot] = v;
}

extern "C" void solve(unsigned int* keys, int* vals, int n) {
    static unsigned* tmp_k = nullptr;
    static int* tmp_v = nullptr;
    static int* counts = nullptr;
    static int capacity = 0;
    int blocks = (n + THREADS - 1) / THREADS;
    if (n > capacity) {
        if (tmp_k) {
            cudaFree(tmp_k);
            cudaFree(tmp_v);
            cudaFree(counts);
        }
        cudaMalloc(&tmp_k, (size_t)blocks * THREADS * sizeof(unsigned));
        cudaMalloc(&tmp_v, (size_t)blocks * THREADS * sizeof(int));
        cudaMalloc(&counts, (size_t)RADIX * blocks * sizeof(int));
        capacity = n;
    }
    unsigned *sk = keys, *dk = tmp_k;
    int *sv = vals, *dv = tmp_v;
    for (int shift = 0; shift < 32; shift += RADIX_BITS) {
        count_digits<<<blocks, THREADS>>>(sk, counts, n, blocks, shift);
        scan_counts<<<1, SCAN_THREADS>>>(counts, RADIX * blocks);
        scatter<<<blocks, THREADS>>>(sk, sv, dk, dv, counts, n, blocks, shift);
        unsigned* tk = sk;
        sk = dk;
        dk = tk;
        int* tv = sv;
        sv = dv;
        dv = tv;
    }
}
