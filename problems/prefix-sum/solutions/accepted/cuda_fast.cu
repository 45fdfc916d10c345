// Inclusive prefix sum in one pass: tile scan with decoupled look-back.
//
// A tile is 4096 ints: 256 threads x 16 consecutive ints, loaded as four int4 per thread.
// Each thread scans its 16 in registers; a warp scans the 32 thread totals with shuffles;
// warp 0 scans the 8 warp totals. The tile's total (its "aggregate") is published at once;
// then warp 0 looks back over the preceding tiles, 32 at a time: every lane reads one tile's
// state; from the nearest tile that has published its inclusive prefix, the prefix and the
// aggregates of the tiles after it make the carry; if one of those has published nothing yet,
// the warp reads again. The tile publishes its own inclusive prefix and writes y.
//
// Tiles are numbered by an atomic ticket in the order blocks start, so every tile's
// predecessors are running or done and waiting for them cannot deadlock. A tile's state is
// one 64-bit word (flag in the high half: 0 nothing, 1 aggregate, 2 prefix; the value in the
// low half), written with one atomicExch so a reader never sees a flag without its value.
// x is read once and y written once: 8 bytes per element, the minimum.
#include <cuda_runtime.h>

constexpr int THREADS = 256;
constexpr int ITEMS = 16;  // per thread
constexpr int TILE = THREADS * ITEMS;
constexpr unsigned long long AGGREGATE = 1ull << 32;
constexpr unsigned long long PREFIX = 2ull << 32;

__device__ __forceinline__ unsigned long long read_state(const unsigned long long* p) {
    return *reinterpret_cast<const volatile unsigned long long*>(p);
}

__device__ __forceinline__ int warp_inclusive(int v) {
    int lane = threadIdx.x & 31;
#pragma unroll
    for (int off = 1; off < 32; off *= 2) {
        int u = __shfl_up_sync(0xffffffffu, v, off);
        if (lane >= off) v += u;
    }
    return v;
}

// The sum of every tile before `tile` (warp 0 only; all its lanes call it).
__device__ int look_back(unsigned long long* state, long long tile) {
    int lane = threadIdx.x & 31;
    int carry = 0;
    long long end = tile;  // tiles [end - 32, end): lane l reads tile end - 1 - l
    while (true) {
        long long j = end - 1 - lane;
        unsigned long long s = j >= 0 ? read_state(state + j) : PREFIX;  // before tile 0: 0
        unsigned flag = (unsigned)(s >> 32);
        unsigned prefixes = __ballot_sync(0xffffffffu, flag == 2);
        unsigned empty = __ballot_sync(0xffffffffu, flag == 0);
        int stop = prefixes ? __ffs(prefixes) - 1 : 31;  // the nearest prefix
        unsigned needed = stop == 31 ? 0xffffffffu : (1u << (stop + 1)) - 1;
        if (empty & needed) continue;  // a tile on the way has published nothing yet
        int v = lane <= stop ? (int)(unsigned)s : 0;
#pragma unroll
        for (int off = 16; off > 0; off >>= 1) v += __shfl_xor_sync(0xffffffffu, v, off);
        carry += v;
        if (prefixes) return carry;
        end -= 32;
    }
}

__global__ void __launch_bounds__(THREADS) scan(const int* __restrict__ x, int* __restrict__ y,
                                                unsigned long long* state, int n) {
    __shared__ long long tile_s;
    __shared__ int warp_totals[THREADS / 32];
    __shared__ int carry_s;
    unsigned int* ticket = reinterpret_cast<unsigned int*>(state + ((n + TILE - 1) / TILE));
    if (threadIdx.x == 0) tile_s = atomicAdd(ticket, 1u);
    __syncthreads();
    const long long tile = tile_s;
    const long long base = tile * TILE + (long long)threadIdx.x * ITEMS;
    const bool full = tile * TILE + TILE <= n;

    int v[ITEMS];
    if (full) {
        const int4* src = reinterpret_cast<const int4*>(x + base);
#pragma unroll
        for (int q = 0; q < ITEMS / 4; ++q) {
            int4 w = __ldcs(src + q);
            v[4 * q] = w.x;
            v[4 * q + 1] = w.y;
            v[4 * q + 2] = w.z;
            v[4 * q + 3] = w.w;
        }
    } else {
#pragma unroll
        for (int k = 0; k < ITEMS; ++k) v[k] = base + k < n ? x[base + k] : 0;
    }
#pragma unroll
    for (int k = 1; k < ITEMS; ++k) v[k] += v[k - 1];  // the thread's own inclusive scan

    int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    int inc = warp_inclusive(v[ITEMS - 1]);
    if (lane == 31) warp_totals[warp] = inc;
    __syncthreads();
    if (warp == 0) {
        int t = lane < THREADS / 32 ? warp_totals[lane] : 0;
        int scanned = warp_inclusive(t);
        if (lane < THREADS / 32) warp_totals[lane] = scanned - t;  // exclusive, per warp
        int aggregate = __shfl_sync(0xffffffffu, scanned, THREADS / 32 - 1);
        int carry = 0;
        if (tile == 0) {
            if (lane == 0) atomicExch(state, PREFIX | (unsigned)aggregate);
        } else {
            if (lane == 0) atomicExch(state + tile, AGGREGATE | (unsigned)aggregate);
            carry = look_back(state, tile);
            if (lane == 0) atomicExch(state + tile, PREFIX | (unsigned)(carry + aggregate));
        }
        if (lane == 0) carry_s = carry;
    }
    __syncthreads();
    int add = carry_s + warp_totals[warp] + (inc - v[ITEMS - 1]);
    if (full) {
        int4* dst = reinterpret_cast<int4*>(y + base);
#pragma unroll
        for (int q = 0; q < ITEMS / 4; ++q) {
            dst[q] = make_int4(v[4 * q] + add, v[4 * q + 1] + add, v[4 * q + 2] + add,
                               v[4 * q + 3] + add);
        }
    } else {
#pragma unroll
        for (int k = 0; k < ITEMS; ++k) {
            if (base + k < n) y[base + k] = v[k] + add;
        }
    }
}

extern "C" void solve(const int* x, int* y, int n) {
    static unsigned long long* state = nullptr;
    static int capacity = 0;
    int tiles = (n + TILE - 1) / TILE;
    if (tiles > capacity) {
        if (state) cudaFree(state);
        cudaMalloc(&state, (size_t)(tiles + 1) * sizeof(unsigned long long));
        capacity = tiles;
    }
    // Fresh flags and ticket for every call: the states of tiles [0, tiles), then the ticket.
    cudaMemsetAsync(state, 0, (size_t)(tiles + 1) * sizeof(unsigned long long));
    scan<<<tiles, THREADS>>>(x, y, state, n);
}
