// 2-D convolution at memory speed: a shared-memory tile with its halo, and a column of 16
// outputs per thread that reuses every input it loads for r multiply-adds.
//
// A block of 64 x 4 threads computes a 64 x 64 tile of outputs. It first copies the
// (64 + 2R) x (64 + 2R) inputs the tile needs (R = r/2 of halo on every side, zeros outside
// the image: the padding) and the r x r filter into shared memory. Thread (tx, ty) then owns
// column tx, rows 16·ty .. 16·ty + 15 of the tile. For each filter column b it loads the 16 +
// 2R inputs of its column shifted by b into registers (consecutive threads read consecutive
// words: no bank conflicts) and, for each filter row a, adds f[a][b] times inputs a .. a + 15
// into its 16 accumulators. That is 16 + 2R + r shared loads per 16·r FMAs (22 + 7 per 112 at
// r = 7), against the r^2 loads per output of the one-thread-per-output kernel.
//
// The register arrays must have sizes known at compile time, so the kernel is a template
// on R and solve picks the instance for r (1, 3, ..., 31).
#include <cuda_runtime.h>

constexpr int TW = 64;  // tile width = threads in x
constexpr int TY = 4;   // threads in y
constexpr int V = 16;   // outputs per thread (a column)
constexpr int TH = TY * V;

template <int R>
__global__ void __launch_bounds__(TW * TY) conv2d_tiled(const float* __restrict__ x, const float* __restrict__ f,
                                                        float* __restrict__ y, int h, int w) {
    constexpr int r = 2 * R + 1;
    constexpr int SW = TW + 2 * R;  // shared tile width
    constexpr int SH = TH + 2 * R;  // shared tile height
    __shared__ float xs[SH * SW];
    __shared__ float fs[r * r];
    const int tid = threadIdx.y * TW + threadIdx.x;
    const int i0 = blockIdx.y * TH - R;  // image row of xs row 0
    const int j0 = blockIdx.x * TW - R;  // image column of xs column 0
    for (int e = tid; e < r * r; e += TW * TY) fs[e] = f[e];
    for (int e = tid; e < SH * SW; e += TW * TY) {
        const int si = i0 + e / SW, sj = j0 + e % SW;
        xs[e] = (si >= 0 && si < h && sj >= 0 && sj < w) ? x[(size_t)si * w + sj] : 0.0f;
    }
    __syncthreads();

    float acc[V];
#pragma unroll
    for (int v = 0; v < V; ++v) acc[v] = 0.0f;
    const int row0 = threadIdx.y * V;  // first xs row of this thread's window
#pragma unroll 1
    for (int b = 0; b < r; ++b) {
        float col[V + 2 * R];
#pragma unroll
        for (int m = 0; m < V + 2 * R; ++m) col[m] = xs[(row0 + m) * SW + threadIdx.x + b];
#pragma unroll
        for (int a = 0; a < r; ++a) {
            const float fv = fs[a * r + b];
#pragma unroll
            for (int v = 0; v < V; ++v) acc[v] = fmaf(col[v + a], fv, acc[v]);
        }
    }

    const int j = blockIdx.x * TW + threadIdx.x;
    if (j >= w) return;
#pragma unroll
    for (int v = 0; v < V; ++v) {
        const int i = blockIdx.y * TH + row0 + v;
        if (i < h) y[(size_t)i * w + j] = acc[v];
    }
}

template <int R>
static void launch(const float* x, const float* f, float* y, int h, int w) {
    const dim3 grid((w + TW - 1) / TW, (h + TH - 1) / TH);
    conv2d_tiled<R><<<grid, dim3(TW, TY)>>>(x, f, y, h, w);
}

extern "C" void solve(const float* x, const float* f, float* y, int h, int w, int r) {
    switch (r / 2) {
        case 0: launch<0>(x, f, y, h, w); break;
        case 1: launch<1>(x, f, y, h, w); break;
        case 2: launch<2>(x, f, y, h, w); break;
        case 3: launch<3>(x, f, y, h, w); break;
        case 4: launch<4>(x, f, y, h, w); break;
        case 5: launch<5>(x, f, y, h, w); break;
        case 6: launch<6>(x, f, y, h, w); break;
        case 7: launch<7>(x, f, y, h, w); break;
        case 8: launch<8>(x, f, y, h, w); break;
        case 9: launch<9>(x, f, y, h, w); break;
        case 10: launch<10>(x, f, y, h, w); break;
        case 11: launch<11>(x, f, y, h, w); break;
        case 12: launch<12>(x, f, y, h, w); break;
        case 13: launch<13>(x, f, y, h, w); break;
        case 14: launch<14>(x, f, y, h, w); break;
        default: launch<15>(x, f, y, h, w); break;  // r = 31, the largest the problem allows
    }
}
