// SpMV balanced by entries, with every load coalesced: a block takes a tile of 4096 consecutive
// nonzeros, whatever rows they belong to.
//
// The entry-balanced kernels before this one (cuda_fast.cu, cuda_chunked.cu) give each thread 16
// consecutive entries and load them with 128-bit loads. A warp's load then spans 2 KiB (16 cache
// lines) per instruction, and its 16 gathers of x hit 32 lines each even inside a long row,
// whose columns lie a few apart. They move about a third of the DRAM bandwidth; the guess here
// (to be confirmed by a profile) is that the L1 lines a warp asks for are what they spend. Here
// the loads go the other way round and the row walk goes through shared memory:
//
// 1. Loads. Thread t loads entries j * 256 + t of the tile (j = 0..15): each warp instruction
//    reads 32 consecutive col (or val), one 128-byte line, and its 32 gathers of x are 32
//    neighbouring entries, a few lines in a long row. The products go to shared memory.
// 2. Rows. Warps 0 and 1 find the tile's rows while the loads are in flight: ra, the first row
//    starting at or after the tile's first entry, and rb, the first starting at or after its
//    end (m for the last tile), by a 32-way search of rowptr (32 probes per step, 5 or 6
//    steps). The tile owns rows [ra, rb); rowptr[ra..rb] is copied to shared memory (read from
//    global memory instead in the rare tile with more than 2047 rows, e.g. of empty rows).
// 3. Walk. Thread t now sums the products of tile entries [16t, 16t + 16) in order, storing
//    y of every row that starts and ends among them (empty rows: 0). A row that started in an
//    earlier thread's entries (its "carry-in" row) and the row still open at its last entry
//    (its "trailing" row) are combined across threads by a segmented scan over the block.
// 4. Rows split between tiles. The tile that owns a row (holds its start) stores its part of
//    the row; a tile whose first entry lies inside an earlier tile's row (its "head" row) writes
//    that part to scratch, and a second kernel adds the heads into y, after the first kernel's
//    stores. Rows starting at nnz (empty rows at the end) are zeroed by the last tile.
// y is written once per row, plus one atomic per tile that starts inside a row.
#include <cuda_runtime.h>

constexpr int THREADS = 256;
constexpr int K = 16;                    // entries per thread
constexpr int TILE = THREADS * K;        // entries per block
constexpr int SLICE = 2048;              // rowptr values a tile keeps in shared memory
constexpr unsigned FULL = 0xffffffffu;

// Shared-memory index of tile entry e: one pad word per 32 keeps both the column-wise stores
// (entry j * 256 + t) and the row-wise reads (entry 16t + i) free of bank conflicts.
__device__ __forceinline__ int pad(int e) { return e + (e >> 5); }

// The first index r in [0, m] with rowptr[r] >= target (rowptr[m] = nnz >= target), found by a
// whole warp: 32 probes per step shrink the range 32-fold.
__device__ int warp_lower_bound(const int* __restrict__ rowptr, int m, int target) {
    const int lane = threadIdx.x & 31;
    int a = 0, b = m;  // the answer lies in [a, b]
    while (a < b) {
        const int step = (b - a + 31) / 32;
        const int p = a + lane * step;
        const bool below = p < b && __ldg(rowptr + p) < target;
        const int c = __popc(__ballot_sync(FULL, below));  // rowptr is sorted: lanes 0..c-1
        if (c == 0) break;                                 // rowptr[a] >= target
        const int na = a + (c - 1) * step + 1;
        b = min(a + c * step, b);
        a = na;
    }
    return a;
}

__global__ void __launch_bounds__(THREADS)
    spmv_tiles(const int* __restrict__ rowptr, const int* __restrict__ col, const float* __restrict__ val,
               const float* __restrict__ x, float* __restrict__ y, int* __restrict__ head_row,
               float* __restrict__ head_sum, int m, int nnz) {
    __shared__ float prod[TILE + TILE / 32];
    __shared__ int rp_s[SLICE];
    __shared__ int rows_s[2];
    __shared__ int warp_key[THREADS / 32];
    __shared__ float warp_val[THREADS / 32];
    __shared__ bool warp_head[THREADS / 32];

    const int t = threadIdx.x, lane = t & 31, warp = t >> 5;
    const int b = blockIdx.x;
    const int lo = b * TILE;  // nnz <= 2^31 - TILE keeps this an int
    const int count = min(TILE, nnz - lo);
    const bool last_tile = lo + count == nnz;

    // 1. Loads, issued before anything that waits on them.
    int c[K];
    float v[K];
#pragma unroll
    for (int j = 0; j < K; ++j) {
        const int e = j * THREADS + t;
        c[j] = e < count ? __ldcs(col + lo + e) : 0;
        v[j] = e < count ? __ldcs(val + lo + e) : 0.0f;
    }
    float g[K];
#pragma unroll
    for (int j = 0; j < K; ++j) g[j] = j * THREADS + t < count ? __ldg(x + c[j]) : 0.0f;

    // 2. The tile's rows, searched while the loads are in flight.
    if (warp == 0) {
        const int ra = warp_lower_bound(rowptr, m, lo);
        if (lane == 0) rows_s[0] = ra;
    } else if (warp == 1) {
        const int rb = last_tile ? m : warp_lower_bound(rowptr, m, lo + count);
        if (lane == 0) rows_s[1] = rb;
    }
#pragma unroll
    for (int j = 0; j < K; ++j) prod[pad(j * THREADS + t)] = v[j] * g[j];
    __syncthreads();
    const int ra = rows_s[0], rb = rows_s[1];
    const bool fits = rb - ra < SLICE;  // rowptr[ra..rb] in rp_s
    if (fits) {
        for (int r = ra + t; r <= rb; r += THREADS) rp_s[r - ra] = __ldg(rowptr + r);
    }
    __syncthreads();
    auto rp = [&](int r) { return fits ? rp_s[r - ra] : __ldg(rowptr + r); };

    // y of row `row` from this tile: the owner stores it; a head row goes to scratch.
    auto emit = [&](int row, float s) {
        if (row >= ra) {
            y[row] = s;
        } else {
            head_row[b] = row;
            head_sum[b] = s;
        }
    };

    // 3. Walk entries [first, end) of the tile, in global numbering.
    const int first = lo + t * K;
    const int end = min(first + K, lo + count);
    const bool active = first < end;
    int key = -1;        // the trailing row, open at the last entry (-1: none)
    float part = 0.0f;   // its sum over this thread's entries
    int cin_row = -1;    // the carry-in row, if it ends among this thread's entries
    float cin_part = 0.0f;
    bool carry_in = false;  // the current row started before `first`
    if (active) {
        int a = ra, z = rb;  // lower bound of `first` in rowptr[ra..rb]: rowptr[rb] > first
        while (a < z) {
            const int mid = (a + z) >> 1;
            if (rp(mid) < first) a = mid + 1; else z = mid;
        }
        int r = a;
        carry_in = rp(a) > first;  // `first` lies in row a - 1, begun earlier
        if (carry_in) --r;
        int row_end = rp(r + 1);
        float sum = 0.0f;
        for (int e = first; e < end; ++e) {
            while (e >= row_end) {  // rows ending before entry e, empty ones included
                if (carry_in) {
                    cin_row = r;
                    cin_part = sum;
                    carry_in = false;
                } else {
                    y[r] = sum;  // begun and ended here: a row of this tile
                }
                sum = 0.0f;
                ++r;
                row_end = rp(r + 1);
            }
            sum += prod[pad(e - lo)];
        }
        if (row_end == end) {  // the last row ends with the last entry: nothing trails
            if (carry_in) {
                cin_row = r;
                cin_part = sum;
                carry_in = false;
            } else {
                y[r] = sum;
            }
        } else {
            key = r;
            part = sum;
        }
    }

    // Segmented inclusive scan of the trailing parts: a segment starts at every thread whose
    // trailing row did not come in from the thread before (or that has none).
    bool head = t == 0 || !carry_in || key < 0;
    float inc = part;
#pragma unroll
    for (int off = 1; off < 32; off <<= 1) {
        const float up = __shfl_up_sync(FULL, inc, off);
        const bool up_head = __shfl_up_sync(FULL, head, off);
        if (lane >= off) {
            if (!head) inc += up;
            head = head || up_head;
        }
    }
    if (lane == 31) {
        warp_key[warp] = key;
        warp_val[warp] = inc;
        warp_head[warp] = head;
    }
    __syncthreads();
    float before = 0.0f;  // the inclusive scan at thread 32 * warp - 1
    for (int w = 0; w < warp; ++w) before = warp_head[w] ? warp_val[w] : before + warp_val[w];
    if (!head) inc += before;
    float prev_val = __shfl_up_sync(FULL, inc, 1);
    int prev_key = __shfl_up_sync(FULL, key, 1);
    if (lane == 0) {
        prev_val = before;
        prev_key = warp > 0 ? warp_key[warp - 1] : -1;
    }

    if (cin_row >= 0) emit(cin_row, cin_part + (prev_key == cin_row ? prev_val : 0.0f));
    if (active && key >= 0 && end == lo + count) emit(key, inc);  // open at the tile's end
    if (t == 0 && rp(ra) == lo) head_row[b] = -1;  // the tile starts with a row of its own
    if (last_tile) {
        for (int r = ra + t; r < m; r += THREADS) {
            if (rp(r) == nnz) y[r] = 0.0f;  // empty rows after the last entry
        }
    }
}

// The head parts, added after every owner's store.
__global__ void add_heads(const int* __restrict__ head_row, const float* __restrict__ head_sum,
                          float* __restrict__ y, int tiles) {
    const int b = blockIdx.x * blockDim.x + threadIdx.x;
    if (b < tiles && head_row[b] >= 0) atomicAdd(y + head_row[b], head_sum[b]);
}

extern "C" void solve(const int* rowptr, const int* col, const float* val, const float* x, float* y, int m, int n,
                      int nnz) {
    static int* head_row = nullptr;
    static float* head_sum = nullptr;
    static int capacity = 0;
    const int tiles = (nnz + TILE - 1) / TILE;
    if (tiles > capacity) {
        if (head_row) cudaFree(head_row);
        if (head_sum) cudaFree(head_sum);
        cudaMalloc(&head_row, sizeof(int) * tiles);
        cudaMalloc(&head_sum, sizeof(float) * tiles);
        capacity = tiles;
    }
    spmv_tiles<<<tiles, THREADS>>>(rowptr, col, val, x, y, head_row, head_sum, m, nnz);
    add_heads<<<(tiles + 255) / 256, 256>>>(head_row, head_sum, y, tiles);
}
