// expect: wrong_answer
// Bug: the key loop only visits whole tiles of 32 keys (s / KEY_TILE of them), so the last
// s % 32 keys never enter the softmax; for s < 32 no key is visited at all and the output is
// 0 / 0 = NaN. Correct only when s is a multiple of 32.
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
    const int row = blockIdx.x * ROWS + t;
    float qr[D], acc[D];
    for (int i = 0; i < D; ++i) {
        qr[i] = row < s ? __half2float(q[head + (size_t)row * D + i]) : 0.0f;
        acc[i] = 0.0f;
    }
    float m = -INFINITY, l = 0.0f;
    for (int tile = 0; tile < s / KEY_TILE; ++tile) {  // BUG: drops the partial last tile
        const int j0 = tile * KEY_TILE;
        __syncthreads();
        for (int i = t; i < KEY_TILE * D; i += ROWS) {
            ks[i / D][i % D] = k[head + (size_t)j0 * D + i];
            vs[i / D][i % D] = v[head + (size_t)j0 * D + i];
        }
        __syncthreads();
        for (int j = 0; j < KEY_TILE; ++j) {
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
    if (row < s)
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
