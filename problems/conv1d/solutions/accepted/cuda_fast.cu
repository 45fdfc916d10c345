// 1-D convolution at the FP32 units' speed: shared-memory tiles with a halo, w in shared
// memory, and register blocking with a sliding window.
//
// Each block computes TILE = 256 x 16 consecutive outputs. It first copies the k taps (zero-
// padded to a multiple of 20) and the TILE + kpad inputs its outputs need (the tile and its
// halo; zeros past n) into shared memory, with 128-bit loads. Each thread then computes 16
// consecutive outputs. For every 4 taps it loads the 4 taps (one broadcast 128-bit load) and
// the 4 inputs that enter its window (one 128-bit load), and does 64 FMAs. The window lives
// in 20 registers used as a ring: after 5 steps (20 taps) the ring has turned once, so the
// tap loop is unrolled by 5 and every register index is a constant (no moves).
//
// The x tile is stored with 4 floats of padding after every 32: the 8 threads of a 128-bit
// load phase, 16 floats apart, then fall on 8 different groups of 4 banks (no conflicts).
// Per 64 FMAs a thread issues 2 shared loads and a few integer instructions, so the FMA
// units, not shared memory, set the pace: 2·k·n FLOPs at the FP32 peak.
#include <cuda_runtime.h>

constexpr int THREADS = 256;
constexpr int R = 16;                // outputs per thread
constexpr int TILE = THREADS * R;    // outputs per block
constexpr int STEP = 4;              // taps per step (one float4 of w)
constexpr int W = R + STEP;          // window registers
constexpr int GROUP = W;             // taps per full turn of the ring (W / STEP steps)

__host__ __device__ __forceinline__ int padded(int i) { return i + ((i >> 5) << 2); }

__global__ void __launch_bounds__(THREADS) conv1d_tiled(const float* __restrict__ x, const float* __restrict__ w,
                                                        float* __restrict__ y, int n, int k, int n_out, int kpad) {
    extern __shared__ float4 smem[];
    float* ws = reinterpret_cast<float*>(smem);  // kpad taps
    float* xs = ws + kpad;                       // TILE + kpad inputs, padded (kpad % 4 == 0: aligned)
    const long long base = (long long)blockIdx.x * TILE;

    for (int j = threadIdx.x; j < kpad; j += THREADS) ws[j] = j < k ? w[j] : 0.0f;
    const int span4 = (TILE + kpad) / 4;
    for (int v = threadIdx.x; v < span4; v += THREADS) {
        const long long g = base + 4 * v;
        float4 val;
        if (g + 4 <= n) {
            val = *reinterpret_cast<const float4*>(x + g);  // x is 16-byte aligned, g % 4 == 0
        } else {
            val.x = g < n ? x[g] : 0.0f;
            val.y = g + 1 < n ? x[g + 1] : 0.0f;
            val.z = g + 2 < n ? x[g + 2] : 0.0f;
            val.w = g + 3 < n ? x[g + 3] : 0.0f;
        }
        *reinterpret_cast<float4*>(xs + padded(4 * v)) = val;
    }
    __syncthreads();

    const int t0 = threadIdx.x * R;
    float acc[R];
    float win[W];
#pragma unroll
    for (int r = 0; r < R; ++r) acc[r] = 0.0f;
#pragma unroll
    for (int c = 0; c < R; c += 4) {  // inputs t0 .. t0 + R - 1 into ring slots 0 .. R - 1
        const float4 v = *reinterpret_cast<const float4*>(xs + padded(t0 + c));
        win[c] = v.x; win[c + 1] = v.y; win[c + 2] = v.z; win[c + 3] = v.w;
    }
    for (int j0 = 0; j0 < kpad; j0 += GROUP) {
#pragma unroll
        for (int s = 0; s < GROUP / STEP; ++s) {
            const int j = j0 + s * STEP;
            // Inputs t0 + j + R .. + 3 enter the ring at slots (s * STEP + R) % W ...
            const float4 nx = *reinterpret_cast<const float4*>(xs + padded(t0 + j + R));
            const int slot = (s * STEP + R) % W;
            win[slot] = nx.x; win[slot + 1] = nx.y; win[slot + 2] = nx.z; win[slot + 3] = nx.w;
            const float4 wv = *reinterpret_cast<const float4*>(ws + j);
            // ... and output t0 + r uses inputs t0 + r + j + u, at slot (s * STEP + r + u) % W.
#pragma unroll
            for (int r = 0; r < R; ++r) {
                acc[r] = fmaf(win[(s * STEP + r) % W], wv.x, acc[r]);
                acc[r] = fmaf(win[(s * STEP + r + 1) % W], wv.y, acc[r]);
                acc[r] = fmaf(win[(s * STEP + r + 2) % W], wv.z, acc[r]);
                acc[r] = fmaf(win[(s * STEP + r + 3) % W], wv.w, acc[r]);
            }
        }
    }

    const long long o = base + t0;
    if (o + R <= n_out) {  // y is 16-byte aligned and o % 16 == 0
#pragma unroll
        for (int r = 0; r < R; r += 4)
            *reinterpret_cast<float4*>(y + o + r) = make_float4(acc[r], acc[r + 1], acc[r + 2], acc[r + 3]);
    } else {
#pragma unroll
        for (int r = 0; r < R; ++r)
            if (o + r < n_out) y[o + r] = acc[r];
    }
}

extern "C" void solve(const float* x, const float* w, float* y, int n, int k) {
    const int n_out = n - k + 1;
    const int kpad = (k + GROUP - 1) / GROUP * GROUP;
    const int span = TILE + kpad;
    const size_t smem = sizeof(float) * (kpad + padded(span));  // padded(span) >= padded(span - 1) + 1
    const int blocks = (n_out + TILE - 1) / TILE;
    conv1d_tiled<<<blocks, THREADS, smem>>>(x, w, y, n, k, n_out, kpad);
}
