// expect: wrong_answer
// expect-message: o: wrote past the end
// Bug: one thread per query row, 64 rows per block, and no `if (row < s)`: the threads of a
// head's last block whose row is s or more load q rows that belong to the next head (or lie
// past the end of q), attend over this head's keys, and store their outputs into the next
// head's rows of o (racing with that head's blocks) or, in the last head, past the end of o.
// Keys are handled right. Right only when s is a multiple of 64.
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include <math.h>

namespace {

constexpr int ROWS = 64;
constexpr int KEY_TILE = 32;

template <int D>
__global__ void attention_rowwise(const half* q, const half* k, const half* v, half* o, int s, float scale) {
    __shared__ half ks[KEY_TILE][D];
    __shared__ half vs[KEY_TILE][D];
    const size_t head = (size_t)blockIdx.y * s * D;
    const int t = threadIdx.x;
    const int row = blockIdx.x * ROWS + t;  // BUG: may be >= s, and nothing below checks it
    float qr[D], acc[D];
    for (int i = 0; i < D; ++i) {
        qr[i] = __half2float(q[head + (size_t)row * D + i]);
        acc[i] = 0.0f;
    }
    float m = -INFINITY, l = 0.0f;
    for (int j0 = 0; j0 < s; j0 += KEY_TILE) {
        const int nk = min(KEY_TILE, s - j0);
        __syncthreads();
        for (int i = t; i < nk * D; i += ROWS) {
            ks[i / D][i % D] = k[head + (size_t)j0 * D + i];
            vs[i / D][i % D] = v[head + (size_t)j0 * D + i];
        }
        __syncthreads();
        for (int j = 0; j < nk; ++j) {
            float dot = 0.0f;
            for (int i = 0; i < D; ++i) dot += qr[i] * __half2float(ks[j][i]);
            const float score = dot * scale;
            const float m_new = fmaxf(m, score);
            const float corr = expf(m - m_new), p = expf(score - m_new);
            l = l * corr + p;
            for (int i = 0; i < D; ++i) acc[i] = acc[i] * corr + p * __half2float(vs[j][i]);
            m = m_new;
        }
    }
    for (int i = 0; i < D; ++i) o[head + (size_t)row * D + i] = __float2half(acc[i] / l);
}

template <int D>
void launch(const half* q, const half* k, const half* v, half* o, int b, int h, int s) {
    dim3 grid((s + ROWS - 1) / ROWS, b * h);
    attention_rowwise<D><<<grid, ROWS>>>(q, k, v, o, s, 1.0f / sqrtf((float)D));
}

}  // namespace

extern "C" void solve(const half* q, const half* k, const half* v, half* o, int b, int h, int s, int d) {
    if (d == 32) launch<32>(q, k, v, o, b, h, s);
    if (d == 64) launch<64>(q, k, v, o, b, h, s);
    if (d == 128) launch<128>(q, k, v, o, b, h, s);
}
